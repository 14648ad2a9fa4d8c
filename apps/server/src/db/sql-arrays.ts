import { sql, type SQL } from 'drizzle-orm'

/** The element types queries send arrays of. */
export type ArrayElementType = 'int' | 'smallint' | 'text' | 'timestamptz'

type Element = string | number | null | undefined

/**
 * A PostgreSQL array literal of these values, sent as ONE text parameter whatever their number: a
 * statement keeps the same text (and plan) for any list, and never nears the 65,535-parameter limit.
 * Every element is quoted, with backslash and double quote escaped, so commas, braces, quotes,
 * whitespace and the word NULL inside a value stay part of it; null and undefined become SQL NULL.
 */
export function arrayLiteral(items: Iterable<Element>): string {
  const quoted: string[] = []
  for (const item of items)
    quoted.push(
      item === null || item === undefined ? 'NULL' : `"${String(item).replace(/[\\"]/g, (c) => `\\${c}`)}"`,
    )
  return `{${quoted.join(',')}}`
}

/** A typed array parameter, `$n::type[]`, for `= any(…)` and `unnest(…)`. */
export const arrayParam = (items: Iterable<Element>, type: ArrayElementType): SQL =>
  sql`${arrayLiteral(items)}::${sql.raw(type)}[]`

/** An `int[]` parameter: ids. */
export const intArray = (ids: Iterable<number>): SQL => arrayParam(ids, 'int')

/** A `text[]` parameter. */
export const textArray = (texts: Iterable<string | null>): SQL => arrayParam(texts, 'text')
