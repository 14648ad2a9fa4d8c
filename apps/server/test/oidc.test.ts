import { beforeAll, describe, expect, it } from 'vitest'
import { desc, eq } from 'drizzle-orm'
import { loginLogs } from '../src/db/audit-schema'
import * as client from 'openid-client'
import { MSG, SIGN_IN_MSG } from '@amg/contract'
import { oidcClients, oidcKeys, roleAuths, services, userRoles, users } from '../src/db/schema'
import type { TestApp } from './helpers/app'
import { oathtool, REDIRECT, ssoProvider, previousStepCode } from './helpers/sso-provider'

/**
 * DESIGN.md §16: a relying party we did not write (openid-client) signs a user in through the provider
 * end to end — PKCE, our login and consent calls, the callback, the ID token checked against the JWKS,
 * userinfo, refresh with rotation — and is refused once the user is frozen; a machine client's token
 * calls the check API as its service account.
 */
type Json = any
const sso = ssoProvider({ loginFirstWaitSeconds: 600 })
const { admin, lastLogin, application, discover, authorization } = sso
let t: TestApp
let base: string
beforeAll(() => {
  t = sso.t
  base = sso.base
})

/**
 * The whole browser part: authorize, our login (and its second step: `proof` answers the code or
 * recovery code to send), consent, back to the callback with a code.
 */
