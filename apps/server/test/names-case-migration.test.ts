import { spawnSync } from 'node:child_process'
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
import { caseFoldTable, CASED_LIMIT, foldName } from '@amg/contract'
import { openDatabase } from '../src/db/connection'
import { hashPassword } from '../src/auth/password'
import { withDatabase } from './global-setup'
import { startServer } from './helpers/server-process'
import { TEST_ADMIN_PASSWORD, TEST_SECRET_KEY } from './helpers/constants'

/**
 * Migration 0025 makes names unique ignoring case (DESIGN.md §11, second review). Its fold is the
 * contract's, letter for letter, on PGlite and on PostgreSQL, whatever the database's locale (the
 * PostgreSQL database here is made with LC_CTYPE C, where lower() leaves Ä alone). A database
 * holding names that differ only in case does not start: the server says which tables and names, and
 * starts once one of each is renamed.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const migrations = path.join(root, 'apps/server/src/db/migrations')
const MIGRATION = '0025_name_case'

/** The migrations before 0025, in a folder of their own (the journal cut before it). */
function migrationsBefore(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-mig-'))
  fs.mkdirSync(path.join(dir, 'meta'))
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8'))
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e: { tag: string }) => e.tag === MIGRATION),
  )
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal))
  for (const e of journal.entries)
    fs.copyFileSync(path.join(migrations, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`))
  return dir
}

/** A database the server can be pointed at: its environment, and direct access while it is not running. */
interface Target {
  env: Record<string, string>
  query<T>(text: string, params?: unknown[]): Promise<T[]>
  migrate(folder: string): Promise<void>
  /** lets go of the database so the server can open it (PGlite: one process at a time) */
  release(): Promise<void>
  close(): Promise<void>
}

async function pgliteTarget(dataDir: string): Promise<Target> {
  const dir = path.join(dataDir, 'pglite')
  let client: PGlite | null = null
  const open = async () => (client ??= await PGlite.create(dir, { extensions: { pg_trgm } }))
  const release = async () => {
    await client?.close()
    client = null
  }
  return {
    env: { DATABASE_URL: '' },
    query: async <T>(text: string, params?: unknown[]) => (await (await open()).query<T>(text, params)).rows,
    migrate: async (folder) =>
      migratePglite(drizzlePglite({ client: await open() }), { migrationsFolder: folder }),
    release,
    close: release,
  }
}

async function postgresTarget(url: string): Promise<Target> {
  const name = `amg_case_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  // lower() under this locale folds A–Z only: the fold must not depend on it
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`)
  const pool = new pg.Pool({ connectionString: withDatabase(url, name), max: 2 })
  pool.on('error', () => {})
  return {
    env: { DATABASE_URL: withDatabase(url, name) },
    query: async <T>(text: string, params?: unknown[]) => (await pool.query(text, params)).rows as T[],
    migrate: (folder) => migratePg(drizzlePg({ client: pool }), { migrationsFolder: folder }),
    release: async () => {},
    async close() {
      await pool.end()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

/** The real server started on the target, to its end: its exit status and what it said. */
function startOnce(dataDir: string, target: Target) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      INITIAL_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      SECRET_KEY: TEST_SECRET_KEY,
      PASSWORD_HASH_COST: '14',
      LOG_LEVEL: 'error',
      ...target.env,
    },
    encoding: 'utf8',
    timeout: 120_000,
  })
  return { status: res.status, stderr: res.stderr }
}

const pgUrl = process.env.TEST_DATABASE_URL
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-case-'))
let target: Target
let before: string

beforeAll(async () => {
  target = pgUrl ? await postgresTarget(pgUrl) : await pgliteTarget(dataDir)
  before = migrationsBefore()
  await target.migrate(before)
  const hash = await hashPassword(TEST_ADMIN_PASSWORD)
  await target.query(
    `insert into users (id, nick_name, password_hash, password_is_initial) overriding system value
     values (1, 'Admin', $1, 0), (2, 'admin', $1, 0), (3, 'bob', $1, 0), (4, 'Zoë', $1, 0)`,
    [hash],
  )
  await target.query(
    `insert into roles (id, role_name) overriding system value values (1, 'Ops'), (2, 'OPS'), (3, 'Dev')`,
  )
  await target.query(
    `insert into user_groups (id, group_name) overriding system value values (1, 'Ärzte'), (2, 'ärzte'), (3, 'ΣΑΣ'), (4, 'σας')`,
  )
  await target.query(
    `insert into stations (id, station_name) overriding system value values (1, 'Dev'), (2, 'dev')`,
  )
  // the same name in two cases under different parents is allowed; under one parent it is not
  await target.query(
    `insert into organizations (id, organization_name, parent) overriding system value
     values (1, '总公司', null), (2, 'Sales', 1), (3, 'sales', 1), (4, 'SALES', 2)`,
  )
  // rows given their ids: the identities go on after them, as the seed at start inserts too
  for (const table of ['users', 'roles', 'user_groups', 'stations', 'organizations'])
    await target.query(
      `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
    )
  await target.release()
}, 120_000)

afterAll(async () => {
  await target?.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
  if (before) fs.rmSync(before, { recursive: true, force: true })
})

