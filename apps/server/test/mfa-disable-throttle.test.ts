import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { SIGN_IN_MSG, throttledMessage } from '@amg/contract'
import { userMfa } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'
import { oathtool, previousStepCode } from './helpers/totp'

/**
 * Disabling two-step sign-in takes the password and a code (DESIGN.md §14): both are guesses, throttled
 * as sign-in's are, on the same keys, so a stolen session with a phished password cannot try codes
 * without end through this call, nor gain tries by moving between it and the sign-in's second step.
 */

let t: TestApp
beforeAll(async () => {
  // two free failures per user and address, then 1 s, 2 s, 4 s … (login-throttle.ts)
  t = await createTestApp({ loginFreeFailures: 2, loginMaxWaitSeconds: 600 })
})
afterAll(async () => t.close())

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function enrolled(nickName: string) {
  const user = await t.userWithCodes(['user'], nickName)
  const setup = await t.call('POST', '/api/user/mfa/setup', { token: user.token, body: {} })
  const secret: string = setup.body.data.secret
  const enable = await t.call('POST', '/api/user/mfa/enable', {
    token: user.token,
    body: { code: await previousStepCode(secret) },
  })
  expect(enable.status, enable.body.msg).toBe(200)
  return { ...user, secret }
}

const disable = (token: string, password: string, code: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/user/mfa/disable',
    headers: { 'x-auth-token': token },
    payload: { password, code },
    remoteAddress,
  })

/** Four failures, each let through: the wait after the last is 4 s (2 free, then 1 s, 2 s). */
async function fourFailures(send: () => Promise<{ statusCode: number; json(): any }>, msg: string) {
  for (const wait of [0, 0, 1100, 2100]) {
    await sleep(wait)
    const res = await send()
    expect(res.statusCode).toBe(400)
    expect(res.json().msg).toBe(msg)
  }
}

const mfaOn = async (userId: number) =>
  (await t.db.select().from(userMfa).where(eq(userMfa.userId, userId)))[0]?.enabled === true

describe('POST /api/user/mfa/disable is throttled like sign-in', () => {
  it('refuses even the right code with 429 and Retry-After once wrong codes pile up', async () => {
    const u = await enrolled('throttle_code')
    await fourFailures(() => disable(u.token, TEST_USER_PASSWORD, '000000'), SIGN_IN_MSG.mfaCodeWrong)
    const refused = await disable(u.token, TEST_USER_PASSWORD, oathtool(u.secret, Date.now()))
    expect(refused.statusCode).toBe(429)
    const retryAfter = Number(refused.headers['retry-after'])
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(4)
    expect(refused.json().msg).toBe(throttledMessage(retryAfter))
    expect(await mfaOn(u.id)).toBe(true)

    // the same key as the sign-in's second step: no fresh tries there either
    const first = await t.call('POST', '/api/login', {
      body: { nickName: 'throttle_code', password: TEST_USER_PASSWORD },
    })
    expect(first.body.data.mfaRequired).toBe(true)
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/login/mfa',
      payload: { mfaToken: first.body.data.mfaToken, code: oathtool(u.secret, Date.now()) },
    })
    expect(second.statusCode).toBe(429)
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1)

    // a lock-out no stranger can cause: from another address the owner's right code still works
    const elsewhere = await disable(u.token, TEST_USER_PASSWORD, oathtool(u.secret, Date.now()), '10.1.2.3')
    expect(elsewhere.statusCode, elsewhere.body).toBe(200)
    expect(await mfaOn(u.id)).toBe(false)
  })

  it('refuses even the right password with 429 once wrong passwords pile up', async () => {
    const u = await enrolled('throttle_password')
    await fourFailures(() => disable(u.token, 'Wrong@Password1', '000000'), SIGN_IN_MSG.passwordWrong)
    const refused = await disable(u.token, TEST_USER_PASSWORD, oathtool(u.secret, Date.now()))
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(await mfaOn(u.id)).toBe(true)
    // the own password change counts on the same key: it is refused too
    const change = await t.call('PUT', '/api/user/password', {
      token: u.token,
      body: { oldPassword: TEST_USER_PASSWORD, newPassword: 'Another@Password1' },
    })
    expect(change.status).toBe(429)
  })

  it('lets the owner through while failures stay within the free ones', async () => {
    const u = await enrolled('throttle_free')
    // an address of its own: the tests above used up 127.0.0.1's failures across accounts
    const wrong = await disable(u.token, TEST_USER_PASSWORD, '000000', '10.4.5.6')
    expect(wrong.json().msg).toBe(SIGN_IN_MSG.mfaCodeWrong)
    const ok = await disable(u.token, TEST_USER_PASSWORD, oathtool(u.secret, Date.now()), '10.4.5.6')
    expect(ok.statusCode, ok.body).toBe(200)
    expect(await mfaOn(u.id)).toBe(false)
  })
})