async function signIn(
  config: client.Configuration,
  nickName: string,
  password: string,
  scope: string,
  proof?: () => { code?: string; recoveryCode?: string },
) {
  const { browser, verifier, state, ...started } = await authorization(config, scope)
  let at = started.at
  const steps: string[] = []
  while (!at.startsWith(REDIRECT)) {
    const uid = /\/oidc-login\/([^/?#]+)/.exec(at)?.[1]
    expect(uid, at).toBeTruthy()
    const details = (await (await browser.request('GET', `/oidc-login/${uid}/details`)).json()) as Json
    steps.push(details.data.prompt)
    let res =
      details.data.prompt === 'login'
        ? await browser.request('POST', `/oidc-login/${uid}/login`, { body: { nickName, password } })
        : await browser.request('POST', `/oidc-login/${uid}/consent`, { body: {} })
    let body = (await res.json()) as Json
    if (body.data?.mfaRequired) {
      steps.push('mfa')
      expect(proof, 'a second step was asked').toBeTruthy()
      res = await browser.request('POST', `/oidc-login/${uid}/mfa`, {
        body: { mfaToken: body.data.mfaToken, ...proof!() },
      })
      body = (await res.json()) as Json
    }
    expect(res.status, JSON.stringify(body)).toBe(200)
    at = await browser.follow(body.data.redirectTo, REDIRECT)
  }
  return { callback: new URL(at), verifier, state, steps }
}

describe('single sign-on with a relying party we did not write', () => {
  it('signs in with PKCE, login and consent; the ID token checks against the JWKS; userinfo; refresh rotates; frozen is refused', async () => {
    const app = await application('crm', 'web')
    expect(app.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // stored encrypted, never as given
    const [stored] = await t.db.select().from(oidcClients).where(eq(oidcClients.serviceId, app.serviceId))
    expect(stored.secretEnc).not.toContain(app.clientSecret!)

    const user = await t.userWithCodes([])
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id))
    const config = await discover(app.clientId, app.clientSecret)
    expect(config.serverMetadata().issuer).toBe(`${base}/oidc`)

    const { callback, verifier, state, steps } = await signIn(
      config,
      row.nickName,
      'User@12345678',
      'openid profile roles permissions offline_access',
    )
    expect(steps).toEqual(['login', 'consent'])
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    })
    expect(await sso.idTokenSubject(config, app.clientId, tokens.id_token!)).toBe(String(user.id))

    const info = await client.fetchUserInfo(config, tokens.access_token, String(user.id))
    expect(info).toMatchObject({
      sub: String(user.id),
      preferred_username: row.nickName,
      roles: [`r_${row.nickName}`],
      permissions: [],
    })

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!)
    expect(refreshed.refresh_token).toBeTruthy()
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    // the old refresh token was rotated away
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    })

    // frozen: the refresh token and the access token end at once
    const frozen = await admin('PUT', '/api/user/update', { id: user.id, nickName: row.nickName, status: 2 })
    expect(frozen.status, JSON.stringify(frozen.body)).toBe(200)
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    })
    await expect(client.fetchUserInfo(config, refreshed.access_token, String(user.id))).rejects.toBeTruthy()
  })

  it('PKCE is required, redirect URIs match exactly, and bad input gets the protocol’s own errors', async () => {
    const app = await application('erp', 'web')
    const authorize = (params: Record<string, string>) =>
      fetch(
        `${base}/oidc/auth?${new URLSearchParams({ client_id: app.clientId, response_type: 'code', scope: 'openid', ...params })}`,
        {
          redirect: 'manual',
        },
      )
    const noPkce = await authorize({ redirect_uri: REDIRECT, state: 's' })
    expect(noPkce.status).toBe(303)
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request')
    const otherUri = await authorize({
      redirect_uri: `${REDIRECT}/x`,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    })
    expect(otherUri.status).toBe(400)
    expect(await otherUri.text()).toContain('登录出错')
    const token = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'nope',
        client_id: app.clientId,
        client_secret: app.clientSecret!,
      }),
    })
    expect(token.status).toBe(400)
    expect(((await token.json()) as Json).error).toBe('invalid_grant')

    const bad = await admin('PUT', '/api/service/oidc', {
      serviceId: app.serviceId,
      type: 'web',
      redirectUris: ['http://example.com/cb'],
      requireConsent: true,
    })
    expect(bad.status).toBe(400)
    expect(bad.body.msg).toBe(MSG.oidcRedirectUriInvalid)
  })

  it('an application without consent skips the consent step', async () => {
    const app = await application('wiki', 'spa', false)
    expect(app.clientSecret).toBeNull()
    const user = await t.userWithCodes([])
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id))
    const config = await discover(app.clientId)
    const { steps, callback, verifier, state } = await signIn(
      config,
      row.nickName,
      'User@12345678',
      'openid profile',
    )
    expect(steps).toEqual(['login'])
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    })
    expect(tokens.id_token).toBeTruthy()
  })

  it('a wrong password is refused with our message and the interaction stays open', async () => {
    const app = await application('hr', 'web')
    const config = await discover(app.clientId, app.clientSecret)
    const { browser, uid } = await authorization(config)
    const res = await browser.request('POST', `/oidc-login/${uid}/login`, {
      body: { nickName: 'admin', password: 'wrong' },
    })
    expect(res.status).toBe(401)
    expect(((await res.json()) as Json).msg).toBe(MSG.loginFailed)
    const [logged] = await t.db.select().from(loginLogs).orderBy(desc(loginLogs.id)).limit(1)
    expect(logged).toMatchObject({ nickName: 'admin', result: 'failure' })
    // without the browser's interaction cookie nothing can be done with the interaction
    const stranger = await fetch(`${base}/oidc-login/${uid}/details`)
    expect(stranger.status).toBe(400)
    expect(((await stranger.json()) as Json).msg).toBe(MSG.oidcInteractionGone)
  })
})

