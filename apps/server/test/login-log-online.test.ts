import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq } from 'drizzle-orm'
import { loginLogs } from '../src/db/audit-schema'
import { sessions, users } from '../src/db/schema'
import { buildApp } from '../src/app'
import { openDatabase } from '../src/db/connection'
import { LastSeen, LAST_SEEN_EVERY_MS } from '../src/auth/last-seen'
import { hashToken } from '../src/lib/tokens'
import { createTestApp, type TestApp } from './helpers/app'
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from './helpers/constants'

/** DESIGN.md §9: the login log, the online sessions and ending one. */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const signIn = (nickName: string, password: string, remoteAddress = '10.0.0.7') =>
  t.call('POST', '/api/login', {
    body: { nickName, password },
    headers: { 'user-agent': 'Browser/1.0' },
    remoteAddress,
  })

async function lastLogin() {
  const [row] = await t.db.select().from(loginLogs).orderBy(desc(loginLogs.id)).limit(1)
  return row
}

describe('the login log', () => {
  it('records every attempt, sign-out and its address and browser', async () => {
    const { id } = await t.userWithCodes(['user'], 'log_user')
    expect((await signIn('log_user', TEST_USER_PASSWORD)).status).toBe(200)
    expect(await lastLogin()).toMatchObject({
      nickName: 'log_user',
      userId: id,
      ip: '10.0.0.7',
      userAgent: 'Browser/1.0',
      result: 'success',
    })
    expect((await signIn('log_user', 'Wrong@Password1')).status).toBe(401)
    expect(await lastLogin()).toMatchObject({
      nickName: 'log_user',
      userId: id,
      result: 'failure',
      msg: '用户昵称或密码错误',
    })
    expect((await signIn('nobody_here', 'Wrong@Password1')).status).toBe(401)
    expect(await lastLogin()).toMatchObject({ nickName: 'nobody_here', userId: null, result: 'failure' })
    await t.db.update(users).set({ status: 2 }).where(eq(users.id, id))
    expect((await signIn('log_user', TEST_USER_PASSWORD)).status).toBe(403)
    expect(await lastLogin()).toMatchObject({ result: 'frozen', userId: id })
    await t.db.update(users).set({ status: 1 }).where(eq(users.id, id))
    const token = (await signIn('log_user', TEST_USER_PASSWORD)).body.data.token
    expect((await t.call('POST', '/api/logout', { token })).status).toBe(200)
    expect(await lastLogin()).toMatchObject({ result: 'logout', userId: id })
  })

  it('records a throttled attempt as locked', async () => {
    let status = 0
    for (let i = 0; i < 12 && status !== 429; i++)
      status = (await signIn('throttled_one', 'Wrong@Password1', '10.9.9.9')).status
    expect(status).toBe(429)
    expect(await lastLogin()).toMatchObject({ nickName: 'throttled_one', result: 'locked', ip: '10.9.9.9' })
  })

  it('POST /log/login/list: newest first, by user, result and time, paged', async () => {
    const admin = (body: object) => t.call('POST', '/api/log/login/list', { token: t.adminToken, body })
    const all = await admin({ pageSize: 200 })
    expect(all.status).toBe(200)
    const ids = all.body.data.list.map((r: { id: number }) => r.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    const mine = await admin({ nickName: 'log_us' })
    expect(mine.body.data.list.every((r: { nickName: string }) => r.nickName === 'log_user')).toBe(true)
    expect(mine.body.data.total).toBe(6)
    const failures = await admin({ result: 'failure' })
    expect(failures.body.data.list.every((r: { result: string }) => r.result === 'failure')).toBe(true)
    expect((await admin({ from: '2999-01-01T00:00:00Z' })).body.data.total).toBe(0)
    expect(
      (await admin({ pageNum: 2, pageSize: 1 })).body.data.list.map((r: { id: number }) => r.id),
    ).toEqual([ids[1]])
    expect((await admin({ result: 'other' })).status).toBe(400)
  })
})

describe('online sessions', () => {
  it('lists live sessions with address, browser, times and the caller’s own marked', async () => {
    await t.userWithCodes(['user'], 'online_a')
    await signIn('online_a', TEST_USER_PASSWORD, '10.1.1.1')
    await signIn('online_a', TEST_USER_PASSWORD, '10.1.1.2')
    const res = await t.call('POST', '/api/session/online/list', {
      token: t.adminToken,
      body: { nickName: 'online_a' },
    })
    expect(res.status).toBe(200)
    // userWithCodes signed in once too (no browser named)
    expect(res.body.data.total).toBe(3)
    const fromBrowser = res.body.data.list.filter(
      (r: { userAgent: string | null }) => r.userAgent === 'Browser/1.0',
    )
    expect(fromBrowser.map((r: { ip: string }) => r.ip).sort()).toEqual(['10.1.1.1', '10.1.1.2'])
    for (const row of res.body.data.list) {
      expect(row).toMatchObject({ nickName: 'online_a', current: false })
      expect(row).not.toHaveProperty('tokenHash')
      expect(new Date(row.expiresAt).getTime()).toBeGreaterThan(Date.now())
      expect(new Date(row.lastSeenTime).getTime()).toBeGreaterThanOrEqual(
        new Date(row.loginTime).getTime() - 1000,
      )
    }
    const own = await t.call('POST', '/api/session/online/list', {
      token: t.adminToken,
      body: { nickName: 'admin' },
    })
    expect(own.body.data.list.some((r: { current: boolean }) => r.current)).toBe(true)
  })

  it('revoke ends the session at once and is logged; 404 for an unknown one', async () => {
    await t.userWithCodes(['user'], 'online_b')
    const token = (await signIn('online_b', TEST_USER_PASSWORD)).body.data.token
    expect((await t.call('POST', '/api/user/list', { token, body: {} })).status).toBe(200)
    const list = await t.call('POST', '/api/session/online/list', {
      token: t.adminToken,
      body: { nickName: 'online_b' },
    })
    const sessionId = list.body.data.list[0].id
    const res = await t.call('DELETE', '/api/session/online/revoke', {
      token: t.adminToken,
      query: { id: sessionId },
    })
    expect(res.status).toBe(200)
    expect((await t.call('POST', '/api/user/list', { token, body: {} })).status).toBe(401)
    expect(await lastLogin()).toMatchObject({ nickName: 'online_b', result: 'revoked' })
    const again = await t.call('DELETE', '/api/session/online/revoke', {
      token: t.adminToken,
      query: { id: sessionId },
    })
    expect(again.status).toBe(404)
  })

  it('needs online:revoke, and the power over the session’s user', async () => {
    const viewer = await t.userWithCodes(['online'], 'online_viewer')
    const adminSession = (
      await t.call('POST', '/api/session/online/list', { token: t.adminToken, body: { nickName: 'admin' } })
    ).body.data.list[0].id
    expect(
      (
        await t.call('DELETE', '/api/session/online/revoke', {
          token: viewer.token,
          query: { id: adminSession },
        })
      ).status,
    ).toBe(403)
    const revoker = await t.userWithCodes(['online', 'online:revoke'], 'online_revoker')
    const refused = await t.call('DELETE', '/api/session/online/revoke', {
      token: revoker.token,
      query: { id: adminSession },
    })
    expect(refused.status).toBe(403)
    expect(refused.body.msg).toBe('不能授予或管理超出自己权限的内容：超级管理员')
    expect((await t.call('GET', '/api/user/current', { token: t.adminToken })).status).toBe(200)
    const [viewerSession] = await t.db.select().from(sessions).where(eq(sessions.userId, viewer.id))
    const allowed = await t.call('DELETE', '/api/session/online/revoke', {
      token: revoker.token,
      query: { id: viewerSession.id },
    })
    expect(allowed.status).toBe(200)
  })
})

describe('last seen', () => {
  it('is written at most once a minute per session', async () => {
    const [row] = await t.db.select().from(sessions).limit(1)
    const lastSeen = new LastSeen(t.db)
    const token = 'not-a-real-token'
    await t.db
      .update(sessions)
      .set({ tokenHash: hashToken(token) })
      .where(eq(sessions.id, row.id))
    const read = async () =>
      (await t.db.select().from(sessions).where(eq(sessions.id, row.id)))[0].lastSeenTime
    await t.db
      .update(sessions)
      .set({ lastSeenTime: new Date(0) })
      .where(eq(sessions.id, row.id))
    await lastSeen.touch(hashToken(token), 1_000_000)
    const first = await read()
    expect(first.getTime()).toBeGreaterThan(0)
    await t.db
      .update(sessions)
      .set({ lastSeenTime: new Date(0) })
      .where(eq(sessions.id, row.id))
    await lastSeen.touch(hashToken(token), 1_000_000 + LAST_SEEN_EVERY_MS - 1)
    expect((await read()).getTime()).toBe(0)
    await lastSeen.touch(hashToken(token), 1_000_000 + LAST_SEEN_EVERY_MS)
    expect((await read()).getTime()).toBeGreaterThan(0)
  })
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances on PostgreSQL', () => {
  it('a session revoked on one fails on its very next request on the other', async () => {
    const database = await openDatabase({ databaseUrl: t.databaseUrl!, stageAuditRows: true })
    const other = await buildApp({ config: t.config, database, logger: false })
    try {
      const login = await other.inject({
        method: 'POST',
        url: '/api/login',
        payload: { nickName: 'admin', password: TEST_ADMIN_PASSWORD },
      })
      const token = login.json().data.token as string
      const onOther = () =>
        other.inject({
          method: 'POST',
          url: '/api/user/list',
          headers: { 'x-auth-token': token },
          payload: {},
        })
      expect((await onOther()).statusCode).toBe(200)
      const list = await t.call('POST', '/api/session/online/list', {
        token: t.adminToken,
        body: { pageSize: 200 },
      })
      const [target] = await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, (await import('../src/lib/tokens')).hashToken(token)))
      expect(list.body.data.list.some((r: { id: number }) => r.id === target.id)).toBe(true)
      expect(
        (
          await t.call('DELETE', '/api/session/online/revoke', {
            token: t.adminToken,
            query: { id: target.id },
          })
        ).status,
      ).toBe(200)
      expect((await onOther()).statusCode).toBe(401)
    } finally {
      await other.close()
      await database.close()
    }
  })
})
