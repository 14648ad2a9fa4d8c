import http from 'node:http'
import net from 'node:net'
import { expect, it } from 'vitest'
import { createTestApp, type TestApp } from './app'
import { seedAuthzWorld, type AuthzWorld } from './authz-world'

/**
 * What the gateway tests (DESIGN.md §10) share: the real app and a tiny upstream on free ports,
 * the committed templates filled in, waiting for a gateway process to listen, and the cases every
 * gateway must pass.
 */

export { deployFile, fillTemplate, freePort, stopChild, waitForPort } from './processes'

export interface GatewayBackends {
  t: TestApp
  w: AuthzWorld
  /** This access-management server, listening on a free port: `http://127.0.0.1:<port>`. */
  amsUrl: string
  /** The protected service: answers `{ userId, userName, path }` from the headers it is given. */
  upstreamUrl: string
  close(): Promise<void>
}

/** The real app (with the §10 world seeded) and the tiny upstream, both on real ports. */
export async function startGatewayBackends(): Promise<GatewayBackends> {
  const t = await createTestApp()
  const w = await seedAuthzWorld(t)
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const amsPort = (t.app.server.address() as net.AddressInfo).port
  const upstream = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json')
    res.end(
      JSON.stringify({
        userId: req.headers['x-auth-user-id'] ?? null,
        userName: req.headers['x-auth-user-name'] ?? null,
        path: req.url,
      }),
    )
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const upstreamPort = (upstream.address() as net.AddressInfo).port
  return {
    t,
    w,
    amsUrl: `http://127.0.0.1:${amsPort}`,
    upstreamUrl: `http://127.0.0.1:${upstreamPort}`,
    async close() {
      await new Promise((resolve) => upstream.close(resolve))
      await t.close()
    },
  }
}

/**
 * The cases every gateway in front of the upstream must pass, against `ctx().baseUrl` (the
 * gateway), `ctx()` being read when each case runs (after the suite's beforeAll).
 */
export function gatewayCases(ctx: () => { baseUrl: string; t: TestApp; w: AuthzWorld }) {
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${ctx().baseUrl}${path}`, { method, headers })

  it('answers 401 without a token', async () => {
    expect((await get('/user/detail')).status).toBe(401)
    expect((await get('/user/detail', { 'x-auth-token': 'forged' })).status).toBe(401)
  })

  it('lets an allowed user through, naming them to the upstream (forged headers are replaced)', async () => {
    const { w } = ctx()
    const res = await get('/user/detail?userId=5', {
      authorization: `Bearer ${w.direct.token}`,
      'x-auth-user-id': '1',
      'x-auth-user-name': 'admin',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      userId: String(w.direct.id),
      userName: 'az_direct',
      path: '/user/detail?userId=5',
    })
    const post = await get('/user/list', { 'x-auth-token': w.direct.token }, 'POST')
    expect(post.status).toBe(200)
  })

  it('answers 403 on a path or method no permission of the user matches', async () => {
    const { w } = ctx()
    expect((await get('/role/detail', { 'x-auth-token': w.direct.token })).status).toBe(403)
    expect((await get('/user/detail', { 'x-auth-token': w.direct.token }, 'DELETE')).status).toBe(403)
  })

  it('checks the real call, whatever method/URI headers the client sends itself', async () => {
    const { w } = ctx()
    // The user may GET /user/detail; claiming that call in the gateways' headers must not let
    // another one through.
    const claims = {
      'x-auth-token': w.direct.token,
      'x-original-method': 'GET',
      'x-original-uri': '/user/detail',
      'x-forwarded-method': 'GET',
      'x-forwarded-uri': '/user/detail',
    }
    expect((await get('/role/detail', claims)).status).toBe(403)
    expect((await get('/user/detail', claims, 'DELETE')).status).toBe(403)
  })

  it('shows a grant on the very next call and a revoked session at once', async () => {
    const { t, w } = ctx()
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
}