describe('the single sign-on screen asks what the console’s sign-in asks (DESIGN.md §14)', () => {
  it('a password that must be changed is not enough, and a restricted console session is refused', async () => {
    const app = await application('forced', 'web')
    const config = await discover(app.clientId, app.clientSecret)
    const user = await t.userWithCodes([])
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id))
    await t.db.update(users).set({ mustChangePassword: 1 }).where(eq(users.id, user.id))
    const settings = (await admin('GET', '/api/settings/security')).body.data
    const forced = await admin('PUT', '/api/settings/security', { ...settings, forceChangeInitial: true })
    expect(forced.status, forced.body.msg).toBe(200)
    try {
      const { browser, uid } = await authorization(config)
      const byPassword = await browser.request('POST', `/oidc-login/${uid}/login`, {
        body: { nickName: row.nickName, password: 'User@12345678' },
      })
      expect(byPassword.status).toBe(403)
      expect(((await byPassword.json()) as Json).msg).toBe(MSG.oidcChangePasswordFirst)
      expect(await lastLogin()).toMatchObject({
        userId: user.id,
        result: 'failure',
        msg: MSG.oidcChangePasswordFirst,
      })
      // the console's own sign-in gives a session restricted to changing the password; it opens nothing here
      const signedIn = await t.call('POST', '/api/login', {
        body: { nickName: row.nickName, password: 'User@12345678' },
      })
      expect(signedIn.body.data.restricted).toBe('password_change')
      const bySession = await browser.request('POST', `/oidc-login/${uid}/session`, {
        headers: { 'x-auth-token': signedIn.body.data.token },
      })
      expect(bySession.status).toBe(403)
      expect(((await bySession.json()) as Json).msg).toBe(SIGN_IN_MSG.mustChangePassword)
    } finally {
      await admin('PUT', '/api/settings/security', { ...settings, forceChangeInitial: false })
    }
  })
})

