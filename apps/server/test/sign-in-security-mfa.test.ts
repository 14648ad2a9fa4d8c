import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq } from 'drizzle-orm'
import { DEFAULT_SECURITY_SETTINGS, SIGN_IN_MSG } from '@amg/contract'
import { loginLogs } from '../src/db/audit-schema'
import { mfaRecoveryCodes, sessions, userMfa } from '../src/db/schema'
import { codeAt, matchStep, stepAt } from '../src/auth/totp'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from './helpers/constants'
import { oathtool, previousStepCode } from './helpers/totp'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const lastLogin = async () => (await t.db.select().from(loginLogs).orderBy(desc(loginLogs.id)).limit(1))[0]
const signIn = (nickName: string, password: string) =>
  t.call('POST', '/api/login', { body: { nickName, password } })
const second = (mfaToken: string, proof: { code?: string; recoveryCode?: string }) =>
  t.call('POST', '/api/login/mfa', { body: { mfaToken, ...proof } })

/** A user with MFA enrolled through the API; answers the secret and the recovery codes. */
async function enrolled(nickName: string, codes: string[] = ['user']) {
  const user = await t.userWithCodes(codes, nickName)
  const setup = await t.call('POST', '/api/user/mfa/setup', { token: user.token, body: {} })
  expect(setup.status).toBe(200)
  const secret: string = setup.body.data.secret
  expect(setup.body.data.otpauthUri).toContain(`secret=${secret}`)
  // a step in the past, so that the codes of now and later stay unused for the tests
  const enable = await t.call('POST', '/api/user/mfa/enable', {
    token: user.token,
    body: { code: await previousStepCode(secret) },
  })
  expect(enable.status).toBe(200)
  return { ...user, secret, recoveryCodes: enable.body.data.recoveryCodes as string[] }
}

describe('TOTP (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1, key "12345678901234567890"; six digits are the last six of its eight
  const RFC_KEY = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ]

  it('matches the RFC test vectors', () => {
    for (const [seconds, eight] of vectors) {
      expect(codeAt(RFC_KEY, seconds * 1000)).toBe(eight.slice(2))
      expect(matchStep(RFC_KEY, eight.slice(2), 0, seconds * 1000)).toBe(stepAt(seconds * 1000))
    }
  })

  it('accepts codes made by oathtool, the previous and next step, and refuses two steps away', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    const now = Date.now()
    const step = stepAt(now)
    expect(matchStep(secret, oathtool(secret, now), 0, now)).toBe(step)
    expect(matchStep(secret, oathtool(secret, now - 30_000), 0, now)).toBe(step - 1)
    expect(matchStep(secret, oathtool(secret, now + 30_000), 0, now)).toBe(step + 1)
    expect(matchStep(secret, oathtool(secret, now - 60_000), 0, now)).toBeNull()
    expect(matchStep(secret, oathtool(secret, now + 60_000), 0, now)).toBeNull()
    // a step used once (or an earlier one) is refused
    expect(matchStep(secret, oathtool(secret, now), step, now)).toBeNull()
    expect(matchStep(secret, oathtool(secret, now - 30_000), step, now)).toBeNull()
    expect(matchStep(secret, 'abcdef', 0, now)).toBeNull()
  })
})

