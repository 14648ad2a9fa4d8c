import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { seedAuthzWorld, type AuthzWorld } from './helpers/authz-world'
import { hasNginx, startNginx, type RunningNginx } from './helpers/nginx'

/**
 * DESIGN.md §10: Debian's nginx with deploy/nginx/auth-request.conf, in front of a tiny upstream
 * that echoes who nginx says the user is, asking the real app on a real port.
 */
describe.skipIf(!hasNginx)('nginx auth_request in front of a service', () => {
  let t: TestApp
  let w: AuthzWorld
  let upstream: http.Server
  let nginx: RunningNginx

  beforeAll(async () => {
    t = await createTestApp()
    w = await seedAuthzWorld(t)
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const amsPort = (t.app.server.address() as AddressInfo).port
    upstream = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ userId: req.headers['x-auth-user-id'] ?? null, path: req.url }))
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const upstreamPort = (upstream.address() as AddressInfo).port
    nginx = await startNginx(`http://127.0.0.1:${amsPort}`, `http://127.0.0.1:${upstreamPort}`)
  }, 60_000)

  afterAll(async () => {
    await nginx?.stop()
    await new Promise((resolve) => upstream?.close(resolve))
    await t?.close()
  })

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`http://127.0.0.1:${nginx.port}${path}`, { method, headers })

  it('answers 401 without a token', async () => {
    expect((await get('/user/detail')).status).toBe(401)
    expect((await get('/user/detail', { 'x-auth-token': 'forged' })).status).toBe(401)
  })

  it('lets an allowed user through, naming them to the upstream (a forged header is replaced)', async () => {
    const res = await get('/user/detail?userId=5', {
      authorization: `Bearer ${w.direct.token}`,
      'x-auth-user-id': '1',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ userId: String(w.direct.id), path: '/user/detail?userId=5' })
    const post = await get('/user/list', { 'x-auth-token': w.direct.token }, 'POST')
    expect(post.status).toBe(200)
  })

  it('answers 403 on a path no permission of the user matches', async () => {
    expect((await get('/role/detail', { 'x-auth-token': w.direct.token })).status).toBe(403)
    expect((await get('/user/detail', { 'x-auth-token': w.direct.token }, 'DELETE')).status).toBe(403)
  })

  it('shows a grant on the very next call and a revoked session at once', async () => {
    const tok = { cookie: `Authorization=${w.direct.token}` }
    expect((await get('/role/detail', tok)).status).toBe(403)
    const link = await t.call('PUT', '/api/rel/user-rel-role', {
      token: t.adminToken,
      body: { id: w.direct.id, roleIds: String(w.groupRole) },
    })
    expect(link.status).toBe(200)
    expect((await get('/role/detail', tok)).status).toBe(200)

    const sessions = await t.call('POST', '/api/session/online/list', {
      token: t.adminToken,
      body: { nickName: 'az_direct' },
    })
    for (const s of sessions.body.data.list as { id: number }[]) {
      const revoked = await t.call('DELETE', `/api/session/online/revoke?id=${s.id}`, { token: t.adminToken })
      expect(revoked.status).toBe(200)
    }
    expect((await get('/role/detail', tok)).status).toBe(401)
  })
})
