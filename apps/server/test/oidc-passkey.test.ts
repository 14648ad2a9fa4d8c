import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import * as client from 'openid-client'
import { MSG, PASSKEY_MSG, SIGN_IN_MSG } from '@amg/contract'
import { mfaChallenges, passkeys, users } from '../src/db/schema'
import { hashToken } from '../src/lib/tokens'
import type { TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'
import { oathtool, ssoProvider } from './helpers/sso-provider'
import { SoftAuthenticator } from './helpers/soft-authenticator'

/**
 * DESIGN.md §16 and §23: a passkey on the single sign-on login screen, through a real authorization
 * request made by a relying party we did not write (openid-client): the passkey alone completes the
 * login interaction and the flow yields a code and tokens for its owner; a replayed, bogus or foreign
 * assertion is refused with our message and the interaction stays at the login step; and after the
 * password, where two-step sign-in is asked, the passkey serves as the second step.
 */
type Json = any
// the relying party from PUBLIC_URL, so the passkeys registered through the API and the sign-in
// screen reached over HTTP agree on it
const sso = ssoProvider({ publicUrlSet: true, loginFirstWaitSeconds: 600 })
const { admin, lastLogin } = sso
let t: TestApp
let base: string
beforeAll(() => {
  t = sso.t
  base = sso.base
})

/** An application whose sign-on skips consent, and openid-client's configuration for it. */
async function application(key: string) {
  const { clientId, clientSecret } = await sso.application(key, 'web', false)
  return { clientId, config: await sso.discover(clientId, clientSecret) }
}

/** A user with a software passkey registered through the API (relying party: this server's host). */
async function withPasskey(codes: string[] = []) {
  const user = await t.userWithCodes(codes)
  const [row] = await t.db.select().from(users).where(eq(users.id, user.id))
  const key = new SoftAuthenticator('127.0.0.1', base)
  const options = await t.call('POST', '/api/user/passkey/register/options', { token: user.token, body: {} })
  expect(options.status, options.raw).toBe(200)
  const verify = await t.call('POST', '/api/user/passkey/register/verify', {
    token: user.token,
    body: { response: key.register(options.body.data), name: '测试电脑' },
  })
  expect(verify.status, verify.raw).toBe(200)
  return {
    id: user.id,
    token: user.token,
    nickName: row.nickName,
    key,
    passkeyId: verify.body.data.id as number,
  }
}

/** An authorization request with PKCE at the login interaction, and the screen's calls on it. */
async function authorize(config: client.Configuration) {
  const { browser, uid, finish } = await sso.authorization(config, 'openid profile')
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await browser.request(method, path, { body })
    return { status: res.status, body: (await res.json()) as Json }
  }
  /** the screen's prompt now (login until the interaction is completed) */
  const prompt = async () => (await call('GET', `/oidc-login/${uid}/details`)).body.data?.prompt
  /** the challenge for a passkey, as the screen asks it: alone, or for the second step's token */
  const passkeyOptions = async (mfaToken?: string) => {
    const res = await call('POST', '/api/login/passkey/options', mfaToken ? { mfaToken } : {})
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.data as {
      challengeId: string
      options: { challenge: string; allowCredentials?: unknown[] }
    }
  }
  const passkey = (body: Record<string, unknown>) => call('POST', `/oidc-login/${uid}/passkey`, body)
  return { uid, call, prompt, passkeyOptions, passkey, finish }
}

const counterOf = async (passkeyId: number) =>
  (await t.db.select().from(passkeys).where(eq(passkeys.id, passkeyId)))[0].counter

