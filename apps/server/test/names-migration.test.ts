import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { INVISIBLE_CHARACTER, isCleanName, normalizeName } from '@amg/contract'
import { withDatabase } from './global-setup'

/**
 * Migration 0013 brings the names stored before the name rule (packages/contract names.ts) into
 * its form: a database migrated up to the migration before it, holding look-alike names, is
 * migrated the rest of the way, on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.
 */
const migrations = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations')
const MIGRATION = '0013_clean_names'
const sqlText = fs.readFileSync(path.join(migrations, `${MIGRATION}.sql`), 'utf8')

/** The migrations before 0013, in a folder of their own (the journal cut before it). */
function migrationsBefore(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-mig-'))
  fs.mkdirSync(path.join(dir, 'meta'))
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8'))
  const cut = journal.entries.findIndex((e: { tag: string }) => e.tag === MIGRATION)
  journal.entries = journal.entries.slice(0, cut)
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal))
  for (const e of journal.entries)
    fs.copyFileSync(path.join(migrations, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`))
  return dir
}

interface Target {
  query<T>(text: string): Promise<T[]>
  migrate(folder: string): Promise<void>
  close(): Promise<void>
}

async function pgliteTarget(): Promise<Target> {
  const client = await PGlite.create({ extensions: { pg_trgm } })
  return {
    query: async <T>(text: string) => (await client.query<T>(text)).rows,
    migrate: (folder) => migratePglite(drizzlePglite({ client }), { migrationsFolder: folder }),
    close: () => client.close(),
  }
}

async function postgresTarget(url: string): Promise<Target> {
  const name = `amg_mig_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const pool = new pg.Pool({ connectionString: withDatabase(url, name), max: 2 })
  // the drop below ends any connection still closing; the pool must hear that rather than throw it
  pool.on('error', () => {})
  return {
    query: async <T>(text: string) => (await pool.query(text)).rows as T[],
    migrate: (folder) => migratePg(drizzlePg({ client: pool }), { migrationsFolder: folder }),
    async close() {
      await pool.end()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

const lit = (text: string) => `'${text.replace(/'/g, "''")}'`

/** Look-alike names as an older version stored them; each the name it is after the migration. */
const USERS: [string, string][] = [
  ['admin', 'admin'],
  ['admin\u200b', 'admin#2'],
  ['ａｄｍｉｎ', 'admin#3'],
  ['ｂｏｂ', 'bob'],
  ['  carol\u3000 lee ', 'carol lee'],
  ['\u202edave', 'dave'],
  ['\u200b\u200d', '#7'],
  ['eve\tmallory', 'eve mallory'],
]

describe('migration 0013 cleans the names stored before the name rule', () => {
  let target: Target
  let dir: string
  beforeAll(async () => {
    const url = process.env.TEST_DATABASE_URL
    target = url ? await postgresTarget(url) : await pgliteTarget()
    dir = migrationsBefore()
    await target.migrate(dir)
    let id = 0
    for (const [name] of USERS)
      await target.query(
        `insert into users (id, nick_name, real_name, password_hash) values (${++id}, ${lit(name)}, ${lit(`真\u200b实${id}`)}, 'x')`,
      )
    await target.query(
      `insert into roles (id, role_name) values (1, '审计员'), (2, '审计员\ufeff'), (3, 'Ｒｏｌｅ１')`,
    )
    await target.query(`insert into user_groups (id, group_name) values (1, '研发\u00ad组')`)
    await target.query(`insert into stations (id, station_name) values (1, '工程师\u2060'), (2, '工程师')`)
    // 3 holds U+2010, the hyphen a full-width one becomes in a department name
    await target.query(
      `insert into organizations (id, organization_name, parent) values (1, '总公司', null), (2, '研发－部', 1), (3, '研发‐部', 1)`,
    )
    await target.query(
      `insert into auths (code, ch_name, en_name, type) values ('a1', '用户\u200b管理', 'ｕｓｅｒ', 1), ('a2', '\u200b', 'x\u2063', 1)`,
    )
    await target.migrate(migrations)
  })
  afterAll(async () => {
    await target?.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  const column = async (table: string, name: string, key = 'id') =>
    Object.fromEntries(
      (
        await target.query<{ k: string | number; v: string | null }>(
          `select ${key} as k, ${name} as v from ${table}`,
        )
      ).map((r) => [String(r.k), r.v]),
    )

  it('user names: normalised, invisible characters gone, a look-alike of an existing name becomes name#id', async () => {
    const names = await column('users', 'nick_name')
    USERS.forEach(([, after], i) => expect(names[String(i + 1)], USERS[i][0]).toBe(after))
    const real = await column('users', 'real_name')
    USERS.forEach((_, i) => expect(real[String(i + 1)]).toBe(`真实${i + 1}`))
  })

  it('roles, groups, job titles, departments and permissions likewise', async () => {
    expect(await column('roles', 'role_name')).toEqual({ '1': '审计员', '2': '审计员#2', '3': 'Role1' })
    expect(await column('user_groups', 'group_name')).toEqual({ '1': '研发组' })
    expect(await column('stations', 'station_name')).toEqual({ '1': '工程师#1', '2': '工程师' })
    // a full-width hyphen does not become the '-' that joins department paths
    expect(await column('organizations', 'organization_name')).toEqual({
      '1': '总公司',
      '2': '研发‐部#2',
      '3': '研发‐部',
    })
    expect(await column('auths', 'ch_name', 'code')).toEqual({ a1: '用户管理', a2: 'a2' })
    expect(await column('auths', 'en_name', 'code')).toEqual({ a1: 'user', a2: 'x' })
  })

  it('every name it leaves is one the API would store as it is', async () => {
    for (const [table, name] of [
      ['users', 'nick_name'],
      ['users', 'real_name'],
      ['roles', 'role_name'],
      ['user_groups', 'group_name'],
      ['stations', 'station_name'],
      ['organizations', 'organization_name'],
      ['auths', 'ch_name'],
      ['auths', 'en_name'],
    ]) {
      for (const value of Object.values(await column(table, name, table === 'auths' ? 'code' : 'id'))) {
        if (value === null) continue
        expect(isCleanName(value), `${table}.${name} ${JSON.stringify(value)}`).toBe(true)
        expect(normalizeName(value)).toBe(value)
      }
    }
  })

  it('adds the index of the operator-id filter and leaves no helper function behind', async () => {
    const indexes = await target.query<{ indexname: string }>(
      `select indexname from pg_indexes where tablename = 'operation_logs'`,
    )
    expect(indexes.map((i) => i.indexname)).toContain('operation_logs_operator_id_time_idx')
    const functions = await target.query<{ proname: string }>(
      `select proname from pg_proc where proname in ('amg_clean_name', 'amg_name_with_id')`,
    )
    expect(functions).toEqual([])
  })
})

/** The ranges of a bracket expression as the migration writes it (\uXXXX and \UXXXXXXXX escapes). */
function parseClass(text: string): Set<number> {
  const set = new Set<number>()
  const escape = /\\u([0-9a-f]{4})|\\U([0-9a-f]{8})/gy
  const next = (): number | null => {
    const m = escape.exec(text)
    return m ? parseInt(m[1] ?? m[2], 16) : null
  }
  escape.lastIndex = 1 // after '['
  while (text[escape.lastIndex] !== ']') {
    const from = next()!
    let to = from
    if (text[escape.lastIndex] === '-') {
      escape.lastIndex++
      to = next()!
    }
    for (let c = from; c <= to; c++) set.add(c)
  }
  return set
}

describe('the migration removes exactly what the contract refuses', () => {
  it("its two character classes are the contract's invisible set", () => {
    const classes = [...sqlText.matchAll(/'(\[\\u[^']*\])'/g)].map((m) => parseClass(m[1]))
    expect(classes).toHaveLength(2)
    const [spaces, removed] = classes
    // collected, then compared once: an expect per code point would take a minute
    const differences: string[] = []
    for (let c = 1; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue
      const ch = String.fromCodePoint(c)
      const hex = `U+${c.toString(16)}`
      if (spaces.has(c) || removed.has(c) ? !INVISIBLE_CHARACTER.test(ch) : INVISIBLE_CHARACTER.test(ch))
        differences.push(`${hex}: the migration and the contract disagree`)
      if (spaces.has(c) && !/\p{White_Space}/u.test(ch))
        differences.push(`${hex}: made a space, not white space`)
    }
    expect(differences).toEqual([])
  })
})
