import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { DEFAULT_SECURITY_SETTINGS, POLICY_MSG, randomPassword } from '@amg/contract'
import { passwordHistory, users } from '../src/db/schema'
import { verifyPassword } from '../src/auth/password'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'

/**
 * 重置密码 (DESIGN.md §14): what an administrator sets passes the live policy — length, classes, the
 * user's name; not the history, which would tell the administrator the user's earlier passwords — and
 * the random password the console draws for a reset always does, under a strict policy too.
 */

const STRICT = { ...DEFAULT_SECURITY_SETTINGS, minLength: 22, minClasses: 4, historyCount: 3 }
const NAME = 'r' // one letter: the hardest name for a random password to avoid

let t: TestApp
let id: number
beforeAll(async () => {
  t = await createTestApp()
  const put = await t.call('PUT', '/api/settings/security', { token: t.adminToken, body: STRICT })
  expect(put.status, put.body.msg).toBe(200)
  const insert = await t.call('POST', '/api/user/insert', {
    token: t.adminToken,
    body: { nickName: NAME, password: 'Night@Sky-2345678901234' },
  })
  expect(insert.status, insert.body.msg).toBe(200)
  id = (await userIdByName(t.db, NAME))!
})
afterAll(async () => t.close())

const reset = (password: string) =>
  t.call('PUT', '/api/user/update', {
    token: t.adminToken,
    body: { id, nickName: NAME, status: 1, password },
  })
const hashOf = async () => (await t.db.select().from(users).where(eq(users.id, id)))[0].passwordHash

describe('重置密码 under a strict policy', () => {
  it('accepts every random password the console draws, and the user signs in with the last', async () => {
    let last = ''
    for (let i = 0; i < 4; i++) {
      last = randomPassword(STRICT, NAME)
      const res = await reset(last)
      expect(res.status, `${last}: ${res.body.msg}`).toBe(200)
    }
    expect(await verifyPassword(last, await hashOf())).toBe(true)
    const signIn = await t.call('POST', '/api/login', { body: { nickName: NAME, password: last } })
    expect(signIn.status, signIn.body.msg).toBe(200)
    // four resets, a history of three: the oldest replaced passwords are gone
    const kept = await t.db.select().from(passwordHistory).where(eq(passwordHistory.userId, id))
    expect(kept).toHaveLength(3)
  })

  it('refuses a password below the policy with the rule broken, and leaves the password as it was', async () => {
    const before = await hashOf()
    const cases: [string, string][] = [
      ['Abcdefgh@12345678', POLICY_MSG.tooShort(22)], // 17 characters
      ['abcdefgh@123456789012345', POLICY_MSG.classes(4)], // 3 classes
      ['Xy@1R2345678901234567890', POLICY_MSG.containsUsername], // holds 'r'
    ]
    for (const [password, msg] of cases) {
      const res = await reset(password)
      expect(res.status, password).toBe(400)
      expect(res.body.msg).toBe(msg)
    }
    expect(await hashOf()).toBe(before)
  })

  it('tells nothing of the user’s earlier passwords; the user’s own next change is where the history holds', async () => {
    await t.call('PUT', '/api/settings/security', {
      token: t.adminToken,
      body: { ...STRICT, notUsername: false },
    })
    const a = 'Alpha@Password12345678'
    const b = 'Bravo@Password12345678'
    expect((await reset(a)).status).toBe(200)
    expect((await reset(b)).status).toBe(200)
    // a reset answers the same for a password the user had and one they never had: no oracle
    const again = await reset(a)
    expect(again.status, again.body.msg).toBe(200)
    const never = await reset('Delta@Password12345678')
    expect(never.status, never.body.msg).toBe(200)
    expect((await reset(b)).status).toBe(200)
    // the reset password must be changed at the next sign-in, and that change keeps the history:
    // neither the reset one nor the ones before it come back
    const signIn = await t.call('POST', '/api/login', { body: { nickName: NAME, password: b } })
    expect(signIn.status, signIn.body.msg).toBe(200)
    expect(signIn.body.data.restricted).toBe('password_change')
    const token = signIn.body.data.token
    const same = await t.call('PUT', '/api/user/password', {
      token,
      body: { oldPassword: b, newPassword: b },
    })
    expect(same.status).toBe(400)
    expect(same.body.msg).toBe(POLICY_MSG.sameAsOld)
    for (const newPassword of [a, 'Delta@Password12345678']) {
      const own = await t.call('PUT', '/api/user/password', { token, body: { oldPassword: b, newPassword } })
      expect(own.status, newPassword).toBe(400)
      expect(own.body.msg).toBe(POLICY_MSG.reused(3))
    }
    const fresh = await t.call('PUT', '/api/user/password', {
      token,
      body: { oldPassword: b, newPassword: 'Charlie@Password123456' },
    })
    expect(fresh.status, fresh.body.msg).toBe(200)
  })
})

describe('GET /api/settings/password-policy', () => {
  it('answers the live rules to any signed-in user, a restricted session included, and nobody else', async () => {
    await t.call('PUT', '/api/settings/security', { token: t.adminToken, body: STRICT })
    const nobody = await t.userWithCodes([])
    const res = await t.call('GET', '/api/settings/password-policy', { token: nobody.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ minLength: 22, minClasses: 4, notUsername: true, historyCount: 3 })
    // a session that must change its password first may still read what the new one must pass
    const password = 'Reader@Pass-2345678901x'
    const insert = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'policy_reader', password },
    })
    expect(insert.status, insert.body.msg).toBe(200)
    const signIn = await t.call('POST', '/api/login', { body: { nickName: 'policy_reader', password } })
    expect(signIn.body.data.restricted).toBe('password_change')
    const token = signIn.body.data.token
    expect((await t.call('GET', '/api/settings/password-policy', { token })).status).toBe(200)
    expect((await t.call('GET', '/api/settings/security', { token })).status).toBe(403)
    expect((await t.call('GET', '/api/settings/password-policy')).status).toBe(401)
  })
})
