import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { count, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { openDatabase, type Db } from '../src/db/connection'
import { seedBase } from '../src/seed/base'
import { mfaRecoveryCodes, sessions, userMfa, users } from '../src/db/schema'
import { createTestApp } from './helpers/app'
import { TEST_ADMIN_PASSWORD, TEST_SECRET_KEY } from './helpers/constants'
import { oathtool, previousStepCode } from './helpers/totp'

/**
 * `npm run reset-mfa -w apps/server -- <name>` (README: the last administrator who lost their device),
 * run as an operator runs it, against the embedded database's data directory and against PostgreSQL:
 * the user's second factor and recovery codes are gone, every session of theirs has ended, the
 * password alone signs in again, and nobody else is touched.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const NAME = 'lost_device'
const OTHER = 'kept_device'
const PASSWORD = 'Lost@Device12345'

type Inject = FastifyInstance['inject']
const json = async (inject: Inject, method: 'POST' | 'GET', url: string, payload?: object, token?: string) =>
  (await inject({ method, url, payload, headers: token ? { 'x-auth-token': token } : {} })).json()

/** A user with two-step sign-in bound and three sessions (one before binding, two opened with a code). */
async function enrolledWithSessions(inject: Inject, adminToken: string, nickName: string): Promise<number> {
  const insert = await json(inject, 'POST', '/api/user/insert', { nickName, password: PASSWORD }, adminToken)
  expect(insert.code, insert.msg).toBe(200)
  const token = (await json(inject, 'POST', '/api/login', { nickName, password: PASSWORD })).data.token
  const setup = await json(inject, 'POST', '/api/user/mfa/setup', {}, token)
  const secret: string = setup.data.secret
  // a step used once is refused: enrolment with the step before, the sign-ins with this step and the next
  const enable = await json(
    inject,
    'POST',
    '/api/user/mfa/enable',
    { code: await previousStepCode(secret) },
    token,
  )
  expect(enable.code, enable.msg).toBe(200)
  for (const at of [Date.now(), Date.now() + 30_000]) {
    const first = await json(inject, 'POST', '/api/login', { nickName, password: PASSWORD })
    expect(first.data.mfaRequired).toBe(true)
    const second = await json(inject, 'POST', '/api/login/mfa', {
      mfaToken: first.data.mfaToken,
      code: oathtool(secret, at),
    })
    expect(second.code, second.msg).toBe(200)
  }
  const [{ id }] = await json(inject, 'POST', '/api/user/list', { nickName }, adminToken).then(
    (r) => r.data.list,
  )
  return id
}

/** Runs the command as the README says, with the server's environment. */
function resetMfa(env: Record<string, string>, ...args: string[]) {
  return spawnSync('npm', ['run', '--silent', 'reset-mfa', '-w', 'apps/server', '--', ...args], {
    cwd: root,
    env: { ...process.env, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'error', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  })
}

const idOf = async (db: Db, nickName: string) =>
  (await db.select({ id: users.id }).from(users).where(eq(users.nickName, nickName)))[0].id
const state = async (db: Db, userId: number) => ({
  mfa: (await db.select().from(userMfa).where(eq(userMfa.userId, userId))).filter((m) => m.enabled).length,
  codes: (
    await db.select({ n: count() }).from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId))
  )[0].n,
  sessions: (await db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)))[0].n,
})

/** Before the command: both users bound, with sessions; after it: only the named one is cleared. */
async function expectResetOf(db: Db, command: () => ReturnType<typeof resetMfa>) {
  const target = await idOf(db, NAME)
  const other = await idOf(db, OTHER)
  expect(await state(db, target)).toEqual({ mfa: 1, codes: 10, sessions: 3 })
  const untouched = await state(db, other)
  expect(untouched).toEqual({ mfa: 1, codes: 10, sessions: 3 })

  const run = command()
  expect(run.status, run.stderr).toBe(0)
  expect(run.stdout).toContain(`已重置 ${NAME} 的两步验证`)
  expect(await state(db, target)).toEqual({ mfa: 0, codes: 0, sessions: 0 })
  expect(await state(db, other)).toEqual(untouched)
}