describe('enrolment', () => {
  it('stores the key sealed and the recovery codes as keyed hashes', async () => {
    const u = await enrolled('mfa_store')
    expect(u.recoveryCodes).toHaveLength(10)
    expect(new Set(u.recoveryCodes).size).toBe(10)
    const [row] = await t.db.select().from(userMfa).where(eq(userMfa.userId, u.id))
    expect(row.enabled).toBe(true)
    expect(row.secret).not.toContain(u.secret)
    const hashes = await t.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, u.id))
    expect(hashes).toHaveLength(10)
    for (const code of u.recoveryCodes)
      expect(hashes.some((h) => h.codeHash.includes(code.replace('-', '')))).toBe(false)
    // enrolled once: setup again is refused
    const again = await t.call('POST', '/api/user/mfa/setup', { token: u.token, body: {} })
    expect(again.status).toBe(400)
    expect(again.body.msg).toBe(SIGN_IN_MSG.mfaAlreadyOn)
  })

  it('shows on /user/current of a session held in memory, written through the API or past it', async () => {
    const user = await t.userWithCodes(['user'], 'mfa_current')
    const current = async () =>
      (await t.call('GET', '/api/user/current', { token: user.token })).body.data.mfaEnabled as boolean
    expect(await current()).toBe(false)
    expect(t.app.ctx.sessions.isCached(user.token)).toBe(true)
    // set up, not yet confirmed: still off
    const setup = await t.call('POST', '/api/user/mfa/setup', { token: user.token, body: {} })
    expect(await current()).toBe(false)
    const enable = await t.call('POST', '/api/user/mfa/enable', {
      token: user.token,
      body: { code: await previousStepCode(setup.body.data.secret) },
    })
    expect(enable.status).toBe(200)
    expect(await current()).toBe(true)
    // changed past the API (another instance, the reset command): heard through the database
    await t.db.update(userMfa).set({ enabled: false }).where(eq(userMfa.userId, user.id))
    await expect.poll(current).toBe(false)
    await t.db.update(userMfa).set({ enabled: true }).where(eq(userMfa.userId, user.id))
    await expect.poll(current).toBe(true)
    await t.db.delete(userMfa).where(eq(userMfa.userId, user.id))
    await expect.poll(current).toBe(false)
  })

  it('refuses a wrong first code, changing nothing', async () => {
    const user = await t.userWithCodes(['user'], 'mfa_wrong_first')
    await t.call('POST', '/api/user/mfa/setup', { token: user.token, body: {} })
    const res = await t.call('POST', '/api/user/mfa/enable', { token: user.token, body: { code: '000000' } })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(SIGN_IN_MSG.mfaCodeWrong)
    const [row] = await t.db.select().from(userMfa).where(eq(userMfa.userId, user.id))
    expect(row.enabled).toBe(false)
  })
})

describe('two-step sign-in', () => {
  it('asks for the second step, takes an oathtool code once, and logs a wrong one', async () => {
    const u = await enrolled('mfa_signin')
    const first = await signIn('mfa_signin', TEST_USER_PASSWORD)
    expect(first.status).toBe(200)
    expect(first.body.data).toEqual({ mfaRequired: true, methods: ['totp'], mfaToken: expect.any(String) })
    const wrong = await second(first.body.data.mfaToken, { code: '000000' })
    expect(wrong.status).toBe(401)
    expect(wrong.body.msg).toBe(SIGN_IN_MSG.mfaCodeWrong)
    expect(await lastLogin()).toMatchObject({ nickName: 'mfa_signin', result: 'mfa_failure' })
    const code = oathtool(u.secret, Date.now())
    const ok = await second(first.body.data.mfaToken, { code })
    expect(ok.status).toBe(200)
    expect(ok.body.data.user).toMatchObject({ nickName: 'mfa_signin' })
    expect((await t.call('GET', '/api/user/current', { token: ok.body.data.token })).status).toBe(200)
    expect((await lastLogin()).result).toBe('success')
    // the token is spent, and the same code is refused on a new sign-in
    expect((await second(first.body.data.mfaToken, { code })).body.msg).toBe(SIGN_IN_MSG.mfaTokenInvalid)
    const again = await signIn('mfa_signin', TEST_USER_PASSWORD)
    expect((await second(again.body.data.mfaToken, { code })).status).toBe(401)
  })

  it('takes each recovery code once', async () => {
    const u = await enrolled('mfa_recovery')
    const first = await signIn('mfa_recovery', TEST_USER_PASSWORD)
    const ok = await second(first.body.data.mfaToken, { recoveryCode: u.recoveryCodes[0].toUpperCase() })
    expect(ok.status).toBe(200)
    expect(await lastLogin()).toMatchObject({ result: 'recovery_used', msg: SIGN_IN_MSG.recoveryUsed })
    const next = await signIn('mfa_recovery', TEST_USER_PASSWORD)
    const reused = await second(next.body.data.mfaToken, { recoveryCode: u.recoveryCodes[0] })
    expect(reused.status).toBe(401)
    expect((await second(next.body.data.mfaToken, { recoveryCode: u.recoveryCodes[1] })).status).toBe(200)
  })

  it('allows five tries per token, then the token is gone', async () => {
    const u = await enrolled('mfa_tries')
    const first = await signIn('mfa_tries', TEST_USER_PASSWORD)
    for (let i = 0; i < 5; i++)
      expect((await second(first.body.data.mfaToken, { code: '000000' })).body.msg).toBe(
        SIGN_IN_MSG.mfaCodeWrong,
      )
    const late = await second(first.body.data.mfaToken, { code: oathtool(u.secret, Date.now()) })
    expect(late.status).toBe(401)
    expect(late.body.msg).toBe(SIGN_IN_MSG.mfaTokenInvalid)
  })

  it('disables with the password and a code, not without', async () => {
    const u = await enrolled('mfa_disable')
    const bad = await t.call('POST', '/api/user/mfa/disable', {
      token: u.token,
      body: { password: 'Wrong@Password1', code: oathtool(u.secret, Date.now()) },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.msg).toBe(SIGN_IN_MSG.passwordWrong)
    const noCode = await t.call('POST', '/api/user/mfa/disable', {
      token: u.token,
      body: { password: TEST_USER_PASSWORD, code: '000000' },
    })
    expect(noCode.body.msg).toBe(SIGN_IN_MSG.mfaCodeWrong)
    const ok = await t.call('POST', '/api/user/mfa/disable', {
      token: u.token,
      body: { password: TEST_USER_PASSWORD, code: oathtool(u.secret, Date.now()) },
    })
    expect(ok.status).toBe(200)
    expect((await signIn('mfa_disable', TEST_USER_PASSWORD)).body.data.token).toEqual(expect.any(String))
  })
})

describe("an administrator's reset", () => {
  it('removes the second factor and ends the sessions of the user', async () => {
    const u = await enrolled('mfa_reset')
    const res = await t.call('DELETE', '/api/user/mfa/reset', {
      token: t.adminToken,
      query: { userId: u.id },
    })
    expect(res.status).toBe(200)
    expect(await t.db.select().from(userMfa).where(eq(userMfa.userId, u.id))).toEqual([])
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, u.id))).toEqual([])
    expect((await t.call('GET', '/api/user/current', { token: u.token })).status).toBe(401)
    expect((await signIn('mfa_reset', TEST_USER_PASSWORD)).body.data.token).toEqual(expect.any(String))
  })

  it('passes the power check: no reset of a user holding more power', async () => {
    const resetter = await t.userWithCodes(['user', 'user:mfa-reset'], 'mfa_resetter')
    const admin = (await userIdByName(t.db, 'admin'))!
    const res = await t.call('DELETE', '/api/user/mfa/reset', {
      token: resetter.token,
      query: { userId: admin },
    })
    expect(res.status).toBe(403)
    const peer = await enrolled('mfa_peer', ['user'])
    const ok = await t.call('DELETE', '/api/user/mfa/reset', {
      token: resetter.token,
      query: { userId: peer.id },
    })
    expect(ok.status).toBe(200)
    const none = await t.userWithCodes(['user'], 'mfa_noperm')
    expect(
      (await t.call('DELETE', '/api/user/mfa/reset', { token: none.token, query: { userId: peer.id } }))
        .status,
    ).toBe(403)
  })
})

