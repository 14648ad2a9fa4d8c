import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { sessions, users } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from './helpers/constants'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

describe('sign-in', () => {
  it('signs the seeded admin in with an opaque token stored only as a hash', async () => {
    const res = await t.call('POST', '/api/login', {
      body: { nickName: 'admin', password: TEST_ADMIN_PASSWORD },
    })
    expect(res.status).toBe(200)
    expect(res.body.code).toBe(200)
    expect(res.body.data.user).toMatchObject({ nickName: 'admin', status: 1 })
    const token: string = res.body.data.token
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16)
    const stored = await t.db.select({ tokenHash: sessions.tokenHash }).from(sessions)
    expect(stored.some((s) => s.tokenHash === token)).toBe(false)
    expect(stored.every((s) => /^[0-9a-f]{64}$/.test(s.tokenHash))).toBe(true)
  })

  it('answers unknown user and wrong password with the same 401 message', async () => {
    const unknown = await t.call('POST', '/api/login', { body: { nickName: 'nobody', password: 'x' } })
    const wrong = await t.call('POST', '/api/login', { body: { nickName: 'admin', password: 'wrong' } })
    expect(unknown.status).toBe(401)
    expect(wrong.status).toBe(401)
    expect(unknown.body.msg).toBe(MSG.loginFailed)
    expect(wrong.body.msg).toBe(unknown.body.msg)
  })

  it('refuses missing fields with a 400 and a Chinese message', async () => {
    const res = await t.call('POST', '/api/login', { body: { nickName: '  ', password: 'x' } })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(MSG.nickNameRequired)
  })

  it('refuses further attempts for a while after repeated failures, without locking the account', async () => {
    await t.userWithCodes([], 'lockme')
    for (let i = 0; i < 5; i++) {
      const r = await t.call('POST', '/api/login', { body: { nickName: 'lockme', password: 'bad' } })
      expect(r.status).toBe(401)
    }
    const sixth = await t.call('POST', '/api/login', { body: { nickName: 'lockme', password: 'bad' } })
    expect(sixth.status).toBe(429)
    // the first refusal lasts a second, and says so
    expect(sixth.body).toEqual({ code: 429, msg: '尝试过于频繁，请 1 秒后再试', data: null })
    // Another address is not held back by those failures (login-throttle.test.ts covers the rest).
    const right = await t.call('POST', '/api/login', {
      body: { nickName: 'lockme', password: TEST_USER_PASSWORD },
      remoteAddress: '192.0.2.10',
    })
    expect(right.status).toBe(200)
  })

  it('refuses a frozen user and ends the sessions of a user frozen while signed in', async () => {
    const { id, token } = await t.userWithCodes([], 'frozen1')
    await t.db.update(users).set({ status: 2 }).where(eq(users.id, id))
    const current = await t.call('GET', '/api/user/current', { token })
    expect(current.status).toBe(401)
    // the session's owner is told why it ended; any other token still hears the usual 401
    expect(current.body).toEqual({ code: 401, msg: MSG.loginFrozen, data: null })
    const stranger = await t.call('GET', '/api/user/current', { token: 'no-such-token' })
    expect(stranger.body).toEqual({ code: 401, msg: MSG.unauthorized, data: null })
    const res = await t.call('POST', '/api/login', {
      body: { nickName: 'frozen1', password: TEST_USER_PASSWORD },
    })
    expect(res.status).toBe(403)
    expect(res.body.msg).toBe(MSG.loginFrozen)
  })
})

describe('session', () => {
  it('answers the current user with roles, auths and codes', async () => {
    const res = await t.call('GET', '/api/user/current', { token: t.adminToken })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ nickName: 'admin', superAdmin: true, passwordIsInitial: true })
    expect(res.body.data.auths).toContain('/usermanage')
    expect(res.body.data.authCodes).toContain('user:add')
    expect(res.raw).not.toContain('password_hash')
    expect(res.raw).not.toContain('scrypt$')
  })

  it('answers 401 without a token and with an unknown one', async () => {
    expect((await t.call('GET', '/api/user/current')).status).toBe(401)
    const bad = await t.call('GET', '/api/user/current', { token: 'not-a-token' })
    expect(bad.status).toBe(401)
    expect(bad.body).toEqual({ code: 401, msg: MSG.unauthorized, data: null })
  })

  it('ends the session at once on logout', async () => {
    const token = await t.login('admin', TEST_ADMIN_PASSWORD)
    expect((await t.call('GET', '/api/user/current', { token })).status).toBe(200)
    expect((await t.call('POST', '/api/logout', { token })).status).toBe(200)
    expect((await t.call('GET', '/api/user/current', { token })).status).toBe(401)
  })

  it('changes the own password by the policy and ends the other sessions', async () => {
    await t.userWithCodes([], 'pwuser')
    const keep = await t.login('pwuser')
    const other = await t.login('pwuser')
    const weak = await t.call('PUT', '/api/user/password', {
      token: keep,
      body: { oldPassword: TEST_USER_PASSWORD, newPassword: 'short' },
    })
    expect(weak.status).toBe(400)
    expect(weak.body.msg).toBe(MSG.passwordPolicy)
    const wrongOld = await t.call('PUT', '/api/user/password', {
      token: keep,
      body: { oldPassword: 'nope', newPassword: 'NewPass#2026abc' },
    })
    expect(wrongOld.status).toBe(400)
    expect(wrongOld.body.msg).toBe(MSG.oldPasswordWrong)
    const ok = await t.call('PUT', '/api/user/password', {
      token: keep,
      body: { oldPassword: TEST_USER_PASSWORD, newPassword: 'NewPass#2026abc' },
    })
    expect(ok.status).toBe(200)
    expect((await t.call('GET', '/api/user/current', { token: keep })).status).toBe(200)
    expect((await t.call('GET', '/api/user/current', { token: other })).status).toBe(401)
    expect(await t.login('pwuser', 'NewPass#2026abc')).toBeTruthy()
    const current = await t.call('GET', '/api/user/current', { token: keep })
    expect(current.body.data.passwordIsInitial).toBe(false)
  })
})