describe.skipIf(!!inject('pgTemplate'))(
  'reset-mfa on the embedded database (data directory)',
  { timeout: 240_000 },
  () => {
    // a directory per attempt, so a retried test starts afresh
    const dirs: string[] = []
    let dataDir = ''
    afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))
    const start = async () => {
      const config = loadConfig(
        {},
        {
          dataDir,
          initialAdminPassword: TEST_ADMIN_PASSWORD,
          passwordHashCost: 14,
          secretKey: TEST_SECRET_KEY,
        },
      )
      const database = await openDatabase({ dataDir, stageAuditRows: true })
      await seedBase(database.db, config)
      const app = await buildApp({ config, database, logger: false })
      return { app, database, stop: async () => (await app.close(), await database.close()) }
    }

    it('clears the user’s second factor and sessions; the password alone signs in again', async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-reset-mfa-'))
      dirs.push(dataDir)
      const first = await start()
      try {
        const admin = (
          await json(first.app.inject.bind(first.app), 'POST', '/api/login', {
            nickName: 'admin',
            password: TEST_ADMIN_PASSWORD,
          })
        ).data.token
        for (const name of [NAME, OTHER])
          await enrolledWithSessions(first.app.inject.bind(first.app), admin, name)
      } finally {
        await first.stop()
      }

      // the command holds the data directory itself: it runs with the server stopped
      const env = { DATA_DIR: dataDir, DATABASE_URL: '' }
      const inspect = await openDatabase({ dataDir })
      const before = { target: await state(inspect.db, await idOf(inspect.db, NAME)) }
      await inspect.close()
      expect(before.target).toEqual({ mfa: 1, codes: 10, sessions: 3 })
      const run = resetMfa(env, NAME)
      expect(run.status, run.stderr).toBe(0)
      expect(run.stdout).toContain(`已重置 ${NAME} 的两步验证`)
      const unknown = resetMfa(env, 'nobody_here')
      expect(unknown.status).toBe(1)
      expect(unknown.stderr).toContain('用户不存在：nobody_here')

      const second = await start()
      try {
        const db = second.database.db
        expect(await state(db, await idOf(db, NAME))).toEqual({ mfa: 0, codes: 0, sessions: 0 })
        expect(await state(db, await idOf(db, OTHER))).toEqual({ mfa: 1, codes: 10, sessions: 3 })
        const signIn = await json(second.app.inject.bind(second.app), 'POST', '/api/login', {
          nickName: NAME,
          password: PASSWORD,
        })
        expect(signIn.code, signIn.msg).toBe(200)
        expect(signIn.data.mfaRequired).toBeUndefined()
        expect(signIn.data.token).toEqual(expect.any(String))
      } finally {
        await second.stop()
      }
    })
  },
)

describe.runIf(!!inject('pgTemplate'))('reset-mfa on PostgreSQL', { timeout: 240_000 }, () => {
  it('clears the user’s second factor and sessions, the server still running', async () => {
    const t = await createTestApp()
    try {
      const injectFn = t.app.inject.bind(t.app)
      for (const name of [NAME, OTHER]) await enrolledWithSessions(injectFn, t.adminToken, name)
      await expectResetOf(t.db, () => resetMfa({ DATABASE_URL: t.databaseUrl! }, NAME))
      const signIn = await json(injectFn, 'POST', '/api/login', { nickName: NAME, password: PASSWORD })
      expect(signIn.data.mfaRequired).toBeUndefined()
      expect(signIn.data.token).toEqual(expect.any(String))
      const usage = resetMfa({ DATABASE_URL: t.databaseUrl! })
      expect(usage.status).toBe(2)
      expect(usage.stderr).toContain('用法：')
    } finally {
      await t.close()
    }
  })
})