describe('mfa: admins and all', () => {
  afterAll(async () => {
    await t.call('PUT', '/api/settings/security', {
      token: t.adminToken,
      body: { ...DEFAULT_SECURITY_SETTINGS, forceChangeInitial: false },
    })
  })

  it('makes an administrator enrol at sign-in, and leaves a reader alone until mfa: all', async () => {
    const put = (mfa: string) =>
      t.call('PUT', '/api/settings/security', {
        token: t.adminToken,
        body: { ...DEFAULT_SECURITY_SETTINGS, forceChangeInitial: false, mfa },
      })
    expect((await put('admins')).status).toBe(200)
    await t.userWithCodes(['user', 'user:edit'], 'mfa_editor')
    await t.userWithCodes(['user'], 'mfa_reader')
    const editor = await signIn('mfa_editor', TEST_USER_PASSWORD)
    expect(editor.body.data.restricted).toBe('mfa_enroll')
    const token = editor.body.data.token
    const refused = await t.call('POST', '/api/user/list', { token, body: {} })
    expect(refused.status).toBe(403)
    expect(refused.body.msg).toBe(SIGN_IN_MSG.mustEnrollMfa)
    expect((await signIn('mfa_reader', TEST_USER_PASSWORD)).body.data.restricted).toBeUndefined()
    // enrolment frees the session
    const setup = await t.call('POST', '/api/user/mfa/setup', { token, body: {} })
    const enable = await t.call('POST', '/api/user/mfa/enable', {
      token,
      body: { code: oathtool(setup.body.data.secret, Date.now()) },
    })
    expect(enable.status).toBe(200)
    expect((await t.call('POST', '/api/user/list', { token, body: {} })).status).toBe(200)
    expect((await put('all')).status).toBe(200)
    expect((await signIn('mfa_reader', TEST_USER_PASSWORD)).body.data.restricted).toBe('mfa_enroll')
    // the admin of the harness is a super admin: restricted too under admins
    expect((await put('admins')).status).toBe(200)
    expect((await signIn('admin', TEST_ADMIN_PASSWORD)).body.data.restricted).toBe('mfa_enroll')
  })
})