describe('two-step sign-in on the single sign-on screen (DESIGN.md §14, §16)', () => {
  /** A user with two-step sign-in bound through the API: name, id, secret and recovery codes. */
  async function enrolled() {
    const user = await t.userWithCodes([])
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id))
    const setup = await t.call('POST', '/api/user/mfa/setup', { token: user.token, body: {} })
    const secret = setup.body.data.secret as string
    // a step in the past, so that the codes of now and later stay unused for the tests
    const enable = await t.call('POST', '/api/user/mfa/enable', {
      token: user.token,
      body: { code: await previousStepCode(secret) },
    })
    expect(enable.status).toBe(200)
    return {
      id: user.id,
      nickName: row.nickName,
      secret,
      recoveryCodes: enable.body.data.recoveryCodes as string[],
    }
  }

  /** An authorization started in a fresh browser, up to the login screen's first answer. */
  async function passwordStep(clientId: string, secret: string | null, nickName: string) {
    const { browser, uid } = await authorization(await discover(clientId, secret))
    const res = await browser.request('POST', `/oidc-login/${uid}/login`, {
      body: { nickName, password: 'User@12345678' },
    })
    const body = (await res.json()) as Json
    expect(res.status, JSON.stringify(body)).toBe(200)
    const mfa = (proof: { code?: string; recoveryCode?: string }) =>
      browser.request('POST', `/oidc-login/${uid}/mfa`, { body: { mfaToken: body.data.mfaToken, ...proof } })
    return { body, mfa }
  }

  it('a right password asks for the code; a wrong code is refused and logged; the right one signs the relying party in', async () => {
    const app = await application('mfa-crm', 'web', false)
    const u = await enrolled()
    const first = await passwordStep(app.clientId, app.clientSecret, u.nickName)
    // the password alone opens nothing: no redirect, only the second step's token
    expect(first.body.data).toEqual({ mfaRequired: true, methods: ['totp'], mfaToken: expect.any(String) })
    expect(first.body.msg).toBe(SIGN_IN_MSG.mfaRequired)
    const wrong = await first.mfa({ code: '000000' })
    expect(wrong.status).toBe(401)
    expect(((await wrong.json()) as Json).msg).toBe(SIGN_IN_MSG.mfaCodeWrong)
    expect(await lastLogin()).toMatchObject({ userId: u.id, result: 'mfa_failure' })
    // a token of this sign-in, sent with no code at all, is bad input
    const empty = await first.mfa({})
    expect(empty.status).toBe(400)

    // the whole flow with the relying party: login, the code, the callback, an ID token for this user
    const config = await discover(app.clientId, app.clientSecret)
    const { callback, verifier, state, steps } = await signIn(
      config,
      u.nickName,
      'User@12345678',
      'openid',
      () => ({
        code: oathtool(u.secret, Date.now()),
      }),
    )
    expect(steps).toEqual(['login', 'mfa'])
    expect(await lastLogin()).toMatchObject({ userId: u.id, result: 'success', msg: '单点登录成功' })
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    })
    expect(tokens.claims()!.sub).toBe(String(u.id))
    // the code is used up: the same one is refused on a new sign-in
    const again = await passwordStep(app.clientId, app.clientSecret, u.nickName)
    const replay = await again.mfa({ code: oathtool(u.secret, Date.now()) })
    expect(replay.status).toBe(401)
  })

  it('five tries per token; the sixth is refused, and a new token is throttled for this user and address', async () => {
    const app = await application('mfa-tries', 'web', false)
    const u = await enrolled()
    const first = await passwordStep(app.clientId, app.clientSecret, u.nickName)
    for (let i = 0; i < 5; i++) {
      const res = await first.mfa({ code: '000000' })
      expect(res.status).toBe(401)
      expect(((await res.json()) as Json).msg).toBe(SIGN_IN_MSG.mfaCodeWrong)
    }
    const sixth = await first.mfa({ code: oathtool(u.secret, Date.now()) })
    expect(sixth.status).toBe(401)
    expect(((await sixth.json()) as Json).msg).toBe(SIGN_IN_MSG.mfaTokenInvalid)
    // a new password sign-in gives a new token, but this user's codes from this address wait now
    // (the code tries' first refusal lasts ten minutes here: the password step between cannot outrun it)
    const next = await passwordStep(app.clientId, app.clientSecret, u.nickName)
    const throttled = await next.mfa({ code: oathtool(u.secret, Date.now()) })
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await lastLogin()).toMatchObject({ userId: u.id, result: 'locked' })
  })

  it('a recovery code signs in once, logged as used', async () => {
    const app = await application('mfa-recovery', 'web', false)
    const u = await enrolled()
    const config = await discover(app.clientId, app.clientSecret)
    const { steps } = await signIn(config, u.nickName, 'User@12345678', 'openid', () => ({
      recoveryCode: u.recoveryCodes[0],
    }))
    expect(steps).toEqual(['login', 'mfa'])
    expect(await lastLogin()).toMatchObject({
      userId: u.id,
      result: 'recovery_used',
      msg: SIGN_IN_MSG.recoveryUsed,
    })
    const again = await passwordStep(app.clientId, app.clientSecret, u.nickName)
    const reused = await again.mfa({ recoveryCode: u.recoveryCodes[0] })
    expect(reused.status).toBe(401)
    expect(((await reused.json()) as Json).msg).toBe(SIGN_IN_MSG.mfaCodeWrong)
    expect((await again.mfa({ recoveryCode: u.recoveryCodes[1] })).status).toBe(200)
  })

  it('a password to change is told after the second step, not before', async () => {
    const app = await application('mfa-forced', 'web', false)
    const u = await enrolled()
    await t.db.update(users).set({ mustChangePassword: 1 }).where(eq(users.id, u.id))
    const settings = (await admin('GET', '/api/settings/security')).body.data
    expect(
      (await admin('PUT', '/api/settings/security', { ...settings, forceChangeInitial: true })).status,
    ).toBe(200)
    try {
      const first = await passwordStep(app.clientId, app.clientSecret, u.nickName)
      expect(first.body.data.mfaRequired).toBe(true)
      const res = await first.mfa({ code: oathtool(u.secret, Date.now()) })
      expect(res.status).toBe(403)
      expect(((await res.json()) as Json).msg).toBe(MSG.oidcChangePasswordFirst)
    } finally {
      await admin('PUT', '/api/settings/security', { ...settings, forceChangeInitial: false })
    }
  })
})

