import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { seedAuthzWorld, type AuthzWorld } from './helpers/authz-world'
import { API_SECURITY_HEADERS } from '../src/lib/security-headers'

/**
 * Over HTTP the server answers /api/authz/forward before Fastify sees the request
 * (modules/authz/forward-fast-path.ts); injected requests reach the Fastify route. The forward tests
 * of authz-api.test.ts pin the answers down through the route; here every kind of question is asked
 * both ways and must get the same answer, and the HTTP answers must come from the fast path.
 */

let t: TestApp
let w: AuthzWorld
let base: string
let chinese: { id: number; token: string }

beforeAll(async () => {
  t = await createTestApp()
  w = await seedAuthzWorld(t)
  chinese = await t.userWithCodes(['user'], '网关 用户')
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(() => t.close())

const nginx = (method: string, uri: string) => ({ 'x-original-method': method, 'x-original-uri': uri })
const traefik = (method: string, uri: string) => ({ 'x-forwarded-method': method, 'x-forwarded-uri': uri })

interface Answer {
  status: number
  body: string
  userId: string | null
  userName: string | null
  dataScope: string | null
  contentType: string | null
}

async function overHttp(method: string, url: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(base + url, { method, headers, body })
  return {
    answer: {
      status: res.status,
      body: await res.text(),
      userId: res.headers.get('x-auth-user-id'),
      userName: res.headers.get('x-auth-user-name'),
      dataScope: res.headers.get('x-auth-data-scope'),
      contentType: res.headers.get('content-type'),
    } satisfies Answer,
    headers: res.headers,
  }
}

async function injected(method: string, url: string, headers: Record<string, string>, body?: string) {
  const res = await t.app.inject({ method: method as 'GET', url, headers, payload: body })
  const header = (name: string) => (res.headers[name] === undefined ? null : String(res.headers[name]))
  return {
    status: res.statusCode,
    body: res.body,
    userId: header('x-auth-user-id'),
    userName: header('x-auth-user-name'),
    dataScope: header('x-auth-data-scope'),
    contentType: header('content-type'),
  } satisfies Answer
}

describe('forward auth over HTTP', () => {
  const questions = (): [string, string, Record<string, string>][] => {
    const tok = { 'x-auth-token': w.direct.token }
    return [
      ['allowed, nginx headers', 'GET', { ...tok, ...nginx('POST', '/user/list') }],
      [
        'allowed, Traefik headers, query ignored',
        'GET',
        { ...tok, ...traefik('GET', '/user/detail?userId=3') },
      ],
      [
        'allowed, Bearer',
        'POST',
        { authorization: `Bearer ${w.direct.token}`, ...nginx('POST', '/user/list') },
      ],
      [
        'allowed, cookie',
        'PUT',
        { cookie: `Authorization=${w.direct.token}`, ...nginx('POST', '/user/list') },
      ],
      ['allowed, super admin', 'DELETE', { 'x-auth-token': t.adminToken, ...nginx('PATCH', '/orders/7') }],
      [
        'allowed, a name to percent-encode',
        'PATCH',
        { 'x-auth-token': chinese.token, ...nginx('POST', '/user/list') },
      ],
      ['no token', 'GET', nginx('POST', '/user/list')],
      ['unknown token', 'GET', { 'x-auth-token': 'nope', ...nginx('POST', '/user/list') }],
      ['no pattern matches', 'GET', { ...tok, ...nginx('POST', '/role/listall') }],
      ['/api/ kept', 'GET', { ...tok, ...nginx('POST', '/api/user/list') }],
      ['no call', 'GET', tok],
      ['half a call', 'GET', { ...tok, 'x-original-method': 'GET' }],
      ['relative path', 'GET', { ...tok, ...nginx('GET', 'user/list') }],
      ['bad method', 'GET', { ...tok, ...nginx('G ET', '/user/list') }],
      ['dot segments', 'GET', { ...tok, ...nginx('GET', '/user/%2E%2E/role') }],
      [
        'two pairs, two calls',
        'GET',
        { ...tok, ...traefik('DELETE', '/user/delete'), ...nginx('GET', '/user/detail') },
      ],
      [
        'two pairs, one call',
        'GET',
        { ...tok, ...traefik('GET', '/user/detail'), ...nginx('GET', '/user/detail') },
      ],
    ]
  }

  it('gives every question the answer the Fastify route gives', async () => {
    for (const [name, method, headers] of questions()) {
      const http = await overHttp(method, '/api/authz/forward?from=gateway', headers)
      const route = await injected(method, '/api/authz/forward?from=gateway', headers)
      expect(http.answer, name).toEqual(route)
    }
    // and the answers are what a gateway needs
    const ok = await overHttp('GET', '/api/authz/forward', {
      'x-auth-token': w.direct.token,
      ...nginx('POST', '/user/list'),
    })
    expect(ok.answer).toMatchObject({
      status: 200,
      userId: String(w.direct.id),
      userName: 'az_direct',
      dataScope: 'all',
    })
    expect(JSON.parse(ok.answer.body)).toMatchObject({ code: 200, data: null })
    const head = await overHttp('HEAD', '/api/authz/forward', {
      'x-auth-token': w.direct.token,
      ...nginx('POST', '/user/list'),
    })
    expect(head.answer).toMatchObject({ status: 200, body: '', userId: String(w.direct.id) })
  })

  it('is answered before Fastify: no page security headers, nosniff kept; other paths keep theirs', async () => {
    const forward = await overHttp('GET', '/api/authz/forward', nginx('GET', '/x'))
    expect(forward.answer.status).toBe(401)
    expect(forward.headers.get('x-content-type-options')).toBe('nosniff')
    expect(forward.headers.get('content-security-policy')).toBeNull()
    const config = await overHttp('GET', '/api/config', {})
    expect(config.headers.get('content-security-policy')).toBe(
      API_SECURITY_HEADERS['content-security-policy'],
    )
  })

  it('leaves other methods and near-miss paths to Fastify', async () => {
    const tok = { 'x-auth-token': w.direct.token, ...nginx('POST', '/user/list') }
    for (const [method, url] of [
      ['OPTIONS', '/api/authz/forward'],
      ['GET', '/api/authz/forward/'],
      ['GET', '/api/authz/forwarded'],
      ['GET', '/API/authz/forward'],
    ]) {
      const http = await overHttp(method, url, tok)
      expect(http.answer.status, `${method} ${url}`).toBe((await injected(method, url, tok)).status)
      expect(http.headers.get('content-security-policy'), `${method} ${url}`).not.toBeNull()
    }
  })

  it('ignores a request body, valid or not, and keeps the connection usable', async () => {
    const headers = {
      'x-auth-token': w.direct.token,
      ...nginx('POST', '/user/list'),
      'content-type': 'application/json',
    }
    for (const body of ['{"a":1}', '{not json', 'x'.repeat(100_000)]) {
      const res = await overHttp('POST', '/api/authz/forward', headers, body)
      expect(res.answer.status).toBe(200)
    }
    expect((await overHttp('GET', '/api/config', {})).answer.status).toBe(200)
  })

  it('shows a grant on the very next call and a revoked session at once', async () => {
    const user = await t.userWithCodes([], 'fwd_fast')
    const ask = async () =>
      (
        await overHttp('GET', '/api/authz/forward', {
          'x-auth-token': user.token,
          ...nginx('GET', '/role/detail'),
        })
      ).answer.status
    expect(await ask()).toBe(403)
    const link = await t.call('PUT', '/api/rel/user-rel-role', {
      token: t.adminToken,
      body: { id: user.id, roleIds: String(w.groupRole) },
    })
    expect(link.status).toBe(200)
    expect(await ask()).toBe(200)
    const sessions = await t.call('POST', '/api/session/online/list', {
      token: t.adminToken,
      body: { nickName: 'fwd_fast' },
    })
    for (const s of sessions.body.data.list as { id: number }[])
      expect(
        (await t.call('DELETE', `/api/session/online/revoke?id=${s.id}`, { token: t.adminToken })).status,
      ).toBe(200)
    expect(await ask()).toBe(401)
  })
})
