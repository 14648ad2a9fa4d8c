import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { authzApi, DEFAULT_SECURITY_SETTINGS, MSG } from '@amg/contract'
import { users } from '../src/db/schema'
import { nameFields } from '../src/lib/name-guard'
import { checkFastPathCount } from '../src/modules/authz/check-fast-path'
import { createTestApp, type TestApp } from './helpers/app'
import { seedAuthzWorld, type AuthzWorld } from './helpers/authz-world'
import { TEST_USER_PASSWORD } from './helpers/constants'
import { freePort } from './helpers/processes'

/**
 * Over HTTP the server answers `POST /api/authz/check` before Fastify when it can
 * (modules/authz/check-fast-path.ts); injected requests always reach the Fastify route. Every kind of
 * caller and body is asked both ways and must get the same answer, byte for byte and header for header;
 * the usual calls must be the fast path's, everything else Fastify's.
 */

let t: TestApp
let w: AuthzWorld
let base: string
let apiKey: string
let machineToken: string
let restrictedToken: string
let frozenToken: string

const admin = (method: string, url: string, body?: unknown) =>
  t.call(method, url, { token: t.adminToken, body })

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  t = await createTestApp({ publicUrl: base })
  w = await seedAuthzWorld(t)
  await t.app.listen({ port, host: '127.0.0.1' })

  apiKey = (await admin('POST', '/api/apikey/insert', { userId: w.direct.id, name: '检查' })).body.data.key

  const serviceId = (await admin('POST', '/api/service/insert', { key: 'check-machine', name: '机器' })).body
    .data as number
  const client = (
    await admin('PUT', '/api/service/oidc', {
      serviceId,
      type: 'machine',
      redirectUris: [],
      requireConsent: false,
    })
  ).body.data as { clientId: string; clientSecret: string }
  const grant = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  machineToken = ((await grant.json()) as { access_token: string }).access_token

  // a session that must change its password first (DESIGN.md §14)
  await admin('PUT', '/api/settings/security', { ...DEFAULT_SECURITY_SETTINGS, forceChangeInitial: true })
  expect((await admin('POST', '/api/user/insert', { nickName: 'check_restricted' })).status).toBe(200)
  const signedIn = await t.call('POST', '/api/login', {
    body: { nickName: 'check_restricted', password: TEST_USER_PASSWORD },
  })
  expect(signedIn.body.data.restricted).toBe('password_change')
  restrictedToken = signedIn.body.data.token
  await admin('PUT', '/api/settings/security', DEFAULT_SECURITY_SETTINGS)

  // a user frozen while signed in
  const frozen = await t.userWithCodes(['user'], 'check_frozen')
  frozenToken = frozen.token
  await t.db.update(users).set({ status: 2 }).where(eq(users.id, frozen.id))
  for (let i = 0; ; i++) {
    const res = await t.call('POST', '/api/authz/check', { token: frozenToken, body: call })
    if (res.body.msg === MSG.loginFrozen) break
    if (i > 50) throw new Error(`the frozen user still gets ${res.status}`)
    await new Promise((r) => setTimeout(r, 100))
  }
})
afterAll(() => t.close())

const call = { method: 'POST', path: '/user/list' }
const json = { 'content-type': 'application/json' }

interface Answer {
  status: number
  body: string
  headers: Record<string, string>
}

/** Headers Node's HTTP server adds on the wire (light-my-request has none of them). */
const WIRE_ONLY = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

async function overHttp(url: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const res = await fetch(base + url, { method: 'POST', headers, body })
  const out: Record<string, string> = {}
  res.headers.forEach((value, name) => {
    if (!WIRE_ONLY.has(name)) out[name] = value
  })
  return { status: res.status, body: await res.text(), headers: out }
}

async function injected(url: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const res = await t.app.inject({ method: 'POST', url, headers, payload: body })
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers))
    if (!WIRE_ONLY.has(name) && value !== undefined) out[name] = String(value)
  return { status: res.statusCode, body: res.body, headers: out }
}

/** Asks both ways; answers whether the HTTP answer came from the fast path. */
async function same(name: string, headers: Record<string, string>, body?: string, url = '/api/authz/check') {
  const before = checkFastPathCount.answered
  const http = await overHttp(url, headers, body)
  const fast = checkFastPathCount.answered > before
  const route = await injected(url, headers, body)
  expect(http, name).toEqual(route)
  return { fast, answer: http }
}