describe('machine clients', () => {
  it('client credentials give a token the check API accepts as the service account', async () => {
    const app = await application('billing', 'machine')
    const [row] = await t.db.select().from(oidcClients).where(eq(oidcClients.serviceId, app.serviceId))
    expect(row.serviceUserId).not.toBeNull()
    const config = await discover(app.clientId, app.clientSecret)
    const tokens = await client.clientCredentialsGrant(config)
    const check = (token: string) =>
      t.call('POST', '/api/authz/check', {
        headers: { authorization: `Bearer ${token}` },
        body: { method: 'POST', path: '/user/list' },
      })
    const res = await check(tokens.access_token)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.allowed).toBe(false)
    // the service account's own permissions decide: given the user list, it may
    const role = await admin('POST', '/api/role/insert', { roleName: '报表读取', type: 3, status: 1 })
    expect(role.status, JSON.stringify(role.body)).toBe(200)
    await t.db.insert(roleAuths).values({ roleId: role.body.data as number, authCode: 'user' })
    await t.db.insert(userRoles).values({ userId: row.serviceUserId!, roleId: role.body.data as number })
    await t.app.ctx.authz.invalidate()
    const allowed = await check(tokens.access_token)
    expect(allowed.body.data.allowed).toBe(true)
    // a forged or altered token is refused
    expect((await check(`${tokens.access_token.slice(0, -4)}AAAA`)).status).toBe(401)
    // the service account cannot sign in interactively
    const login = await t.call('POST', '/api/login', { body: { nickName: 'svc-billing', password: '!' } })
    expect(login.status).toBe(401)
  })

  it('a machine client held in memory follows its settings: a rotated secret, a disabled or changed row', async () => {
    const app = await application('ledger', 'machine')
    const grant = (secret: string) =>
      fetch(`${base}/oidc/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${app.clientId}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      })
    expect((await grant(app.clientSecret!)).status).toBe(200)
    expect((await grant(app.clientSecret!)).status).toBe(200) // now held
    expect((await grant('wrong-secret')).status).toBe(401)
    // a new secret through the call: the old one is refused on the very next grant
    const rotated = await admin('POST', '/api/service/oidc/rotate-secret', { serviceId: app.serviceId })
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200)
    const secret = rotated.body.data.clientSecret as string
    expect((await grant(app.clientSecret!)).status).toBe(401)
    expect((await grant(secret)).status).toBe(200)
    // a change written past the API (another instance, a script) is heard through the database
    await t.db.update(oidcClients).set({ enabled: false }).where(eq(oidcClients.serviceId, app.serviceId))
    await expect.poll(async () => (await grant(secret)).status).toBe(401)
    await t.db.update(oidcClients).set({ enabled: true }).where(eq(oidcClients.serviceId, app.serviceId))
    await expect.poll(async () => (await grant(secret)).status).toBe(200)
    // sign-on turned off for the service
    const off = await admin('DELETE', '/api/service/oidc', undefined, { serviceId: app.serviceId })
    expect(off.status, JSON.stringify(off.body)).toBe(200)
    expect((await grant(secret)).status).toBe(401)
  })

  it('rotating the signing key keeps earlier tokens verifiable and signs with the new one', async () => {
    const before = (await t.db.select().from(oidcKeys)).length
    const rotated = await admin('POST', '/api/service/oidc/rotate-keys', {})
    expect(rotated.status).toBe(200)
    // a pair: RS256 for ID tokens, ES256 for machine tokens
    expect((await t.db.select().from(oidcKeys)).length).toBe(before + 2)
    const jwks = (await (await fetch(`${base}/oidc/jwks`)).json()) as Json
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toContain(rotated.body.data.kid)
    expect(JSON.stringify(jwks)).not.toContain('"d"')
    const [svc] = await t.db.select().from(services).where(eq(services.key, 'billing'))
    expect(svc).toBeTruthy()
  })
})