describe('a passkey alone on the single sign-on screen (DESIGN.md §23)', () => {
  it('completes the login interaction and the flow yields a code and tokens for its owner', async () => {
    const { clientId, config } = await application('pk-alone')
    const u = await withPasskey()
    const flow = await authorize(config)
    expect(await flow.prompt()).toBe('login')
    const { challengeId, options } = await flow.passkeyOptions()
    // alone: no credentials listed, the browser offers the discoverable ones
    expect(options.allowCredentials ?? []).toEqual([])
    const res = await flow.passkey({ challengeId, response: u.key.assert(options) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.redirectTo).toEqual(expect.any(String))
    expect(await lastLogin()).toMatchObject({
      userId: u.id,
      nickName: u.nickName,
      result: 'success',
      msg: '单点登录成功',
    })
    expect(await counterOf(u.passkeyId)).toBe(1)

    const tokens = await flow.finish(res.body.data.redirectTo)
    expect(await sso.idTokenSubject(config, clientId, tokens.id_token!)).toBe(String(u.id))
    const info = await client.fetchUserInfo(config, tokens.access_token, String(u.id))
    expect(info).toMatchObject({ sub: String(u.id), preferred_username: u.nickName })
  })

  it('refuses a bogus, unknown, replayed or malformed assertion with our message; the interaction stays at login', async () => {
    const { clientId, config } = await application('pk-refused')
    const u = await withPasskey()
    const flow = await authorize(config)

    // a signature that does not check: refused, logged against the passkey's owner, counter unmoved
    const bogus = await flow.passkeyOptions()
    const badSig = await flow.passkey({
      challengeId: bogus.challengeId,
      response: u.key.assert(bogus.options, { badSignature: true }),
    })
    expect(badSig.status).toBe(401)
    expect(badSig.body.msg).toBe(PASSKEY_MSG.verifyFailed)
    expect(await lastLogin()).toMatchObject({
      userId: u.id,
      result: 'failure',
      msg: PASSKEY_MSG.verifyFailed,
    })
    expect(await counterOf(u.passkeyId)).toBe(0)
    // that challenge was spent by the refused try: a good answer to it is refused too
    const late = await flow.passkey({ challengeId: bogus.challengeId, response: u.key.assert(bogus.options) })
    expect(late.status).toBe(401)
    expect(late.body.msg).toBe(PASSKEY_MSG.challengeInvalid)

    // a passkey this server never registered
    const stranger = new SoftAuthenticator('127.0.0.1', base)
    const unknown = await flow.passkeyOptions()
    const notOurs = await flow.passkey({
      challengeId: unknown.challengeId,
      response: stranger.assert(unknown.options),
    })
    expect(notOurs.status).toBe(401)
    expect(notOurs.body.msg).toBe(PASSKEY_MSG.unknownCredential)
    expect(await lastLogin()).toMatchObject({
      userId: null,
      result: 'failure',
      msg: PASSKEY_MSG.unknownCredential,
    })

    // an answer made for another origin
    const other = await flow.passkeyOptions()
    const phished = await flow.passkey({
      challengeId: other.challengeId,
      response: u.key.assert(other.options, { origin: 'http://evil.example' }),
    })
    expect(phished.status).toBe(401)
    expect(phished.body.msg).toBe(PASSKEY_MSG.verifyFailed)

    // not a passkey answer at all: the console's sign-in messages, never a 500 (nor "wrong step")
    const answer = u.key.assert(other.options)
    for (const [body, msg] of [
      [{ response: answer }, PASSKEY_MSG.challengeInvalid],
      [{ challengeId: 'x'.repeat(129), response: answer }, PASSKEY_MSG.challengeInvalid],
      [{ challengeId: 'abc' }, PASSKEY_MSG.responseRequired],
      [{ challengeId: 'abc', response: 'no' }, PASSKEY_MSG.responseRequired],
      [{ challengeId: 'abc', response: { ...answer, id: 7 } }, PASSKEY_MSG.responseRequired],
      [{ challengeId: 'abc', response: { ...answer, id: 'x'.repeat(1025) } }, PASSKEY_MSG.responseRequired],
    ] as const) {
      const malformed = await flow.passkey(body)
      expect(malformed.status, JSON.stringify(malformed.body)).toBe(400)
      expect(malformed.body.msg).toBe(msg)
    }
    const noSuchChallenge = await flow.passkey({ challengeId: 'nope', response: answer })
    expect(noSuchChallenge.status).toBe(401)
    expect(noSuchChallenge.body.msg).toBe(PASSKEY_MSG.challengeInvalid)

    // nothing of that completed the interaction
    expect(await flow.prompt()).toBe('login')

    // a good answer completes it; the very same answer replayed on a new interaction is refused
    const good = await flow.passkeyOptions()
    const response = u.key.assert(good.options)
    const passed = await flow.passkey({ challengeId: good.challengeId, response })
    expect(passed.status, JSON.stringify(passed.body)).toBe(200)
    const counter = await counterOf(u.passkeyId)
    const tokens = await flow.finish(passed.body.data.redirectTo)
    expect(await sso.idTokenSubject(config, clientId, tokens.id_token!)).toBe(String(u.id))

    const again = await authorize(config)
    const replayed = await again.passkey({ challengeId: good.challengeId, response })
    expect(replayed.status).toBe(401)
    expect(replayed.body.msg).toBe(PASSKEY_MSG.challengeInvalid)
    // an old answer bound to a fresh challenge does not check either (the challenge is signed)
    const fresh = await again.passkeyOptions()
    const stale = await again.passkey({ challengeId: fresh.challengeId, response })
    expect(stale.status).toBe(401)
    expect(stale.body.msg).toBe(PASSKEY_MSG.verifyFailed)
    expect(await counterOf(u.passkeyId)).toBe(counter)
    expect(await again.prompt()).toBe('login')
  })

  it('refuses a frozen user’s passkey', async () => {
    const { config } = await application('pk-frozen')
    const u = await withPasskey()
    await t.db.update(users).set({ status: 2 }).where(eq(users.id, u.id))
    const flow = await authorize(config)
    const { challengeId, options } = await flow.passkeyOptions()
    const res = await flow.passkey({ challengeId, response: u.key.assert(options) })
    expect(res.status).toBe(403)
    expect(res.body.msg).toBe(MSG.loginFrozen)
    expect(await lastLogin()).toMatchObject({ userId: u.id, result: 'failure', msg: MSG.loginFrozen })
    expect(await flow.prompt()).toBe('login')
  })
})

describe('a passkey as the second step on the single sign-on screen (DESIGN.md §14, §23)', () => {
  /** A user with a passkey and TOTP two-step sign-in bound through the API. */
  async function withTotpAndPasskey() {
    const u = await withPasskey()
    const setup = await t.call('POST', '/api/user/mfa/setup', { token: u.token, body: {} })
    expect(setup.status).toBe(200)
    // the code of the current step: should the step turn before the check, the previous one still passes
    const enable = await t.call('POST', '/api/user/mfa/enable', {
      token: u.token,
      body: { code: oathtool(setup.body.data.secret as string) },
    })
    expect(enable.status, enable.raw).toBe(200)
    return u
  }

  it('after the password, the user’s own passkey passes the second step and the flow yields tokens', async () => {
    const { clientId, config } = await application('pk-second')
    const u = await withTotpAndPasskey()
    const other = await withPasskey()
    const flow = await authorize(config)
    const first = await flow.call('POST', `/oidc-login/${flow.uid}/login`, {
      nickName: u.nickName,
      password: TEST_USER_PASSWORD,
    })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.data).toEqual({
      mfaRequired: true,
      methods: ['totp', 'passkey'],
      mfaToken: expect.any(String),
    })
    expect(first.body.msg).toBe(SIGN_IN_MSG.mfaRequired)
    const mfaToken = first.body.data.mfaToken as string
    expect(await flow.prompt()).toBe('login')

    // as the second step the challenge lists the user's own passkeys only
    const step = await flow.passkeyOptions(mfaToken)
    expect(step.options.allowCredentials).toEqual([expect.objectContaining({ id: u.key.id })])
    // someone else's passkey does not pass this user's second step
    const foreign = await flow.passkey({
      challengeId: step.challengeId,
      response: other.key.assert(step.options),
      mfaToken,
    })
    expect(foreign.status).toBe(401)
    expect(foreign.body.msg).toBe(PASSKEY_MSG.notForThisStep)
    expect(await lastLogin()).toMatchObject({ userId: other.id, result: 'mfa_failure' })
    // a challenge asked without the token does not serve the second step, nor one with it alone
    const alone = await flow.passkeyOptions()
    const mixed = await flow.passkey({
      challengeId: alone.challengeId,
      response: u.key.assert(alone.options),
      mfaToken,
    })
    expect(mixed.status).toBe(401)
    expect(mixed.body.msg).toBe(PASSKEY_MSG.challengeInvalid)
    const bound = await flow.passkeyOptions(mfaToken)
    const unbound = await flow.passkey({
      challengeId: bound.challengeId,
      response: u.key.assert(bound.options),
    })
    expect(unbound.status).toBe(401)
    expect(unbound.body.msg).toBe(PASSKEY_MSG.challengeInvalid)
    expect(await flow.prompt()).toBe('login')
    // the second step's token is still open
    expect(
      await t.db
        .select()
        .from(mfaChallenges)
        .where(eq(mfaChallenges.tokenHash, hashToken(mfaToken))),
    ).toHaveLength(1)

    const again = await flow.passkeyOptions(mfaToken)
    const res = await flow.passkey({
      challengeId: again.challengeId,
      response: u.key.assert(again.options),
      mfaToken,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await lastLogin()).toMatchObject({ userId: u.id, result: 'success', msg: '单点登录成功' })
    // the token is spent: TOTP cannot use it afterwards
    expect(
      await t.db
        .select()
        .from(mfaChallenges)
        .where(eq(mfaChallenges.tokenHash, hashToken(mfaToken))),
    ).toHaveLength(0)
    const tokens = await flow.finish(res.body.data.redirectTo)
    expect(await sso.idTokenSubject(config, clientId, tokens.id_token!)).toBe(String(u.id))
  })

  it('a second step whose first step found a password to change is refused, as TOTP’s is', async () => {
    const { config } = await application('pk-second-forced')
    const u = await withTotpAndPasskey()
    await t.db.update(users).set({ mustChangePassword: 1 }).where(eq(users.id, u.id))
    const settings = (await admin('GET', '/api/settings/security')).body.data
    expect(
      (await admin('PUT', '/api/settings/security', { ...settings, forceChangeInitial: true })).status,
    ).toBe(200)
    try {
      const flow = await authorize(config)
      const first = await flow.call('POST', `/oidc-login/${flow.uid}/login`, {
        nickName: u.nickName,
        password: TEST_USER_PASSWORD,
      })
      expect(first.body.data).toMatchObject({ mfaRequired: true, methods: ['totp', 'passkey'] })
      const mfaToken = first.body.data.mfaToken as string
      const step = await flow.passkeyOptions(mfaToken)
      const res = await flow.passkey({
        challengeId: step.challengeId,
        response: u.key.assert(step.options),
        mfaToken,
      })
      expect(res.status).toBe(403)
      expect(res.body.msg).toBe(MSG.oidcChangePasswordFirst)
      expect(await lastLogin()).toMatchObject({
        userId: u.id,
        result: 'failure',
        msg: MSG.oidcChangePasswordFirst,
      })
      expect(await flow.prompt()).toBe('login')
    } finally {
      await admin('PUT', '/api/settings/security', { ...settings, forceChangeInitial: false })
    }
  })

  it('under admins-passkey an administrator’s second step is the passkey only: TOTP is refused', async () => {
    const { clientId, config } = await application('pk-admins')
    // user:edit administers this server (DESIGN.md §14)
    const u = await withPasskey(['user', 'user:edit'])
    const settings = (await admin('GET', '/api/settings/security')).body.data
    expect(
      (await admin('PUT', '/api/settings/security', { ...settings, mfa: 'admins-passkey' })).status,
    ).toBe(200)
    try {
      const flow = await authorize(config)
      const first = await flow.call('POST', `/oidc-login/${flow.uid}/login`, {
        nickName: u.nickName,
        password: TEST_USER_PASSWORD,
      })
      expect(first.body.data).toEqual({
        mfaRequired: true,
        methods: ['passkey'],
        mfaToken: expect.any(String),
      })
      const mfaToken = first.body.data.mfaToken as string
      const totp = await flow.call('POST', `/oidc-login/${flow.uid}/mfa`, { mfaToken, code: '123456' })
      expect(totp.status).toBe(401)
      expect(totp.body.msg).toBe(SIGN_IN_MSG.mfaTokenInvalid)
      expect(await flow.prompt()).toBe('login')
      const step = await flow.passkeyOptions(mfaToken)
      const res = await flow.passkey({
        challengeId: step.challengeId,
        response: u.key.assert(step.options),
        mfaToken,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const tokens = await flow.finish(res.body.data.redirectTo)
      expect(await sso.idTokenSubject(config, clientId, tokens.id_token!)).toBe(String(u.id))
    } finally {
      await admin('PUT', '/api/settings/security', settings)
    }
  })
})