describe('the check call over HTTP', () => {
  it('has no name field for the name guard to rewrite (the fast path does not run it)', () => {
    expect(nameFields(authzApi.check.schema.body)).toEqual([])
  })

  it('answers the usual calls of every kind of caller before Fastify, as the route does', async () => {
    // [who, headers, their own user id (a machine client's service account: not asked)]
    const callers: [string, Record<string, string>, number | undefined][] = [
      ['session', { 'x-auth-token': w.direct.token }, w.direct.id],
      ['session, spaces around', { 'x-auth-token': ` ${w.direct.token} ` }, w.direct.id],
      ['super admin', { 'x-auth-token': t.adminToken }, w.adminId],
      ['API key', { authorization: `Bearer ${apiKey}` }, w.direct.id],
      ['machine token', { authorization: `Bearer ${machineToken}` }, undefined],
      [
        'session wins over Bearer',
        { 'x-auth-token': w.direct.token, authorization: `Bearer ${apiKey}` },
        w.direct.id,
      ],
    ]
    const bodies: [string, unknown][] = [
      ['allowed', call],
      ['refused', { method: 'GET', path: '/role/listall' }],
      ['with scope', { ...call, withScope: true }],
      ['without scope', { ...call, withScope: false }],
      ['ams named', { ...call, service: 'ams' }],
      ['method lower case, HEAD', { method: 'head', path: '/user/detail' }],
      ['query ignored, encoded', { method: 'GET', path: '/user/%64etail?x=1' }],
    ]
    for (const [who, auth, id] of callers)
      for (const [what, body] of [...bodies, ...(id ? [['own id', { ...call, userId: id }] as const] : [])]) {
        for (const type of ['application/json', 'application/json; charset=utf-8']) {
          // the first call of a caller reads them from the database (Fastify's); held from then on. A
          // change notification of the setup's writes may still arrive and drop what was held (on
          // PostgreSQL, on a busy machine): then the call goes to Fastify, rightly, and is asked again
          let fast = false
          for (let attempt = 0; attempt < 3 && !fast; attempt++) {
            await injected('/api/authz/check', { ...auth, 'content-type': type }, JSON.stringify(body))
            const result = await same(
              `${who}, ${what}`,
              { ...auth, 'content-type': type },
              JSON.stringify(body),
            )
            expect(result.answer.status, `${who}, ${what}: ${result.answer.body}`).toBe(200)
            fast = result.fast
          }
          expect(fast, `${who}, ${what}`).toBe(true)
        }
      }
    const allowed = await overHttp(
      '/api/authz/check',
      { ...json, 'x-auth-token': w.direct.token },
      JSON.stringify(call),
    )
    expect(JSON.parse(allowed.body)).toEqual({
      code: 200,
      msg: MSG.success,
      data: { allowed: true, userId: w.direct.id },
    })
    expect(allowed.headers['x-content-type-options']).toBe('nosniff')
    const scoped = await overHttp(
      '/api/authz/check',
      { ...json, 'x-auth-token': w.direct.token },
      JSON.stringify({ ...call, withScope: true }),
    )
    expect(JSON.parse(scoped.body).data).toEqual({
      allowed: true,
      userId: w.direct.id,
      scope: { all: true, self: false, orgIds: [] },
    })
  })

  it('leaves every other call to Fastify, which answers it as always', async () => {
    const tok = { ...json, 'x-auth-token': w.direct.token }
    const cases: [string, Record<string, string>, string | undefined, number][] = [
      ['no token', json, JSON.stringify(call), 401],
      ['unknown token', { ...json, 'x-auth-token': 'nope' }, JSON.stringify(call), 401],
      [
        'forged machine token',
        { ...json, authorization: `Bearer ${machineToken.slice(0, -4)}AAAA` },
        JSON.stringify(call),
        401,
      ],
      [
        'unknown API key',
        { ...json, authorization: `Bearer ak_${'x'.repeat(43)}` },
        JSON.stringify(call),
        401,
      ],
      ['frozen', { ...json, 'x-auth-token': frozenToken }, JSON.stringify(call), 401],
      ['restricted', { ...json, 'x-auth-token': restrictedToken }, JSON.stringify(call), 403],
      ['no body', tok, undefined, 400],
      ['empty body', tok, '', 400],
      ['blank body', tok, '   ', 400],
      ['not JSON', tok, '{method', 400],
      ['an array', tok, '[]', 400],
      ['null', tok, 'null', 400],
      ['a string', tok, '"GET /user/list"', 400],
      ['no method', tok, JSON.stringify({ path: '/user/list' }), 400],
      ['no path', tok, JSON.stringify({ method: 'GET' }), 400],
      ['bad method', tok, JSON.stringify({ method: 'G ET', path: '/user/list' }), 400],
      ['relative path', tok, JSON.stringify({ method: 'GET', path: 'user/list' }), 400],
      ['dot segments', tok, JSON.stringify({ method: 'GET', path: '/user/%2E%2E/role' }), 400],
      ['control character', tok, JSON.stringify({ method: 'GET', path: '/user/\u0000' }), 400],
      ['path too long', tok, JSON.stringify({ method: 'GET', path: `/${'a'.repeat(2048)}` }), 400],
      ['unknown service', tok, JSON.stringify({ ...call, service: 'nope' }), 400],
      ['withScope as text', tok, JSON.stringify({ ...call, withScope: 'yes' }), 400],
      ['userId as text (coerced)', tok, JSON.stringify({ ...call, userId: String(w.direct.id) }), 200],
      ['userId too large', tok, JSON.stringify({ ...call, userId: 1e20 }), 400],
      ['userId zero', tok, JSON.stringify({ ...call, userId: 0 }), 400],
      ['another user without the permission', tok, JSON.stringify({ ...call, userId: w.groupUser.id }), 403],
      ['an unknown field', tok, JSON.stringify({ ...call, extra: 1 }), 200],
      ['__proto__', tok, `{"method":"GET","path":"/user/list","__proto__":{"x":1}}`, 400],
      [
        'text/plain',
        { 'content-type': 'text/plain', 'x-auth-token': w.direct.token },
        JSON.stringify(call),
        400,
      ],
      [
        'another charset',
        { 'content-type': 'application/json; charset=latin1', 'x-auth-token': w.direct.token },
        JSON.stringify(call),
        200,
      ],
    ]
    for (const [name, headers, body, status] of cases) {
      const { fast, answer } = await same(name, headers, body)
      expect(answer.status, `${name}: ${answer.body}`).toBe(status)
      expect(fast, name).toBe(false)
    }
    // the super admin checking others: the route's, 200 or 404
    const adminTok = { ...json, 'x-auth-token': t.adminToken }
    const other = await same('another user', adminTok, JSON.stringify({ ...call, userId: w.groupUser.id }))
    expect(other.answer.status).toBe(200)
    expect(JSON.parse(other.answer.body).data).toEqual({ allowed: false, userId: w.groupUser.id })
    const frozenUser = await same('a frozen user', adminTok, JSON.stringify({ ...call, userId: w.frozenId }))
    expect(JSON.parse(frozenUser.answer.body).data).toEqual({ allowed: false, userId: w.frozenId })
    const missing = await same('nobody', adminTok, JSON.stringify({ ...call, userId: 2147483647 }))
    expect(missing.answer.status).toBe(404)
    // a query string, a trailing slash: Fastify's
    expect((await same('query', tok, JSON.stringify(call), '/api/authz/check?x=1')).fast).toBe(false)
    expect((await same('slash', tok, JSON.stringify(call), '/api/authz/check/')).fast).toBe(false)
  })

  it('keeps the connection usable after each kind of answer', async () => {
    const tok = { ...json, 'x-auth-token': w.direct.token }
    // one keep-alive connection: a fast answer, a refusal handed on with its body, a fast answer again
    for (const body of [
      JSON.stringify(call),
      '{bad',
      JSON.stringify(call),
      JSON.stringify({ ...call, service: 'nope' }),
      JSON.stringify(call),
    ]) {
      const res = await fetch(`${base}/api/authz/check`, { method: 'POST', headers: tok, body })
      expect([200, 400]).toContain(res.status)
      await res.text()
    }
  })
})