describe('a database holding names that differ only in case', { timeout: 240_000 }, () => {
  it('does not start, naming each table and the names that clash', async () => {
    const { status, stderr } = startOnce(dataDir, target)
    expect(status).toBe(1)
    expect(stderr).toContain(
      '名称不区分大小写后，以下 6 组记录重名，请先改名其中之一再启动：' +
        'organizations.organization_name（上级部门 id=1）："Sales"(id=2)、"sales"(id=3)；' +
        'roles.role_name："Ops"(id=1)、"OPS"(id=2)；' +
        'stations.station_name："Dev"(id=1)、"dev"(id=2)；' +
        'user_groups.group_name："Ärzte"(id=1)、"ärzte"(id=2)；' +
        'user_groups.group_name："ΣΑΣ"(id=3)、"σας"(id=4)；' +
        'users.nick_name："Admin"(id=1)、"admin"(id=2)',
    )
    // nothing of the migration stayed: the names are as they were
    const rows = await target.query<{ nick_name: string }>('select nick_name from users order by id')
    expect(rows.map((r) => r.nick_name)).toEqual(['Admin', 'admin', 'bob', 'Zoë'])
    await target.release()
  })

  it('still names what is left after some are renamed', async () => {
    await target.query(`update users set nick_name = 'Admin-old' where id = 1`)
    await target.query(`update roles set role_name = 'Ops2' where id = 2`)
    await target.release()
    const open = openDatabase(pgUrl ? { databaseUrl: target.env.DATABASE_URL } : { dataDir })
    await expect(open).rejects.toThrow(
      '名称不区分大小写后，以下 4 组记录重名，请先改名其中之一再启动：organizations.organization_name',
    )
    const message = await open.catch((err: Error) => err.message)
    expect(message).not.toContain('users.nick_name')
    expect(message).not.toContain('roles.role_name')
  })

  it('starts once one of each is renamed; then the names are unique ignoring case', async () => {
    await target.query(`update user_groups set group_name = 'Ärzte 2' where id = 2`)
    await target.query(`update user_groups set group_name = 'σας 2' where id = 4`)
    await target.query(`update stations set station_name = 'dev2' where id = 2`)
    await target.query(`update organizations set organization_name = 'sales2' where id = 3`)
    await target.release()
    const server = await startServer(target.env, { dataDir })
    try {
      // sign-in by name ignores case: ADMIN is admin
      const res = await fetch(`${server.base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nickName: 'ADMIN', password: TEST_ADMIN_PASSWORD }),
      })
      const body = (await res.json()) as { data: { user: { id: number; nickName: string } } }
      expect(res.status).toBe(200)
      expect(body.data.user).toMatchObject({ id: 2, nickName: 'admin' })
    } finally {
      await server.stop()
    }
    const refused = (table: string, index: string, insert: string) =>
      expect(target.query(insert), `${table} ${insert}`).rejects.toMatchObject({
        code: '23505',
        constraint: `${table}_${index}_fold_key`,
      })
    const users = `insert into users (nick_name, password_hash) values`
    await refused('users', 'nick_name', `${users} ('BOB', 'x')`)
    await refused('users', 'nick_name', `${users} ('ZOË', 'x')`)
    await refused('roles', 'role_name', `insert into roles (role_name) values ('dEV')`)
    await refused('user_groups', 'group_name', `insert into user_groups (group_name) values ('ÄRZTE')`)
    await refused('user_groups', 'group_name', `insert into user_groups (group_name) values ('σασ')`)
    await refused('stations', 'station_name', `insert into stations (station_name) values ('DEV')`)
    await refused(
      'organizations',
      'parent_name',
      `insert into organizations (organization_name, parent) values ('SALES', 1)`,
    )
    await target.query(`insert into organizations (organization_name, parent) values ('sales', 4)`)
    await target.release()
  })
})

describe('amg_name_fold', { timeout: 120_000 }, () => {
  it('is the contract fold, letter for letter, alone and inside other text', async () => {
    const letters: string[] = []
    for (let cp = 0; cp < CASED_LIMIT; cp++)
      if (cp < 0xd800 || cp > 0xdfff) letters.push(String.fromCodePoint(cp))
    // every cased letter and its fold alone; every letter beside Chinese and ASCII, as names hold them
    const cased = [...caseFoldTable()].flat()
    const samples = [...cased, ...letters.filter((l) => /\p{L}/u.test(l)).map((l) => `张A${l}z`), ...letters]
    // compared in the database: the answer's text would pass a decoder that drops a leading U+FEFF
    const wrong: string[] = []
    for (let i = 0; i < samples.length; i += 5000) {
      const chunk = samples.slice(i, i + 5000).map((s) => (s === '\u0000' ? ' ' : s))
      const rows = await target.query<{ x: string }>(
        'select x from unnest($1::text[], $2::text[]) as s(x, e) where amg_name_fold(x) is distinct from e',
        [chunk, chunk.map(foldName)],
      )
      wrong.push(...rows.map((r) => r.x))
    }
    expect(wrong.slice(0, 20)).toEqual([])
    await target.release()
  })

  it('is what the database locale does not decide', async () => {
    const [row] = await target.query<{ fold: string; lower: string }>(
      `select amg_name_fold('ÄRZTE ΣΑΣ ǅ ẞ') as fold, lower('ÄRZTE') as lower`,
    )
    expect(row.fold).toBe('ärzte σασ ǆ ß')
    // LC_CTYPE C: the database's lower() knows A–Z only
    if (pgUrl) expect(row.lower).toBe('Ärzte')
    await target.release()
  })
})

it('CASED_LIMIT holds every letter that has a case', () => {
  for (let cp = CASED_LIMIT; cp <= 0x10ffff; cp += 1) {
    const letter = String.fromCodePoint(cp)
    if (letter.toUpperCase() !== letter || letter.toLowerCase() !== letter) throw new Error(cp.toString(16))
  }
})
