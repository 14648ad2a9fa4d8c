import net from 'node:net'
import { expect, it } from 'vitest'
import { createTestApp, type TestApp } from './app'
import { seedAuthzWorld, type AuthzWorld } from './authz-world'
import { auths } from '../../src/db/schema'
import { startRecordingProxy, startStaticUpstream, type ReceivedCall } from './gateway-upstream'

/**
 * What the gateway tests (DESIGN.md §10, §10a) share: the real app and a small upstream on free
 * ports, the committed templates filled in, waiting for a gateway process to listen, and the cases
 * every gateway must pass.
 */

export { deployFile, fillTemplate, freePort, stopChild, waitForPort } from './processes'
export { SECRET_TEXT, PUBLIC_TEXT, type ReceivedCall } from './gateway-upstream'

export interface GatewayBackends {
  t: TestApp
  w: AuthzWorld
  /** A user holding one permission only: `GET /public/**`. */
  publicUser: { id: number; token: string }
  /**
   * Where the gateway asks: this access-management server on a free port, behind a pass-through
   * that notes the URI header of every question (`asked`), so a test knows what was decided on.
   */
  amsUrl: string
  /** The URI each forward-auth question named (X-Original-URI or X-Forwarded-Uri), in order. */
  asked: string[]
  /** The protected service: a static file server (public/readme.txt, admin/secret.txt), else an echo. */
  upstreamUrl: string
  /** What the upstream received, in order. */
  received: ReceivedCall[]
  close(): Promise<void>
}

/** The real app (with the §10 world seeded) and the upstream, both on real ports. */
export async function startGatewayBackends(): Promise<GatewayBackends> {
  const t = await createTestApp()
  const w = await seedAuthzWorld(t)
  await t.db.insert(auths).values({
    code: 'gw_public',
    parentCode: 'access',
    level: 2,
    chName: '公开文件',
    enName: 'gw_public',
    type: 2,
    urlPatternInfos: [{ method: 'GET', uri: '/public/**' }],
  })
  const publicUser = await t.userWithCodes(['gw_public'], 'gw_public_user')
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const amsPort = (t.app.server.address() as net.AddressInfo).port
  const recorder = await startRecordingProxy(amsPort)
  const upstream = await startStaticUpstream()
  return {
    t,
    w,
    publicUser,
    amsUrl: recorder.url,
    asked: recorder.asked,
    upstreamUrl: upstream.url,
    received: upstream.received,
    async close() {
      await upstream.close()
      await recorder.close()
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
