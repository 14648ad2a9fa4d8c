import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sql, type SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { queryRows } from '../src/db/connection'
import { arrayLiteral, arrayParam, intArray, textArray } from '../src/db/sql-arrays'
import { createTestApp, type TestApp } from './helpers/app'

/** Array parameters (db/sql-arrays.ts): what goes in comes back out, element for element, in order. */
let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

/** The elements of an array parameter as the database reads them, in order. */
async function roundTrip<T>(array: SQL): Promise<T[]> {
  const rows = await queryRows<{ x: T }>(
    t.db,
    sql`select x from unnest(${array}) with ordinality as e(x, n) order by n`,
  )
  return rows.map((r) => r.x)
}

const NASTY = [
  '',
  ' ',
  '  padded  ',
  'a,b',
  '{}',
  '{a,b}',
  '}',
  '{',
  '"',
  '""',
  'say "hi"',
  '\\',
  '\\\\',
  'ends with \\',
  '\\"',
  '"\\',
  'NULL',
  'null',
  '"NULL"',
  "it's",
  "''",
  '$1',
  '); drop table users; --',
  'tab\there',
  'line\nbreak',
  'carriage\rreturn',
  '张三',
  '部门,子部门',
  '🙂👨‍👩‍👧',
  '\u00e9 vs e\u0301',
  '\u200b',
  '\uffff',
  'ARRAY[1]',
  '[1:2]={a,b}',
]

describe('array parameters', () => {
  it('carry text with quotes, backslashes, commas, braces, the word NULL and any script unchanged', async () => {
    expect(await roundTrip<string>(textArray(NASTY))).toEqual(NASTY)
  })

  it('carry SQL NULL for null and undefined, distinct from the text "NULL"', async () => {
    expect(await roundTrip<string | null>(textArray(['NULL', null, 'x', null]))).toEqual([
      'NULL',
      null,
      'x',
      null,
    ])
    expect(await roundTrip<number | null>(arrayParam([1, null, undefined, 3], 'smallint'))).toEqual([
      1,
      null,
      null,
      3,
    ])
  })

  it('carry ids, none at all, and any set of them', async () => {
    expect(await roundTrip<number>(intArray([]))).toEqual([])
    expect(await roundTrip<number>(intArray(new Set([3, 1, 2])))).toEqual([3, 1, 2])
    expect(await roundTrip<number>(intArray([-1, 0, 2147483647]))).toEqual([-1, 0, 2147483647])
  })

  it('refuse what is not an id rather than reading it as several', async () => {
    // a value that would split into two ids if it were not quoted
    await expect(roundTrip(intArray(['1,2'] as unknown as number[]))).rejects.toThrow()
    await expect(roundTrip(intArray([1.5]))).rejects.toThrow()
  })

  it('match with = any() only the very element, not a part of it', async () => {
    const [row] = await queryRows<{ whole: boolean; part: boolean; nul: boolean | null }>(
      t.db,
      sql`select 'a,b' = any(${textArray(['a,b'])}) as whole, 'a' = any(${textArray(['a,b'])}) as part,
                 'NULL' = any(${textArray([null])}) as nul`,
    )
    expect(row).toEqual({ whole: true, part: false, nul: null })
  })

  it('carry any strings of any characters (fuzzed)', async () => {
    // PostgreSQL text holds every character but U+0000
    const text = fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.split('\u0000').join(''))
    const special = fc.constantFrom(...NASTY)
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(text, special, fc.constant(null)), { maxLength: 8 }),
        async (items) => {
          expect(await roundTrip<string | null>(textArray(items))).toEqual(items)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('are one text parameter however many elements', () => {
    const query = new PgDialect().sqlToQuery(sql`select ${intArray([1, 2, 3])}, ${textArray(['a', 'b'])}`)
    expect(query.params).toEqual(['{"1","2","3"}', '{"a","b"}'])
    expect(query.sql).toBe('select $1::int[], $2::text[]')
    expect(arrayLiteral([])).toBe('{}')
  })
})
