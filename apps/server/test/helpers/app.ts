import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { eq, isNull } from 'drizzle-orm'
import { buildApp } from '../../src/app'
import { loadConfig, postgresSettings, type Config } from '../../src/config'
import { openDatabase, type Database, type Db } from '../../src/db/connection'
import { organizations, roleAuths, roles, userRoles, users } from '../../src/db/schema'
import { hashPassword, passwordHashCost } from '../../src/auth/password'
import { withDatabase } from '../global-setup'
import { TEST_ADMIN_PASSWORD, TEST_SECRET_KEY, TEST_USER_PASSWORD } from './constants'

export interface CallOptions {
  token?: string | null
  body?: unknown
  query?: Record<string, string | number | boolean | undefined>
  headers?: Record<string, string>
  /** the client's address as the socket reports it (127.0.0.1 unless given) */
  remoteAddress?: string
}

/** Tests hash many passwords: at the lowest allowed cost (2^14) that stays fast; password.test.ts checks 2^17. */
export const TEST_PASSWORD_HASH_COST = 14

export interface CallResult<T = any> {
  status: number
  body: { code: number; msg: string; data: T }
  raw: string
}

export interface TestApp {
  app: FastifyInstance
  db: Db
  database: Database
  config: Config
  /** the PostgreSQL URL of this test's database (undefined on PGlite) */
  databaseUrl?: string
  /** the seeded admin's token (signed in once per app) */
  adminToken: string
  call<T = any>(method: string, url: string, opts?: CallOptions): Promise<CallResult<T>>
  login(nickName: string, password?: string): Promise<string>
  /** A user holding exactly these permission codes through a direct ordinary role; answers its id and token. */
  userWithCodes(codes: string[], nickName?: string): Promise<{ id: number; token: string; roleId: number }>
  close(): Promise<void>
}

/**
 * A fresh PostgreSQL database cloned from the run's template (migrated and seeded), and how to drop it:
 * for tests that open it themselves or hand it to a server process.
 */
export async function clonePgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL!
  const name = `${inject('pgTemplate')}_c_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  // Two clones started at the same instant can collide on the template; try again shortly.
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`)
      break
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err
      await new Promise((r) => setTimeout(r, 100 * attempt))
    }
  }
  await admin.end()
  return {
    url: withDatabase(url, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

/**
 * The hash of TEST_USER_PASSWORD at the current cost, made once per cost for every user a test makes:
 * hashing is slow on purpose, and each user's own salt is no part of what these tests are about.
 */
const testUserHashes = new Map<number, Promise<string>>()
function testUserHash(): Promise<string> {
  const cost = passwordHashCost()
  let hash = testUserHashes.get(cost)
  if (!hash) {
    hash = hashPassword(TEST_USER_PASSWORD)
    testUserHashes.set(cost, hash)
    // a refusal (hashing busy, as some tests make it) is not kept
    hash.catch(() => testUserHashes.delete(cost))
  }
  return hash
}

/**
 * A fresh app on a fresh database cloned from the run's template (PGlite, or PostgreSQL when
 * configured); its log lines go to `logStream` when given, nowhere otherwise.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  { logStream }: { logStream?: { write(line: string): void } } = {},
): Promise<TestApp> {
  const pgTemplate = inject('pgTemplate')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-data-'))
  const config = loadConfig(
    {},
    {
      dataDir,
      initialAdminPassword: TEST_ADMIN_PASSWORD,
      initialUserPassword: TEST_USER_PASSWORD,
      passwordHashCost: TEST_PASSWORD_HASH_COST,
      secretKey: TEST_SECRET_KEY,
      ...overrides,
    },
  )
  let database: Database
  let dropDatabase = async () => {}
  let databaseUrl: string | undefined
  if (pgTemplate) {
    const clone = await clonePgDatabase()
    databaseUrl = clone.url
    dropDatabase = clone.drop
    // as the server opens it: with its sessions' limits (config.ts)
    database = await openDatabase({ databaseUrl, stageAuditRows: true, ...postgresSettings(config) })
  } else {
    const tar = fs.readFileSync(inject('pgliteTemplate'))
    database = await openDatabase({ memory: true, loadDataDir: new Blob([tar]), stageAuditRows: true })
  }
  // log lines only where a test keeps them
  const app = await buildApp({ config, database, logger: !!logStream, logStream })
  await app.ready()

  const call = async <T>(method: string, url: string, opts: CallOptions = {}): Promise<CallResult<T>> => {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token) headers['x-auth-token'] = opts.token
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers,
      query: opts.query as Record<string, string> | undefined,
      ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    })
    let body: CallResult<T>['body']
    try {
      body = res.json()
    } catch {
      body = { code: res.statusCode, msg: res.body, data: null as T }
    }
    return { status: res.statusCode, body, raw: res.body }
  }

  const login = async (nickName: string, password = TEST_USER_PASSWORD) => {
    const res = await call<{ token: string }>('POST', '/api/login', { body: { nickName, password } })
    if (res.status !== 200) throw new Error(`login ${nickName} failed: ${res.status} ${res.body.msg}`)
    return res.body.data.token
  }

  const userWithCodes = async (codes: string[], nickName = `u_${randomBytes(4).toString('hex')}`) => {
    const [user] = await database.db
      .insert(users)
      .values({ nickName, passwordHash: await testUserHash(), status: 1 })
      .returning({ id: users.id })
    const [role] = await database.db
      .insert(roles)
      .values({ roleName: `r_${nickName}`, type: 3, status: 1 })
      .returning({ id: roles.id })
    if (codes.length)
      await database.db.insert(roleAuths).values(codes.map((authCode) => ({ roleId: role.id, authCode })))
    await database.db.insert(userRoles).values({ userId: user.id, roleId: role.id })
    await app.ctx.authz.invalidate()
    return { id: user.id, token: await login(nickName), roleId: role.id }
  }

  const adminToken = await login('admin', TEST_ADMIN_PASSWORD)

  return {
    app,
    db: database.db,
    database,
    config,
    databaseUrl,
    adminToken,
    call,
    login,
    userWithCodes,
    async close() {
      await app.close()
      await database.close()
      await dropDatabase()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export async function userIdByName(db: Db, nickName: string): Promise<number | undefined> {
  const [u] = await db.select({ id: users.id }).from(users).where(eq(users.nickName, nickName))
  return u?.id
}

/** The id of the root department (总公司), which every database starts with. */
export async function rootOrgIdOf(db: Db): Promise<number> {
  const [root] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(isNull(organizations.parent))
  return root.id
}
