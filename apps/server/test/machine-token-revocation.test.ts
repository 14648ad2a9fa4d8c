import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { machineTokenDenials } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * DESIGN.md §19: a machine token is a JWT checked by its signature, yet a revoked one, or one whose
 * client was turned off, disabled or deleted, is refused on its very next use; the others keep working.
 */
type Json = any
let t: TestApp
let base: string

beforeAll(async () => {
  const probe = net.createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const port = (probe.address() as net.AddressInfo).port
  await new Promise((r) => probe.close(r))
  base = `http://127.0.0.1:${port}`
  t = await createTestApp({ publicUrl: base })
  await t.app.listen({ port, host: '127.0.0.1' })
})
afterAll(async () => t.close())

const admin = (method: string, url: string, body?: unknown, query?: Record<string, string | number>) =>
  t.call(method, url, { token: t.adminToken, body, query })

async function machineClient(key: string) {
  const made = await admin('POST', '/api/service/insert', { key, name: `机器 ${key}` })
  expect(made.status, made.body.msg).toBe(200)
  const serviceId = made.body.data as number
  const saved = await admin('PUT', '/api/service/oidc', { serviceId, type: 'machine', redirectUris: [] })
  expect(saved.status, saved.body.msg).toBe(200)
  return {
    serviceId,
    clientId: saved.body.data.clientId as string,
    secret: saved.body.data.clientSecret as string,
  }
}

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`

async function tokenOf(app: { clientId: string; secret: string }) {
  const res = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      authorization: basic(app.clientId, app.secret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as Json).access_token as string
}

const revoke = (app: { clientId: string; secret: string }, token: string) =>
  fetch(`${base}/oidc/token/revocation`, {
    method: 'POST',
    headers: {
      authorization: basic(app.clientId, app.secret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
  })

/** A call as the token (the self-check needs only a session). */
const use = async (token: string) =>
  (
    await t.call('POST', '/api/authz/check', {
      headers: { authorization: `Bearer ${token}` },
      body: { method: 'GET', path: '/user/list' },
    })
  ).status

describe('machine tokens taken back', () => {
  it('a revoked token is refused on its next use; another token of the client keeps working', async () => {
    const app = await machineClient('rev-one')
    const revoked = await tokenOf(app)
    const kept = await tokenOf(app)
    // both used first, so that memory holds them and their account
    expect(await use(revoked)).toBe(200)
    expect(await use(kept)).toBe(200)
    const res = await revoke(app, revoked)
    expect(res.status).toBe(200)
    expect(await use(revoked)).toBe(401)
    expect(await use(kept)).toBe(200)
    expect((await t.db.select().from(machineTokenDenials)).map((d) => d.key)).toContainEqual(
      expect.stringMatching(/^jti:/),
    )
  })

  it('another client cannot revoke a token that is not its own', async () => {
    const owner = await machineClient('rev-owner')
    const other = await machineClient('rev-other')
    const token = await tokenOf(owner)
    expect(await use(token)).toBe(200)
    await revoke(other, token)
    expect(await use(token)).toBe(200)
    // nor with a wrong secret
    const wrong = await revoke({ clientId: owner.clientId, secret: 'wrong-secret' }, token)
    expect(wrong.status).toBe(401)
    expect(await use(token)).toBe(200)
  })

  it('turning sign-on off refuses its tokens at once; turned on again, new tokens work', async () => {
    const app = await machineClient('rev-off')
    const token = await tokenOf(app)
    expect(await use(token)).toBe(200)
    const off = await admin('DELETE', '/api/service/oidc', undefined, { serviceId: app.serviceId })
    expect(off.status, off.body.msg).toBe(200)
    expect(await use(token)).toBe(401)
    // tokens issued in the second it was turned off are refused with it: a new one comes a second on
    await new Promise((r) => setTimeout(r, 1100))
    const on = await admin('PUT', '/api/service/oidc', {
      serviceId: app.serviceId,
      type: 'machine',
      redirectUris: [],
    })
    expect(on.status, on.body.msg).toBe(200)
    const fresh = await tokenOf({ clientId: app.clientId, secret: on.body.data.clientSecret })
    expect(await use(fresh)).toBe(200)
    expect(await use(token)).toBe(401)
  })

  it('disabling the client, or deleting its service, refuses its tokens at once', async () => {
    const disabled = await machineClient('rev-disabled')
    const a = await tokenOf(disabled)
    expect(await use(a)).toBe(200)
    const saved = await admin('PUT', '/api/service/oidc', {
      serviceId: disabled.serviceId,
      type: 'machine',
      redirectUris: [],
      enabled: false,
    })
    expect(saved.status, saved.body.msg).toBe(200)
    expect(await use(a)).toBe(401)

    const deleted = await machineClient('rev-deleted')
    const b = await tokenOf(deleted)
    expect(await use(b)).toBe(200)
    const gone = await admin('DELETE', '/api/service/delete', undefined, { id: deleted.serviceId })
    expect(gone.status, gone.body.msg).toBe(200)
    expect(await use(b)).toBe(401)
  })

  it('a denial written past this instance (another instance, a script) is heard through the database', async () => {
    const app = await machineClient('rev-heard')
    const token = await tokenOf(app)
    expect(await use(token)).toBe(200)
    const jti = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti as string
    await t.db
      .insert(machineTokenDenials)
      .values({ key: `jti:${jti}`, before: new Date(), expiresAt: new Date(Date.now() + 600_000) })
    await expect.poll(() => use(token)).toBe(401)
    await t.db.delete(machineTokenDenials).where(eq(machineTokenDenials.key, `jti:${jti}`))
  })
})
