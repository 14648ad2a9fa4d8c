import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, queryRows, type Database, type Db } from '../src/db/connection'
import { sessions, users } from '../src/db/schema'
import { configurePasswordHashing, hashPassword, verifyPassword } from '../src/auth/password'
import { withDatabase } from './global-setup'
import { TEST_USER_PASSWORD } from './helpers/constants'
import { TEST_PASSWORD_HASH_COST } from './helpers/app'

/**
 * Migration 0024 on a database where an earlier version adopted an existing user as a machine
 * client's service account (DESIGN.md §11): the linked account becomes a service account, loses its
 * password and its sessions; other users keep theirs.
 */
const migrations = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations')
const LAST_BEFORE = '0023_audit_link_names'

function migrationsUpTo(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-mig-'))
  fs.mkdirSync(path.join(dir, 'meta'))
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8'))
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e: { tag: string }) => e.tag === tag) + 1,
  )
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal))
  for (const e of journal.entries as { tag: string }[])
    fs.copyFileSync(path.join(migrations, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`))
  return dir
}

/** A squatter's svc-billing, adopted by the billing machine client and signed in; and a bystander. */
async function seedAdopted(db: Db) {
  const hash = await hashPassword(TEST_USER_PASSWORD)
  const user = async (nickName: string) =>
    (
      await queryRows<{ id: number }>(
        db,
        sql`insert into users (nick_name, password_hash, password_is_initial, status)
          values (${nickName}, ${hash}, 0, 1) returning id`,
      )
    )[0].id
  const squatter = await user('svc-billing')
  const bystander = await user('bystander')
  await db.execute(
    sql`insert into auths (code, level, ch_name, en_name, type, status, seq) values ('BILL', 1, '计费', 'billing', 1, 1, 99)`,
  )
  const [service] = await queryRows<{ id: number }>(
    db,
    sql`insert into services (key, name, root_code) values ('billing', '计费', 'BILL') returning id`,
  )
  await db.execute(sql`insert into oidc_clients (service_id, type, redirect_uris, service_user_id)
    values (${service.id}, 'machine', '{}', ${squatter})`)
  for (const [id, token] of [
    [squatter, 'a'.repeat(64)],
    [bystander, 'b'.repeat(64)],
  ] as const)
    await db.execute(sql`insert into sessions (token_hash, user_id, expires_at)
      values (${token}, ${id}, now() + interval '1 hour')`)
  return { squatter, bystander }
}

async function upgraded(): Promise<{
  database: Database
  ids: { squatter: number; bystander: number }
  drop(): Promise<void>
}> {
  const folder = migrationsUpTo(LAST_BEFORE)
  try {
    const url = process.env.TEST_DATABASE_URL
    if (url) {
      const name = `amg_mig_${randomBytes(6).toString('hex')}`
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      await admin.query(`CREATE DATABASE ${name}`)
      const pool = new pg.Pool({ connectionString: withDatabase(url, name) })
      pool.on('error', () => {})
      await migratePg(drizzlePg({ client: pool }), { migrationsFolder: folder })
      const ids = await seedAdopted(drizzlePg({ client: pool }) as unknown as Db)
      await pool.end()
      const database = await openDatabase({ databaseUrl: withDatabase(url, name), stageAuditRows: true })
      return {
        database,
        ids,
        async drop() {
          await database.close()
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
          await admin.end()
        },
      }
    }
    const client = await PGlite.create({ extensions: { pg_trgm } })
    await migratePglite(drizzlePglite({ client }), { migrationsFolder: folder })
    const ids = await seedAdopted(drizzlePglite({ client }) as unknown as Db)
    const dump = await client.dumpDataDir('none')
    await client.close()
    const database = await openDatabase({ memory: true, loadDataDir: dump, stageAuditRows: true })
    return { database, ids, drop: () => database.close() }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

describe('migration 0024 on a database with an adopted service account', () => {
  let up: Awaited<ReturnType<typeof upgraded>>
  let db: Db

  beforeAll(async () => {
    configurePasswordHashing(TEST_PASSWORD_HASH_COST)
    up = await upgraded()
    db = up.database.db
  }, 120_000)
  afterAll(async () => up?.drop())

  it('marks the linked account, takes its password and ends its sessions; others keep theirs', async () => {
    const [squatter] = await db.select().from(users).where(eq(users.id, up.ids.squatter))
    expect(squatter.serviceAccount).toBe(true)
    expect(squatter.passwordHash).toBe('!')
    expect(await verifyPassword(TEST_USER_PASSWORD, squatter.passwordHash)).toBe(false)
    expect(await db.select().from(sessions).where(eq(sessions.userId, up.ids.squatter))).toEqual([])

    const [bystander] = await db.select().from(users).where(eq(users.id, up.ids.bystander))
    expect(bystander.serviceAccount).toBe(false)
    expect(await verifyPassword(TEST_USER_PASSWORD, bystander.passwordHash)).toBe(true)
    expect(await db.select().from(sessions).where(eq(sessions.userId, up.ids.bystander))).toHaveLength(1)
  })
})
