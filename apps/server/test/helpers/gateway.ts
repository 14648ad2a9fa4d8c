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

/** A service other than this server (DESIGN.md §10a), and a user holding `GET /shop/**` in it alone. */
export interface OrdersService {
  key: 'orders'
  user: { id: number; token: string }
}

export interface GatewayBackends {
  t: TestApp
  w: AuthzWorld
  /** A user holding one permission only: `GET /public/**`. */
  publicUser: { id: number; token: string }
  orders: OrdersService
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
  const orders = await seedOrdersService(t)
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const amsPort = (t.app.server.address() as net.AddressInfo).port
  const recorder = await startRecordingProxy(amsPort)
  const upstream = await startStaticUpstream()
  return {
    t,
    w,
    publicUser,
    orders,
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

/** The service `orders` with one node, `GET /shop/**`, under its root, and a user holding it. */
async function seedOrdersService(t: TestApp): Promise<OrdersService> {
  const made = await t.call('POST', '/api/service/insert', {
    token: t.adminToken,
    body: { key: 'orders', name: '订单服务' },
  })
  expect(made.status).toBe(200)
  const list = await t.call('POST', '/api/service/list', { token: t.adminToken, body: { keyword: 'orders' } })
  const root = (list.body.data.list as { key: string; rootCode: string }[]).find(
    (s) => s.key === 'orders',
  )!.rootCode
  const node = await t.call('POST', '/api/auth/insert', {
    token: t.adminToken,
    body: {
      parentCode: root,
      chName: '商城页面',
      enName: 'shop',
      type: 3,
      status: 1,
      seq: 1,
      frontEndAccessList: '',
      urlPatternInfos: [{ method: 'GET', uri: '/shop/**' }],
    },
  })
  expect(node.status).toBe(200)
  const user = await t.userWithCodes([root, node.body.data as string], 'gw_orders')
  return { key: 'orders', user }
}

/**
 * One namespace per service (DESIGN.md §10a), through two gateways of the same kind in front of the
 * same upstream: one protecting this server's namespace (`ams`), one the service `orders`.
 */
export function serviceGatewayCases(
  ctx: () => {
    amsGatewayUrl: string
    ordersGatewayUrl: string
    t: TestApp
    w: AuthzWorld
    orders: OrdersService
  },
) {
  const get = (base: string, path: string, token: string, method = 'GET') =>
    fetch(`${base}${path}`, { method, headers: { 'x-auth-token': token } })

  it("lets a service's own permission through its gateway, and nothing else of it", async () => {
    const { ordersGatewayUrl, orders } = ctx()
    const res = await get(ordersGatewayUrl, '/shop/cart', orders.user.token)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ userId: String(orders.user.id), path: '/shop/cart' })
    expect((await get(ordersGatewayUrl, '/shop/cart', orders.user.token, 'DELETE')).status).toBe(403)
  })

  it('never lets a permission of one service through the gateway of another', async () => {
    const { amsGatewayUrl, ordersGatewayUrl, w, orders } = ctx()
    // this server's node `role` (GET /role/detail, held through a group) opens ams's gateway only
    expect((await get(amsGatewayUrl, '/role/detail', w.groupUser.token)).status).toBe(200)
    expect((await get(ordersGatewayUrl, '/role/detail', w.groupUser.token)).status).toBe(403)
    // and the orders node opens orders' gateway only
    expect((await get(amsGatewayUrl, '/shop/cart', orders.user.token)).status).toBe(403)
  })

  it('lets a super admin through both', async () => {
    const { amsGatewayUrl, ordersGatewayUrl, t } = ctx()
    expect((await get(amsGatewayUrl, '/shop/cart', t.adminToken)).status).toBe(200)
    expect((await get(ordersGatewayUrl, '/user/detail', t.adminToken)).status).toBe(200)
  })
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

  it('lets an allowed user through, naming them and the data scope to the upstream (forged headers are replaced)', async () => {
    const { w } = ctx()
    const res = await get('/user/detail?userId=5', {
      authorization: `Bearer ${w.direct.token}`,
      'x-auth-user-id': '1',
      'x-auth-user-name': 'admin',
      'x-auth-data-scope': 'tree:1',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      userId: String(w.direct.id),
      userName: 'az_direct',
      // the user's role is 全部数据 (the default): the forged narrower value is replaced too
      dataScope: 'all',
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
