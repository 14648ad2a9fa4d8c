import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { canonicalPath, isPathRefusal, matchesPattern, MSG } from '@amg/contract'
import { auths } from '../src/db/schema'
import { FORWARD_TOKEN_COOKIES, FORWARD_URI_NOT_ASCII } from '../src/modules/authz/forward'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * DESIGN.md §10a, against the API itself: forward auth, check, check-batch, explain and who-can
 * decide on the one canonical reading of a path, and refuse with 400 what a service behind a
 * gateway could read as another path. The same through real gateways: gateway-nginx/-caddy.test.ts.
 */

let t: TestApp
let publicUser: { id: number; token: string }
let base: string

beforeAll(async () => {
  t = await createTestApp()
  await t.db.insert(auths).values({
    code: 'gw_public',
    parentCode: 'access',
    level: 2,
    chName: '公开文件',
    enName: 'gw_public',
    type: 2,
    urlPatternInfos: [{ method: 'GET', uri: '/public/**' }],
  })
  // 权限分析 too, for asking check about oneself; none of its patterns is under /public
  publicUser = await t.userWithCodes(['gw_public', 'authz'], 'canon_public')
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(() => t.close())

const nginx = (uri: string, method = 'GET') => ({ 'x-original-method': method, 'x-original-uri': uri })

/** Forward auth through the Fastify route (injected) and through the HTTP fast path: one answer. */
async function forward(headers: Record<string, string>) {
  const injected = await t.call('GET', '/api/authz/forward', { headers })
  const overHttp = await fetch(`${base}/api/authz/forward`, { headers })
  expect(overHttp.status).toBe(injected.status)
  expect(await overHttp.json()).toEqual(injected.body)
  return injected
}

/** The review's finding 1 and its relatives: each refused with the message naming the problem. */
const TRICKS: [string, string][] = [
  ['/public/..%2fadmin/secret.txt', MSG.pathEncodedSlash],
  ['/public/%2e%2e%2fadmin/secret.txt', MSG.pathEncodedSlash],
  ['/public/..\\admin/secret.txt', MSG.pathEncodedSlash],
  ['/public/..%5Cadmin/secret.txt', MSG.pathEncodedSlash],
  ['/public/..;/admin/secret.txt', MSG.pathSemicolon],
  ['/public/%2e%2e/admin/secret.txt', MSG.pathDotSegment],
  ['/public/.%2E/admin/secret.txt', MSG.pathDotSegment],
  ['/public/../admin/secret.txt', MSG.pathDotSegment],
  ['/public/%c0%ae%c0%ae/admin/secret.txt', MSG.pathBadEncoding],
  ['/public/%ef%bc%8e%ef%bc%8e/admin/secret.txt', MSG.pathLookAlike],
  ['/public/%252e%252e/admin/secret.txt', MSG.pathDoubleEncoding],
  ['/public/%00/secret.txt', MSG.pathControlChar],
  ['/public//admin', MSG.pathEmptySegment],
  ['/public/a#/../../admin', MSG.pathFragment],
]

describe('forward auth decides on the canonical path', () => {
  it('lets the user through on paths under /public, however legitimately encoded', async () => {
    const tok = { 'x-auth-token': publicUser.token }
    for (const uri of [
      '/public/readme.txt',
      '/%70ublic/readme.txt',
      '/public/%E4%B8%AD%E6%96%87?x=../..',
      '/public/',
    ])
      expect((await forward({ ...tok, ...nginx(uri) })).status, uri).toBe(200)
    expect((await forward({ ...tok, ...nginx('/admin/secret.txt') })).status).toBe(403)
    expect((await forward({ ...tok, ...nginx('/public/readme.txt', 'DELETE') })).status).toBe(403)
  })

  it.each(TRICKS)('refuses %s with 400', async (uri, message) => {
    const res = await forward({ 'x-auth-token': publicUser.token, ...nginx(uri) })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: 400, msg: message, data: null })
    // the same through the Traefik/Caddy pair
    const caddy = await forward({
      'x-auth-token': publicUser.token,
      'x-forwarded-method': 'GET',
      'x-forwarded-uri': uri,
    })
    expect(caddy.body.msg).toBe(message)
  })

  it('refuses raw non-ASCII in the URI header: the service may read those bytes otherwise', async () => {
    // Node reads header bytes as Latin-1: raw UTF-8 '中' arrives as three Latin-1 characters
    const raw = Buffer.from('/public/中', 'utf8').toString('latin1')
    const res = await t.call('GET', '/api/authz/forward', {
      headers: { 'x-auth-token': publicUser.token, ...nginx(raw) },
    })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(FORWARD_URI_NOT_ASCII)
  })

  it('answers 400 exactly when the path is refused, and lets through only paths under /public (property)', async () => {
    const pieces = [
      '%2f',
      '%5c',
      '\\',
      ';',
      '.',
      '..',
      '%2e',
      '%252e',
      '%c0%ae',
      '%00',
      '//',
      '/',
      '#',
      '?',
      'a',
      '%41',
    ]
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), async (parts) => {
        const uri = `/public/${parts.join('')}`
        const res = await t.call('GET', '/api/authz/forward', {
          headers: { 'x-auth-token': publicUser.token, ...nginx(uri) },
        })
        const decided = canonicalPath(uri)
        if (isPathRefusal(decided)) {
          expect(res.status, uri).toBe(400)
          expect(res.body.msg).toBe(decided.refused)
        } else {
          expect(res.status, uri).toBe(200)
          expect(matchesPattern('/public/**', decided)).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('the token cookies a gateway cannot strip are refused', () => {
  const withCookie = (cookie: string, extra: Record<string, string> = {}) =>
    forward({ cookie, ...extra, ...nginx('/public/readme.txt') })

  it('reads one Authorization cookie, however spaced, and ignores look-alike names', async () => {
    const tok = publicUser.token
    expect((await withCookie(`theme=dark; Authorization=${tok}`)).status).toBe(200)
    expect((await withCookie(`theme=dark;\t Authorization =${tok}; lang=zh`)).status).toBe(200)
    // not this server's cookie: no token from it, and nothing to refuse
    expect((await withCookie(`xAuthorization=${tok}`)).status).toBe(401)
    expect((await withCookie(`xAuthorization=${tok}`, { 'x-auth-token': tok })).status).toBe(200)
  })

  it.each([
    ['two Authorization cookies', (tok: string) => `Authorization=${tok}; Authorization=${tok}`],
    ['two, in another case', (tok: string) => `AUTHORIZATION=x; a=1; Authorization=${tok}`],
    ['two, after a comma', (tok: string) => `Authorization=${tok}, authorization=${tok}`],
    ['a name padded with a no-break space', (tok: string) => `a=1;\u00a0Authorization=${tok}`],
    ['a leading no-break space', (tok: string) => `\u00a0Authorization=${tok}`],
  ])('refuses %s with 400, even with a valid token header', async (_, cookie) => {
    const tok = publicUser.token
    for (const extra of [{}, { 'x-auth-token': tok }] as Record<string, string>[]) {
      const res = await withCookie(cookie(tok), extra)
      expect(res.status).toBe(400)
      expect(res.body.msg).toBe(FORWARD_TOKEN_COOKIES)
    }
  })
})

describe('check, check-batch, explain and who-can read the path the same way', () => {
  const admin = (url: string, body: unknown) => t.call('POST', url, { token: t.adminToken, body })

  it('decides on the decoded path', async () => {
    const check = (path: string) =>
      t.call('POST', '/api/authz/check', { token: publicUser.token, body: { method: 'GET', path } })
    expect((await check('/%70ublic/readme.txt')).body.data.allowed).toBe(true)
    expect((await check('/public/readme.txt?x=/../admin')).body.data.allowed).toBe(true)
    expect((await check('/admin/secret.txt')).body.data.allowed).toBe(false)
    const explain = await admin('/api/authz/explain', {
      userId: publicUser.id,
      method: 'GET',
      path: '/public/%E4%B8%AD',
    })
    expect(explain.body.data.allowed).toBe(true)
    expect(explain.body.data.grants[0].pattern).toEqual({ method: 'GET', uri: '/public/**' })
    const whoCan = await admin('/api/authz/who-can', {
      method: 'GET',
      path: '/%70ublic/x',
      pageNum: 1,
      pageSize: 50,
    })
    expect(whoCan.body.data.list.map((r: { nickName: string }) => r.nickName)).toContain('canon_public')
  })

  it.each(TRICKS)('refuses %s with 400 and the message', async (path, message) => {
    const check = await t.call('POST', '/api/authz/check', {
      token: publicUser.token,
      body: { method: 'GET', path },
    })
    expect(check.status).toBe(400)
    expect(check.body.msg).toBe(message)
    const batch = await t.call('POST', '/api/authz/check-batch', {
      token: publicUser.token,
      body: {
        checks: [
          { method: 'GET', path: '/public/readme.txt' },
          { method: 'GET', path },
        ],
      },
    })
    expect(batch.status).toBe(400)
    expect(batch.body.msg).toBe(`第 2 项：${message}`)
    const explain = await admin('/api/authz/explain', { userId: publicUser.id, method: 'GET', path })
    expect(explain.status).toBe(400)
    expect(explain.body.msg).toBe(message)
    const whoCan = await admin('/api/authz/who-can', { method: 'GET', path, pageNum: 1, pageSize: 10 })
    expect(whoCan.status).toBe(400)
    expect(whoCan.body.msg).toBe(message)
  })
})
