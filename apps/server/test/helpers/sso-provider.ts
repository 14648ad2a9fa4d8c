import { afterAll, beforeAll, expect } from 'vitest'
import { desc } from 'drizzle-orm'
import * as client from 'openid-client'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import type { Config } from '../../src/config'
import { loginLogs } from '../../src/db/audit-schema'
import { createTestApp, type TestApp } from './app'
import { CookieBrowser } from './oidc-browser'
import { freePort } from './processes'

/**
 * The single sign-on provider as the OIDC suites meet it (DESIGN.md §16): the app listening on a
 * port of its own with its public URL that address (the issuer the relying party discovers), the
 * applications registered through the API, and a relying party we did not write (openid-client)
 * starting an authorization with PKCE in a fresh browser up to the login interaction.
 */

/** Where every test application's sign-on comes back to (never reached: the browser stops there). */
export const REDIRECT = 'http://localhost:9/callback'

export { oathtool, previousStepCode } from './totp'

/**
 * Starts the provider before the file's tests and closes it after (the hooks are the file's own);
 * `t` and `base` are there once its beforeAll ran, the helpers may be taken at once.
 */
export function ssoProvider(overrides: Partial<Config> = {}) {
  let app: TestApp | undefined
  let url = ''
  beforeAll(async () => {
    const port = await freePort()
    url = `http://127.0.0.1:${port}`
    app = await createTestApp({ publicUrl: url, ...overrides })
    await app.app.listen({ port, host: '127.0.0.1' })
  })
  afterAll(async () => app?.close())
  const t = () => app!

  const admin = (method: string, path: string, body?: unknown, query?: Record<string, string | number>) =>
    t().call(method, path, { token: t().adminToken, body, query })

  /** The last line of the sign-in log. */
  const lastLogin = async () =>
    (await t().db.select().from(loginLogs).orderBy(desc(loginLogs.id)).limit(1))[0]

  /** A service with sign-on of this type (a machine client has no redirect URI). */
  async function application(key: string, type: 'web' | 'spa' | 'machine', requireConsent = true) {
    const made = await admin('POST', '/api/service/insert', { key, name: `应用 ${key}` })
    expect(made.status).toBe(200)
    const serviceId = made.body.data as number
    const saved = await admin('PUT', '/api/service/oidc', {
      serviceId,
      type,
      redirectUris: type === 'machine' ? [] : [REDIRECT],
      requireConsent,
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    return { serviceId, ...(saved.body.data as { clientId: string; clientSecret: string | null }) }
  }

  /** openid-client's configuration for a client: with its secret, or a public one (none). */
  const discover = (clientId: string, secret?: string | null) =>
    client.discovery(
      new URL(`${url}/oidc`),
      clientId,
      secret ?? undefined,
      secret ? undefined : client.None(),
      {
        execute: [client.allowInsecureRequests],
      },
    )

  /**
   * An authorization request with PKCE, followed in a fresh browser to the login interaction: `at`
   * is where it stopped, `uid` its interaction; `finish` follows a completed interaction's
   * `redirectTo` back to the callback and exchanges the code for tokens.
   */
  async function authorization(config: client.Configuration, scope = 'openid') {
    const verifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const authorizeUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    })
    const browser = new CookieBrowser(url)
    const at = await browser.follow(authorizeUrl.href, REDIRECT)
    const uid = /\/oidc-login\/([^/?#]+)/.exec(at)?.[1]
    expect(uid, at).toBeTruthy()
    const finish = async (redirectTo: string) => {
      const back = await browser.follow(redirectTo, REDIRECT)
      expect(back.startsWith(REDIRECT), back).toBe(true)
      return client.authorizationCodeGrant(config, new URL(back), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      })
    }
    return { browser, at, uid: uid!, verifier, state, finish }
  }

  /** The ID token checked against the provider's keys (issuer and audience too): whose it is. */
  async function idTokenSubject(config: client.Configuration, clientId: string, idToken: string) {
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!))
    const { payload } = await jwtVerify(idToken, jwks, { issuer: `${url}/oidc`, audience: clientId })
    return payload.sub
  }

  return {
    get t() {
      return t()
    },
    get base() {
      return url
    },
    admin,
    lastLogin,
    application,
    discover,
    authorization,
    idTokenSubject,
  }
}

export type SsoProvider = ReturnType<typeof ssoProvider>
