import net from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import * as client from 'openid-client'
import { buildApp } from '../src/app'
import { postgresSettings } from '../src/config'
import { openDatabase, type Database } from '../src/db/connection'
import { users } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { cutListener, msUntil, secondInstance } from './helpers/second-instance'
import pg from 'pg'
import { CookieBrowser } from './helpers/oidc-browser'

type Json = any

/**
 * DESIGN.md §16: instances sharing one PostgreSQL database share the provider's keys and sessions —
 * a token one issues is accepted by the other, a refresh token from one is redeemed at the other, and
 * a key rotated on one is served by the other at once.
 */
describe.skipIf(!inject('pgTemplate'))('two instances, one provider', () => {
  let a: TestApp
  let second: { app: FastifyInstance; database: Database }
  let baseA: string
  let baseB: string
  const REDIRECT = 'http://localhost:9/callback'

  const listen = async (app: FastifyInstance) => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    return `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`
  }

  beforeAll(async () => {
    // the issuer both answer for (in production, the address of the load balancer in front of them)
    const issuerHost = 'http://127.0.0.1:1'
    // both with the tests' SECRET_KEY (the second takes the first's configuration), as instances must be
    a = await createTestApp({ publicUrl: issuerHost })
    const database = await openDatabase({
      databaseUrl: a.databaseUrl!,
      stageAuditRows: true,
      ...postgresSettings(a.config),
    })
    const app = await buildApp({ config: a.config, database, logger: false })
    await app.ready()
    second = { app, database }
    baseA = await listen(a.app)
    baseB = await listen(second.app)
  })
  afterAll(async () => {
    await second?.app.close()
    await second?.database.close()
    await a?.close()
  })

  const admin = (method: string, url: string, body?: unknown) =>
    a.call(method, url, { token: a.adminToken, body })

  const jwksOf = async (base: string) =>
    ((await (await fetch(`${base}/oidc/jwks`)).json()) as Json).keys.map((k: Json) => k.kid).sort()

  it('serve the same keys; a token, a session and a refresh token of one are good at the other', async () => {
    expect(await jwksOf(baseA)).toEqual(await jwksOf(baseB))

    // a machine client's token from A calls B
    const machine = await admin('POST', '/api/service/insert', { key: 'reports', name: '报表' })
    const saved = (
      await admin('PUT', '/api/service/oidc', {
        serviceId: machine.body.data,
        type: 'machine',
        redirectUris: [],
        requireConsent: false,
      })
    ).body.data as Json
    const tokenAtA = await fetch(`${baseA}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: saved.clientId,
        client_secret: saved.clientSecret,
      }),
    })
    const { access_token: accessToken } = (await tokenAtA.json()) as Json
    const check = await second.app.inject({
      method: 'POST',
      url: '/api/authz/check',
      headers: { authorization: `Bearer ${accessToken}` },
      payload: { method: 'GET', path: '/api/user/list' },
    })
    expect(check.statusCode, check.body).toBe(200)

    // a user signs in at A; the code is redeemed at B, and B's refresh token is redeemed at A
    const web = await admin('POST', '/api/service/insert', { key: 'portal', name: '门户' })
    const app = (
      await admin('PUT', '/api/service/oidc', {
        serviceId: web.body.data,
        type: 'web',
        redirectUris: [REDIRECT],
        requireConsent: false,
      })
    ).body.data as Json
    const user = await a.userWithCodes([])
    const [row] = await a.db.select().from(users).where(eq(users.id, user.id))
    const verifier = client.randomPKCECodeVerifier()
    const authorize = `${baseA}/oidc/auth?${new URLSearchParams({
      client_id: app.clientId,
      response_type: 'code',
      scope: 'openid profile',
      redirect_uri: REDIRECT,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'st',
    })}`
    const browser = new CookieBrowser(baseA)
    const at = await browser.follow(authorize, REDIRECT)
    const uid = /\/oidc-login\/([^/?#]+)/.exec(at)![1]
    const login = await browser.request('POST', `/oidc-login/${uid}/login`, {
      body: { nickName: row.nickName, password: 'User@12345678' },
    })
    expect(login.status).toBe(200)
    const callback = new URL(await browser.follow(((await login.json()) as Json).data.redirectTo, REDIRECT))
    const code = callback.searchParams.get('code')!
    const grant = (base: string, params: Record<string, string>) =>
      fetch(`${base}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, ...params }),
      })
    const atB = await grant(baseB, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    })
    const tokens = (await atB.json()) as Json
    expect(atB.status, JSON.stringify(tokens)).toBe(200)
    const refreshedAtA = await grant(baseA, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    })
    expect(refreshedAtA.status).toBe(200)
    const info = await fetch(`${baseB}/oidc/me`, {
      headers: { authorization: `Bearer ${((await refreshedAtA.json()) as Json).access_token}` },
    })
    expect(((await info.json()) as Json).preferred_username).toBe(row.nickName)
  })

  it('a key rotated on one instance is served by the other', async () => {
    const rotated = await admin('POST', '/api/service/oidc/rotate-keys', {})
    expect(rotated.status).toBe(200)
    const kid = rotated.body.data.kid as string
    await vi.waitFor(async () => expect(await jwksOf(baseB)).toContain(kid), { timeout: 5000, interval: 50 })
    expect(await jwksOf(baseA)).toEqual(await jwksOf(baseB))
  })

  it('a machine token revoked at A, or of a client turned off through A, is refused by B at its next use (DESIGN.md §19)', async () => {
    const made = await admin('POST', '/api/service/insert', { key: 'revoked', name: '吊销' })
    const serviceId = made.body.data as number
    const saved = (await admin('PUT', '/api/service/oidc', { serviceId, type: 'machine', redirectUris: [] }))
      .body.data as Json
    const basic = `Basic ${Buffer.from(`${saved.clientId}:${saved.clientSecret}`).toString('base64')}`
    const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }
    const tokenAt = async (base: string) =>
      (
        (await (
          await fetch(`${base}/oidc/token`, {
            method: 'POST',
            headers: form,
            body: 'grant_type=client_credentials',
          })
        ).json()) as Json
      ).access_token as string
    const useAtB = async (token: string) =>
      (
        await second.app.inject({
          method: 'POST',
          url: '/api/authz/check',
          headers: { authorization: `Bearer ${token}` },
          payload: { method: 'GET', path: '/user/list' },
        })
      ).statusCode
    const revoked = await tokenAt(baseA)
    const kept = await tokenAt(baseB)
    // B holds both, warm, before A takes one back
    expect(await useAtB(revoked)).toBe(200)
    expect(await useAtB(kept)).toBe(200)
    const res = await fetch(`${baseA}/oidc/token/revocation`, {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ token: revoked }),
    })
    expect(res.status).toBe(200)
    expect(await useAtB(revoked)).toBe(401)
    expect(await useAtB(kept)).toBe(200)

    const turnedOff = await a.call('DELETE', '/api/service/oidc', {
      token: a.adminToken,
      query: { serviceId },
    })
    expect(turnedOff.status, turnedOff.body.msg).toBe(200)
    expect(await useAtB(kept)).toBe(401)
  })

  it('a machine token revoked at A is refused within 100 ms by an instance that lost its listener', async () => {
    const made = await admin('POST', '/api/service/insert', { key: 'revoked-lost', name: '吊销监听' })
    const saved = (
      await admin('PUT', '/api/service/oidc', {
        serviceId: made.body.data,
        type: 'machine',
        redirectUris: [],
      })
    ).body.data as Json
    const form = {
      authorization: `Basic ${Buffer.from(`${saved.clientId}:${saved.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    }
    const token = (
      (await (
        await fetch(`${baseA}/oidc/token`, {
          method: 'POST',
          headers: form,
          body: 'grant_type=client_credentials',
        })
      ).json()) as Json
    ).access_token as string
    const pgAdmin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await pgAdmin.connect()
    const c = await secondInstance(a, pgAdmin)
    try {
      const useAtC = async () =>
        (
          await c.app.inject({
            method: 'POST',
            url: '/api/authz/check',
            headers: { authorization: `Bearer ${token}` },
            payload: { method: 'GET', path: '/user/list' },
          })
        ).statusCode
      expect(await useAtC()).toBe(200) // warm: the token's denials and its service account held at C
      await cutListener(pgAdmin, c)
      expect(await useAtC()).toBe(200)
      const res = await fetch(`${baseA}/oidc/token/revocation`, {
        method: 'POST',
        headers: form,
        body: new URLSearchParams({ token }),
      })
      expect(res.status).toBe(200)
      expect(await msUntil(async () => (await useAtC()) === 401)).toBeLessThan(100)
      expect(c.database.hearsEveryChange(), 'refused while the listener was still lost').toBe(false)
    } finally {
      await c.close()
      await pgAdmin.end()
    }
  })
})
