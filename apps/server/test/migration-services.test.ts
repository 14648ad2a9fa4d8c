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
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { openDatabase, queryRows, type Database, type Db } from '../src/db/connection'
import { flattenSeedTree, seedBase } from '../src/seed/base'
import { SEED_AUTH_TREE } from '../src/db/seed-auth-tree'
import { auths, roleAuths, services, users } from '../src/db/schema'
import { configurePasswordHashing, hashPassword } from '../src/auth/password'
import { withDatabase } from './global-setup'
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from './helpers/constants'
import { TEST_PASSWORD_HASH_COST } from './helpers/app'

/**
 * Migration 0009 on a database made before it: the migrations up to 0008 (the journal sliced) and
 * the data the seed of that time wrote, then everything after — as an upgraded installation starts.
 */
const migrations = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations')
const LAST_BEFORE = '0008_role_list_cache'

/** A copy of the migrations folder whose journal stops at 0008. */
function migrationsUpTo0008(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-mig-'))
  fs.mkdirSync(path.join(dir, 'meta'))
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8'))
  const upTo = journal.entries.findIndex((e: { tag: string }) => e.tag === LAST_BEFORE)
  journal.entries = journal.entries.slice(0, upTo + 1)
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal))
  for (const e of journal.entries as { tag: string }[])
    fs.copyFileSync(path.join(migrations, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`))
  return dir
}

/** 应用管理 (服务管理 before migration 0020) and every button under it (the ones added since included) */
const isServiceCode = (code: string) => code === 'service' || code.startsWith('service:')
const pattern = (method: string, uri: string) => ({ method, uri })

/** The seeded tree as it was before services: no 服务管理, and the 权限分析 page held the check calls. */
function treeBeforeServices() {
  return flattenSeedTree(SEED_AUTH_TREE)
    .filter((r) => !isServiceCode(r.code))
    .map((r) =>
      r.code === 'authz'
        ? {
            ...r,
            urlPatternInfos: [
              pattern('POST', '/authz/explain'),
              pattern('GET', '/authz/effective'),
              pattern('POST', '/authz/who-can'),
              pattern('POST', '/authz/check'),
              pattern('POST', '/authz/check-batch'),
              pattern('POST', '/user/list'),
              pattern('GET', '/user/detail'),
              pattern('POST', '/auth/tree'),
            ],
          }
        : r,
    )
}

/** What the first start of that time wrote, plus an analyst holding the 权限分析 page node only. */
async function seedOldData(db: Db) {
  const tree = treeBeforeServices()
  await db.insert(auths).values(tree)
  // roles as the table was then: today's schema names columns added later (data_scope)
  const oldRole = async (roleName: string, type: number) =>
    (
      await queryRows<{ id: number }>(
        db,
        sql`insert into roles (role_name, type, status) values (${roleName}, ${type}, 1) returning id`,
      )
    )[0]
  // users as the table was then too (must_change_password and password_changed_at came later), each on
  // a password of their own: one still on an initial password must change it (migration 0016)
  const oldUser = async (nickName: string, password: string) =>
    (
      await queryRows<{ id: number }>(
        db,
        sql`insert into users (nick_name, password_hash, password_is_initial, status)
          values (${nickName}, ${await hashPassword(password)}, 0, 1) returning id`,
      )
    )[0]
  const superRole = await oldRole('超级管理员', 1)
  await db.insert(roleAuths).values(tree.map((r) => ({ roleId: superRole.id, authCode: r.code })))
  const admin = await oldUser('admin', TEST_ADMIN_PASSWORD)
  // the link as the table was then (expires_at came later)
  const linkRole = (userId: number, roleId: number) =>
    db.execute(sql`insert into user_roles (user_id, role_id) values (${userId}, ${roleId})`)
  await linkRole(admin.id, superRole.id)
  const analystRole = await oldRole('分析员', 3)
  await db.insert(roleAuths).values([
    { roleId: analystRole.id, authCode: 'analysis' },
    { roleId: analystRole.id, authCode: 'authz' },
  ])
  const analyst = await oldUser('old_analyst', TEST_USER_PASSWORD)
  await linkRole(analyst.id, analystRole.id)
}

/** Opens an upgraded database: built at 0008 with the old data, then opened as the server opens it. */
async function upgradedDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const folder = migrationsUpTo0008()
  try {
    const url = process.env.TEST_DATABASE_URL
    if (url) {
      const name = `amg_mig_${randomBytes(6).toString('hex')}`
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      await admin.query(`CREATE DATABASE ${name}`)
      const pool = new pg.Pool({ connectionString: withDatabase(url, name) })
      // the drop at the end ends any connection still closing; the pool must hear that rather than throw it
      pool.on('error', () => {})
      const old = drizzlePg({ client: pool }) as unknown as Db
      await migratePg(drizzlePg({ client: pool }), { migrationsFolder: folder })
      await seedOldData(old)
      await pool.end()
      const database = await openDatabase({ databaseUrl: withDatabase(url, name), stageAuditRows: true })
      return {
        database,
        async drop() {
          await database.close()
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
          await admin.end()
        },
      }
    }
    const client = await PGlite.create({ extensions: { pg_trgm } })
    await migratePglite(drizzlePglite({ client }), { migrationsFolder: folder })
    await seedOldData(drizzlePglite({ client }) as unknown as Db)
    const dump = await client.dumpDataDir('none')
    await client.close()
    const database = await openDatabase({ memory: true, loadDataDir: dump, stageAuditRows: true })
    return { database, drop: () => database.close() }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

const patternsOf = async (db: Db, code: string) =>
  (await db.select({ p: auths.urlPatternInfos }).from(auths).where(eq(auths.code, code)))[0].p.map(
    (p) => `${p.method} ${p.uri}`,
  )

describe('migration 0009 on a database made before services', () => {
  let upgraded: Awaited<ReturnType<typeof upgradedDatabase>>
  let db: Db

  beforeAll(async () => {
    configurePasswordHashing(TEST_PASSWORD_HASH_COST)
    upgraded = await upgradedDatabase()
    db = upgraded.database.db
  }, 120_000)
  afterAll(async () => upgraded?.drop())

  it("makes today's whole tree the built-in service ams", async () => {
    const rows = await db.select().from(services)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ key: 'ams', rootCode: null, builtIn: 1 })
  })

  it('adds the 应用管理 (once 服务管理) nodes under 权限管理, held by the super-admin role', async () => {
    const nodes = await db
      .select({ code: auths.code, parentCode: auths.parentCode, level: auths.level })
      .from(auths)
      .where(sql`${auths.code} like 'service%'`)
    expect(nodes.sort((a, b) => a.code.localeCompare(b.code))).toEqual([
      { code: 'service', parentCode: 'access', level: 2 },
      { code: 'service:add', parentCode: 'service', level: 3 },
      { code: 'service:delete', parentCode: 'service', level: 3 },
      { code: 'service:edit', parentCode: 'service', level: 3 },
    ])
    expect(await patternsOf(db, 'service:add')).toEqual(['POST /service/insert', 'POST /auth/tree'])
    // migration 0020 renamed the page node as services became the applications of single sign-on
    const [page] = await db.select({ chName: auths.chName }).from(auths).where(eq(auths.code, 'service'))
    expect(page.chName).toBe('应用管理')
    const held = await queryRows<{ auth_code: string }>(
      db,
      sql`select ra.auth_code from role_auths ra join roles r on r.id = ra.role_id
          where r.type = 1 and ra.auth_code like 'service%' order by 1`,
    )
    expect(held.map((r) => r.auth_code)).toEqual(['service', 'service:add', 'service:delete', 'service:edit'])
  })

  it('separates the 权限分析 page node from authz:check', async () => {
    const page = await patternsOf(db, 'authz')
    expect(page).not.toContain('POST /authz/check')
    expect(page).not.toContain('POST /authz/check-batch')
    expect(page).toEqual(expect.arrayContaining(['POST /authz/explain', 'POST /service/list']))
    expect((await patternsOf(db, 'authz:check')).sort()).toEqual([
      'POST /authz/check',
      'POST /authz/check-batch',
    ])
  })

  it('the seed at the next start adds nothing twice, and the upgraded server decides as a new one', async () => {
    const count = async () => (await db.select({ code: auths.code }).from(auths)).length
    const before = await count()
    const config = loadConfig(
      {},
      {
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'amg-mig-data-')),
        initialAdminPassword: TEST_ADMIN_PASSWORD,
        initialUserPassword: TEST_USER_PASSWORD,
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      },
    )
    // the first start adds what no migration made (buttons added since, under 应用管理 among them); a
    // second adds nothing
    await seedBase(db, config)
    const once = await count()
    expect(once).toBeGreaterThanOrEqual(before)
    await seedBase(db, config)
    expect(await count()).toBe(once)
    const app = await buildApp({ config, database: upgraded.database, logger: false })
    try {
      const login = async (nickName: string, password: string) =>
        (await app.inject({ method: 'POST', url: '/api/login', payload: { nickName, password } })).json().data
          .token as string
      const analyst = await login('old_analyst', TEST_USER_PASSWORD)
      const adminToken = await login('admin', TEST_ADMIN_PASSWORD)
      const call = (token: string, url: string, payload: object) =>
        app.inject({ method: 'POST', url, headers: { 'x-auth-token': token }, payload })
      const [{ id: adminId }] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.nickName, 'admin'))
      // held the page node, which used to let it check anyone: now itself only
      expect(
        (await call(analyst, '/api/authz/check', { method: 'GET', path: '/x', userId: adminId })).statusCode,
      ).toBe(403)
      expect(
        (await call(analyst, '/api/authz/check', { method: 'POST', path: '/authz/explain' })).json().data
          .allowed,
      ).toBe(true)
      expect(
        (await call(analyst, '/api/authz/explain', { method: 'GET', path: '/x', userId: adminId }))
          .statusCode,
      ).toBe(200)
      expect(
        (await call(adminToken, '/api/service/list', {})).json().data.list.map((s: any) => s.key),
      ).toEqual(['ams'])
    } finally {
      await app.close()
      fs.rmSync(config.dataDir, { recursive: true, force: true })
    }
  })
})
