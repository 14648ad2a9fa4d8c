import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq, inArray, sql } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, MSG } from '@amg/contract'
import { operationLogs, type AuditChange } from '../src/db/audit-schema'
import { auths, roleAuths, services } from '../src/db/schema'
import { queryRows } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'
import { accessSnapshot } from './helpers/snapshot'

/**
 * DESIGN.md §10a "One namespace per service": services own the subtree of their root node, and a
 * node authorizes calls only in its own service — this server's own API is the built-in `ams`.
 */
let t: TestApp
let baseUrl: string

beforeAll(async () => {
  t = await createTestApp()
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`
})
afterAll(async () => t.close())

const admin = (method: string, url: string, body?: unknown, query?: Record<string, string | number>) =>
  t.call(method, url, { token: t.adminToken, body, query })

async function lastLogRow() {
  const [row] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
  const detail = await admin('GET', '/api/log/operation/detail', undefined, { id: row.id })
  return { ...row, changes: detail.body.data.changes as AuditChange[] }
}

const serviceRow = async (key: string) => {
  const [row] = await t.db.select().from(services).where(eq(services.key, key))
  return row
}

/** A service made through the API, and a button node under its root holding `api` (`METHOD /uri`). */
async function serviceWithNode(key: string, name: string, code: string, api: string[]) {
  const made = await admin('POST', '/api/service/insert', { key, name })
  expect(made.status).toBe(200)
  const root = (await serviceRow(key)).rootCode!
  const node = await admin('POST', '/api/auth/insert', {
    parentCode: root,
    chName: code,
    enName: code,
    type: 3,
    status: 1,
    seq: 1,
    frontEndAccessList: '',
    urlPatternInfos: api.map((a) => ({ method: a.split(' ')[0], uri: a.split(' ')[1] })),
  })
  expect(node.status).toBe(200)
  return { serviceId: made.body.data as number, root, nodeCode: node.body.data as string }
}

/** Forward auth as a gateway asks it, over real HTTP (the server's fast path answers it). */
const forwardHttp = (service: string | null, token: string | null, method: string, uri: string) =>
  fetch(`${baseUrl}/api/authz/forward${service === null ? '' : `/${service}`}`, {
    headers: {
      ...(token ? { 'x-auth-token': token } : {}),
      'x-original-method': method,
      'x-original-uri': uri,
    },
  })

/** The same question through Fastify's route (injected requests never reach the fast path). */
const forwardInject = (service: string | null, token: string, method: string, uri: string) =>
  t.call('GET', `/api/authz/forward${service === null ? '' : `/${service}`}`, {
    headers: { 'x-auth-token': token, 'x-original-method': method, 'x-original-uri': uri },
  })

describe('POST /api/service/list', () => {
  it('lists the built-in ams first, owning no root of its own', async () => {
    const res = await admin('POST', '/api/service/list', { pageNum: 1, pageSize: 10 })
    expect(res.status).toBe(200)
    expect(res.body.data.list[0]).toMatchObject({ key: 'ams', rootCode: null, builtIn: true })
    expect(res.body.data.total).toBeGreaterThanOrEqual(1)
  })

  it('finds services by a part of the key or the name, wildcards taken literally', async () => {
    await admin('POST', '/api/service/insert', { key: 'kw-billing', name: '计费服务' })
    const byKey = await admin('POST', '/api/service/list', { keyword: 'billing' })
    expect(byKey.body.data.list.map((s: any) => s.key)).toEqual(['kw-billing'])
    const byName = await admin('POST', '/api/service/list', { keyword: '计费' })
    expect(byName.body.data.list.map((s: any) => s.key)).toEqual(['kw-billing'])
    const literal = await admin('POST', '/api/service/list', { keyword: '%' })
    expect(literal.body.data).toEqual({ list: [], total: 0 })
  })

  it('needs the 应用管理 permission', async () => {
    const plain = await t.userWithCodes([])
    expect((await t.call('POST', '/api/service/list', { token: plain.token, body: {} })).status).toBe(403)
    const viewer = await t.userWithCodes(['service'])
    expect((await t.call('POST', '/api/service/list', { token: viewer.token, body: {} })).status).toBe(200)
    const insert = await t.call('POST', '/api/service/insert', {
      token: viewer.token,
      body: { key: 'viewer-made', name: '不该建成' },
    })
    expect(insert.status).toBe(403)
    expect(await serviceRow('viewer-made')).toBeUndefined()
  })
})

describe('POST /api/service/insert', () => {
  it('creates a service with a new top-level node named after it, and logs it', async () => {
    const res = await admin('POST', '/api/service/insert', { key: 'crm', name: '客户服务' })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.created)
    const row = await serviceRow('crm')
    expect(row).toMatchObject({ id: res.body.data, name: '客户服务', builtIn: 0 })
    // the root's code is read from the key, not a generated number
    expect(row.rootCode).toBe('CRM')
    const [root] = await t.db.select().from(auths).where(eq(auths.code, row.rootCode!))
    expect(root).toMatchObject({ parentCode: null, level: 1, chName: '客户服务', enName: 'crm', type: 1 })
    const log = await lastLogRow()
    expect(log).toMatchObject({
      summary: '新建服务',
      resourceType: '应用管理',
      resourceId: String(row.id),
      result: 'success',
    })
    expect(log.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'key',
          after: 'crm',
          target: expect.objectContaining({ type: 'service' }),
        }),
        expect.objectContaining({ field: 'chName', after: '客户服务' }),
      ]),
    )
  })

  it.each([
    [{ name: '无标识' }, MSG.serviceKeyRequired],
    [{ key: '  ', name: '空白标识' }, MSG.serviceKeyRequired],
    [{ key: 'Orders', name: '大写' }, MSG.serviceKeyInvalid],
    [{ key: 'or ders', name: '空格' }, MSG.serviceKeyInvalid],
    [{ key: '订单', name: '中文' }, MSG.serviceKeyInvalid],
    [{ key: 'a_b', name: '下划线' }, MSG.serviceKeyInvalid],
    [{ key: 'a/b', name: '斜杠' }, MSG.serviceKeyInvalid],
    [{ key: 'ｏrders', name: '全角' }, MSG.serviceKeyInvalid],
    [{ key: 'x'.repeat(33), name: '过长' }, MSG.serviceKeyInvalid],
    [{ key: 'no-name' }, MSG.serviceNameRequired],
    [{ key: 'blank-name', name: '   ' }, MSG.serviceNameRequired],
  ])('refuses %j with 400 and changes nothing', async (body, msg) => {
    const before = await accessSnapshot(t.db)
    const count = (await t.db.select().from(services)).length
    const res = await admin('POST', '/api/service/insert', body)
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(msg)
    expect((await t.db.select().from(services)).length).toBe(count)
    expect(await accessSnapshot(t.db)).toEqual(before)
  })

  it("a root's code stays unique: one taken by a node already gets the first free suffix", async () => {
    await t.db.insert(auths).values([
      { code: 'BILLING', level: 1, chName: '手工节点', enName: 'manual', type: 1, status: 1, seq: 90 },
      { code: 'BILLING-2', level: 1, chName: '手工节点二', enName: 'manual2', type: 1, status: 1, seq: 91 },
    ])
    const res = await admin('POST', '/api/service/insert', { key: 'billing', name: '计费服务' })
    expect(res.status, res.body.msg).toBe(200)
    expect((await serviceRow('billing')).rootCode).toBe('BILLING-3')
    const other = await admin('POST', '/api/service/insert', { key: 'billing-2', name: '计费服务二' })
    expect(other.status, other.body.msg).toBe(200)
    expect((await serviceRow('billing-2')).rootCode).toBe('BILLING-2-2')
    await t.db.delete(auths).where(inArray(auths.code, ['BILLING', 'BILLING-2']))
  })

  it('takes lower-case letters, digits and - in a key', async () => {
    const res = await admin('POST', '/api/service/insert', { key: 'a-1-b2', name: '规则之内' })
    expect(res.status).toBe(200)
  })

  it('answers 409 for a key that is taken (ams included)', async () => {
    await admin('POST', '/api/service/insert', { key: 'dup', name: '第一个' })
    for (const key of ['dup', 'ams']) {
      const res = await admin('POST', '/api/service/insert', { key, name: '第二个' })
      expect(res.status).toBe(409)
      expect(res.body.msg).toBe(MSG.serviceKeyTaken)
    }
  })

  it('takes over an existing top-level node only: it must exist, be at the top, and be no service root', async () => {
    const missing = await admin('POST', '/api/service/insert', { key: 'r1', name: 'x', rootCode: 'NOPE' })
    expect([missing.status, missing.body.msg]).toEqual([400, MSG.serviceRootNotFound])
    const deep = await admin('POST', '/api/service/insert', { key: 'r2', name: 'x', rootCode: 'user' })
    expect([deep.status, deep.body.msg]).toEqual([400, MSG.serviceRootNotTop])
    await admin('POST', '/api/service/insert', { key: 'r3', name: '占用' })
    const taken = await admin('POST', '/api/service/insert', {
      key: 'r4',
      name: 'x',
      rootCode: (await serviceRow('r3')).rootCode,
    })
    expect([taken.status, taken.body.msg]).toEqual([409, MSG.serviceRootTaken])
    for (const key of ['r1', 'r2', 'r4']) expect(await serviceRow(key)).toBeUndefined()
  })
})

describe('PUT /api/service/update and DELETE /api/service/delete', () => {
  it('renames a service (ams too) and logs the change', async () => {
    await admin('POST', '/api/service/insert', { key: 'rename-me', name: '旧名' })
    const row = await serviceRow('rename-me')
    const res = await admin('PUT', '/api/service/update', { id: row.id, name: '新名' })
    expect([res.status, res.body.msg]).toEqual([200, MSG.updated])
    expect((await serviceRow('rename-me')).name).toBe('新名')
    const log = await lastLogRow()
    expect(log.summary).toBe('修改服务')
    expect(log.changes).toContainEqual(
      expect.objectContaining({ field: 'name', before: '旧名', after: '新名' }),
    )
    const ams = await serviceRow('ams')
    expect((await admin('PUT', '/api/service/update', { id: ams.id, name: '本系统' })).status).toBe(200)
    expect((await serviceRow('ams')).name).toBe('本系统')
  })

  it('refuses a blank name (400) and an unknown id (404)', async () => {
    const row = await serviceRow('rename-me')
    const blank = await admin('PUT', '/api/service/update', { id: row.id, name: ' ' })
    expect([blank.status, blank.body.msg]).toEqual([400, MSG.serviceNameRequired])
    const unknown = await admin('PUT', '/api/service/update', { id: 987654, name: '无' })
    expect([unknown.status, unknown.body.msg]).toEqual([404, MSG.serviceNotFound])
  })

  it('never deletes ams; a service whose subtree holds nodes is 409 until they are gone', async () => {
    const ams = await serviceRow('ams')
    const builtIn = await admin('DELETE', '/api/service/delete', undefined, { id: ams.id })
    expect([builtIn.status, builtIn.body.msg]).toEqual([409, MSG.serviceBuiltIn])
    expect(await serviceRow('ams')).toBeDefined()

    const { serviceId, root, nodeCode } = await serviceWithNode('del-me', '待删除', 'del-node', ['GET /x'])
    const busy = await admin('DELETE', '/api/service/delete', undefined, { id: serviceId })
    expect([busy.status, busy.body.msg]).toEqual([409, MSG.serviceHasNodes])
    expect(await serviceRow('del-me')).toBeDefined()

    expect((await admin('DELETE', '/api/auth/delete', undefined, { authCode: nodeCode })).status).toBe(200)
    const gone = await admin('DELETE', '/api/service/delete', undefined, { id: serviceId })
    expect([gone.status, gone.body.msg]).toEqual([200, MSG.deleted])
    expect(await serviceRow('del-me')).toBeUndefined()
    expect(await t.db.select().from(auths).where(eq(auths.code, root))).toEqual([])
    const log = await lastLogRow()
    expect(log.summary).toBe('删除服务')
    expect(log.changes).toContainEqual(
      expect.objectContaining({ field: 'key', before: 'del-me', after: null }),
    )
    const unknown = await admin('DELETE', '/api/service/delete', undefined, { id: serviceId })
    expect(unknown.status).toBe(404)
  })

  it("a service's root cannot be deleted or moved through the permission tree", async () => {
    const { root } = await serviceWithNode('rooted', '根固定', 'rooted-node', ['GET /y'])
    await admin('DELETE', '/api/auth/delete', undefined, {
      authCode: (await t.db.select().from(auths).where(eq(auths.parentCode, root)))[0].code,
    })
    const del = await admin('DELETE', '/api/auth/delete', undefined, { authCode: root })
    expect([del.status, del.body.msg]).toEqual([409, MSG.serviceRootDelete])
    const detail = (await admin('GET', '/api/auth/detail', undefined, { authCode: root })).body.data
    const move = await admin('PUT', '/api/auth/update', { ...detail, parentCode: 'access' })
    expect([move.status, move.body.msg]).toEqual([400, MSG.serviceRootFixed])
    expect((await t.db.select().from(auths).where(eq(auths.code, root)))[0].parentCode).toBeNull()
  })
})

describe('one namespace per service', () => {
  let orders: Awaited<ReturnType<typeof serviceWithNode>>
  let ordersUser: { id: number; token: string }
  let exporter: { id: number; token: string }

  beforeAll(async () => {
    // a node made for another service, naming paths that this server also has
    orders = await serviceWithNode('orders', '订单服务', 'orders-log', ['GET /log/**'])
    ordersUser = await t.userWithCodes([orders.root, orders.nodeCode], 'ns_orders')
    // this server's own node for the same path
    exporter = await t.userWithCodes(['operlog', 'operlog:export'], 'ns_exporter')
  })

  it("a node of service orders never opens this server's own API", async () => {
    const res = await t.call('GET', '/api/log/operation/export', { token: ordersUser.token })
    expect(res.status).toBe(403)
    // while through orders' own gateway it is allowed
    expect((await forwardHttp('orders', ordersUser.token, 'GET', '/log/operation/export')).status).toBe(200)
    expect((await forwardInject('orders', ordersUser.token, 'GET', '/log/operation/export')).status).toBe(200)
  })

  it("an ams node never authorizes a call on orders; the bare forward URL is ams's", async () => {
    expect((await t.call('GET', '/api/log/operation/export', { token: exporter.token })).status).toBe(200)
    for (const forward of [forwardHttp, forwardInject]) {
      expect((await forward('orders', exporter.token, 'GET', '/log/operation/export')).status).toBe(403)
      expect((await forward(null, exporter.token, 'GET', '/log/operation/export')).status).toBe(200)
      expect((await forward('ams', exporter.token, 'GET', '/log/operation/export')).status).toBe(200)
      // the orders node says nothing about ams, through either URL
      expect((await forward(null, ordersUser.token, 'GET', '/log/operation/export')).status).toBe(403)
      expect((await forward('ams', ordersUser.token, 'GET', '/log/operation/export')).status).toBe(403)
    }
  })

  it('answers 404 for a service that does not exist (after the session: 401 first)', async () => {
    for (const key of ['nope', 'ORDERS', 'orders%20', '%6frders']) {
      const res = await forwardHttp(key, t.adminToken, 'GET', '/anything')
      expect(res.status, key).toBe(404)
      expect(((await res.json()) as { msg: string }).msg).toBe(`服务不存在：${key}`)
    }
    const injected = await forwardInject('nope', t.adminToken, 'GET', '/anything')
    expect([injected.status, injected.body.msg]).toEqual([404, '服务不存在：nope'])
    expect((await forwardHttp('nope', null, 'GET', '/anything')).status).toBe(401)
    expect((await forwardHttp('nope', 'forged', 'GET', '/anything')).status).toBe(401)
    // a path below a key names no service: not a forward-auth call at all
    expect((await forwardHttp('orders/x', ordersUser.token, 'GET', '/log/x')).status).toBe(404)
  })

  it('a super admin passes on every service', async () => {
    expect((await forwardHttp('orders', t.adminToken, 'DELETE', '/whatever')).status).toBe(200)
    expect((await forwardHttp('crm', t.adminToken, 'GET', '/')).status).toBe(200)
  })

  it('the console menu of this server shows only ams front-end paths', async () => {
    await admin('PUT', '/api/auth/update', {
      ...(await admin('GET', '/api/auth/detail', undefined, { authCode: orders.nodeCode })).body.data,
      frontEndAccessList: '/orders/list',
    })
    const current = await t.call('GET', '/api/user/current', { token: ordersUser.token })
    expect(current.body.data.auths).not.toContain('/orders/list')
    expect(current.body.data.authCodes).toContain(orders.nodeCode)
  })

  it('a change to services shows on the very next forward call (the cache follows the data)', async () => {
    const { root, nodeCode } = await serviceWithNode('late', '后来的服务', 'late-node', ['GET /late/**'])
    const user = await t.userWithCodes([root, nodeCode], 'ns_late')
    expect((await forwardHttp('late', user.token, 'GET', '/late/1')).status).toBe(200)
    // moving the node out of late's subtree into ams (by a super admin) moves its power with it
    const detail = (await admin('GET', '/api/auth/detail', undefined, { authCode: nodeCode })).body.data
    expect((await admin('PUT', '/api/auth/update', { ...detail, parentCode: 'monitor' })).status).toBe(200)
    expect((await forwardHttp('late', user.token, 'GET', '/late/1')).status).toBe(403)
    expect((await forwardHttp(null, user.token, 'GET', '/late/1')).status).toBe(200)
    // and once the node is gone and the service deleted, its key is unknown
    await admin('DELETE', '/api/auth/delete', undefined, { authCode: nodeCode })
    await admin('DELETE', '/api/service/delete', undefined, { id: (await serviceRow('late')).id })
    expect((await forwardHttp('late', user.token, 'GET', '/late/1')).status).toBe(404)
  })

  describe('the analysis calls take service (default ams)', () => {
    it('check and check-batch', async () => {
      const self = (body: object) => t.call('POST', '/api/authz/check', { token: ordersUser.token, body })
      expect((await self({ method: 'GET', path: '/log/x', service: 'orders' })).body.data.allowed).toBe(true)
      expect((await self({ method: 'GET', path: '/log/x' })).body.data.allowed).toBe(false)
      expect((await self({ method: 'GET', path: '/log/x', service: 'ams' })).body.data.allowed).toBe(false)
      const unknown = await self({ method: 'GET', path: '/log/x', service: 'nope' })
      expect([unknown.status, unknown.body.msg]).toEqual([400, '服务不存在：nope'])
      const batch = await t.call('POST', '/api/authz/check-batch', {
        token: t.adminToken,
        body: {
          userId: exporter.id,
          service: 'orders',
          checks: [
            { method: 'GET', path: '/log/operation/export' },
            { method: 'GET', path: '/x' },
          ],
        },
      })
      expect(batch.body.data.results).toEqual([false, false])
      const amsBatch = await t.call('POST', '/api/authz/check-batch', {
        token: t.adminToken,
        body: { userId: exporter.id, checks: [{ method: 'GET', path: '/log/operation/export' }] },
      })
      expect(amsBatch.body.data.results).toEqual([true])
      const badBatch = await t.call('POST', '/api/authz/check-batch', {
        token: t.adminToken,
        body: { service: 'nope', checks: [] },
      })
      expect(badBatch.status).toBe(400)
    })

    it('explain shows only the chains of that service', async () => {
      const call = { userId: ordersUser.id, method: 'GET', path: '/log/operation/export' }
      const inOrders = await admin('POST', '/api/authz/explain', { ...call, service: 'orders' })
      expect(inOrders.body.data.allowed).toBe(true)
      expect(inOrders.body.data.grants.map((g: any) => g.node.code)).toEqual([orders.nodeCode])
      const inAms = await admin('POST', '/api/authz/explain', call)
      expect(inAms.body.data).toMatchObject({ allowed: false, grants: [] })
      const exporterInOrders = await admin('POST', '/api/authz/explain', {
        ...call,
        userId: exporter.id,
        service: 'orders',
      })
      expect(exporterInOrders.body.data).toMatchObject({ allowed: false, grants: [] })
      const unknown = await admin('POST', '/api/authz/explain', { ...call, service: 'nope' })
      expect(unknown.status).toBe(400)
    })

    it('effective lists the nodes of that service only', async () => {
      const inOrders = await admin('GET', '/api/authz/effective', undefined, {
        userId: ordersUser.id,
        service: 'orders',
      })
      expect(inOrders.body.data.nodes.map((n: any) => n.code).sort()).toEqual(
        [orders.nodeCode, orders.root].sort(),
      )
      const inAms = await admin('GET', '/api/authz/effective', undefined, { userId: ordersUser.id })
      expect(inAms.body.data.nodes).toEqual([])
      const exporterAms = await admin('GET', '/api/authz/effective', undefined, { userId: exporter.id })
      expect(exporterAms.body.data.nodes.map((n: any) => n.code)).toEqual(['operlog', 'operlog:export'])
      const unknown = await admin('GET', '/api/authz/effective', undefined, {
        userId: exporter.id,
        service: 'x',
      })
      expect(unknown.status).toBe(400)
    })

    it('who-can answers per service', async () => {
      const call = { method: 'GET', path: '/log/operation/export', pageNum: 1, pageSize: 100 }
      const names = async (body: object) =>
        ((await admin('POST', '/api/authz/who-can', body)).body.data.list as any[]).map((r) => r.nickName)
      const inOrders = await names({ ...call, service: 'orders' })
      expect(inOrders).toContain('ns_orders')
      expect(inOrders).not.toContain('ns_exporter')
      expect(inOrders).toContain('admin')
      const inAms = await names(call)
      expect(inAms).toContain('ns_exporter')
      expect(inAms).not.toContain('ns_orders')
      expect((await admin('POST', '/api/authz/who-can', { ...call, service: 'nope' })).status).toBe(400)
    })
  })
})

describe('the power check across services (DESIGN.md §6a)', () => {
  it('power held in one service never covers a node of another', async () => {
    // an administrator of service shop: may add nodes there, holding ALL /** in shop only
    const { root, nodeCode } = await serviceWithNode('shop', '商城', 'shop-admin', ['ALL /**'])
    const shopAdmin = await t.userWithCodes(['auth', 'auth:add', 'auth:edit', root, nodeCode], 'shop_admin')
    const insert = (parentCode: string | null, uri: string) =>
      t.call('POST', '/api/auth/insert', {
        token: shopAdmin.token,
        body: {
          parentCode,
          chName: `n${uri}`,
          enName: 'n',
          type: 3,
          status: 1,
          seq: 1,
          frontEndAccessList: '',
          urlPatternInfos: [{ method: 'GET', uri }],
        },
      })
    const inShop = await insert(root, '/goods/**')
    expect(inShop.status).toBe(200)
    const before = await accessSnapshot(t.db)
    for (const parent of ['monitor', null]) {
      const inAms = await insert(parent, '/log/operation/export')
      expect(inAms.status).toBe(403)
      expect(inAms.body.msg).toBe(`${BEYOND_POWER_PREFIX}n/log/operation/export`)
    }
    // nor may it move a shop node into ams, where its power would open this server's API
    const detail = (await admin('GET', '/api/auth/detail', undefined, { authCode: inShop.body.data })).body
      .data
    const move = await t.call('PUT', '/api/auth/update', {
      token: shopAdmin.token,
      body: { ...detail, parentCode: 'monitor' },
    })
    expect(move.status).toBe(403)
    expect(await accessSnapshot(t.db)).toEqual(before)
  })

  it('an ams administrator cannot move an ams subtree into a service (it gives power there)', async () => {
    await admin('POST', '/api/service/insert', { key: 'target', name: '目标' })
    const target = (await serviceRow('target')).rootCode!
    const amsAdmin = await t.userWithCodes(
      ['auth', 'auth:edit', 'operlog', 'operlog:export', 'monitor'],
      'ams_mover',
    )
    const detail = (await admin('GET', '/api/auth/detail', undefined, { authCode: 'operlog:export' })).body
      .data
    const before = await accessSnapshot(t.db)
    const move = await t.call('PUT', '/api/auth/update', {
      token: amsAdmin.token,
      body: { ...detail, parentCode: target },
    })
    expect(move.status).toBe(403)
    expect(await accessSnapshot(t.db)).toEqual(before)
  })

  describe('creating a service over an existing subtree moves its power out of ams', () => {
    const fileCodes = ['file', 'file:upload', 'file:download', 'file:download-all']

    it('is refused to a caller who does not cover every node of that subtree, and changes nothing', async () => {
      const partial = await t.userWithCodes(['service', 'service:add', 'file', 'file:upload'], 'svc_partial')
      const before = await accessSnapshot(t.db)
      const res = await t.call('POST', '/api/service/insert', {
        token: partial.token,
        body: { key: 'files', name: '文件服务', rootCode: 'file' },
      })
      expect(res.status).toBe(403)
      expect(res.body.msg.startsWith(BEYOND_POWER_PREFIX)).toBe(true)
      expect(res.body.msg).toContain('下载文件')
      expect(await serviceRow('files')).toBeUndefined()
      expect(await accessSnapshot(t.db)).toEqual(before)
    })

    it('is refused even to a caller covering it in ams: the new namespace is power it does not hold', async () => {
      const amsOnly = await t.userWithCodes(['service', 'service:add', ...fileCodes], 'svc_ams_only')
      const res = await t.call('POST', '/api/service/insert', {
        token: amsOnly.token,
        body: { key: 'files', name: '文件服务', rootCode: 'file' },
      })
      expect(res.status).toBe(403)
      expect(await serviceRow('files')).toBeUndefined()
    })

    it('is allowed to a caller whose power covers it (a subtree without power; a super admin for any)', async () => {
      // a top-level menu with nothing below: no power moves
      const menu = await admin('POST', '/api/auth/insert', {
        parentCode: null,
        chName: '空菜单',
        enName: 'emptyMenu',
        type: 1,
        status: 1,
        seq: 9,
        frontEndAccessList: '',
        urlPatternInfos: [],
      })
      const limited = await t.userWithCodes(['service', 'service:add'], 'svc_limited')
      const empty = await t.call('POST', '/api/service/insert', {
        token: limited.token,
        body: { key: 'menu-svc', name: '菜单服务', rootCode: menu.body.data },
      })
      expect(empty.status).toBe(200)

      const holder = await t.userWithCodes(fileCodes, 'svc_file_holder')
      expect(
        (await t.call('GET', '/api/file-manage/download', { token: holder.token, query: { fileId: 'x' } }))
          .status,
      ).not.toBe(403)
      const res = await admin('POST', '/api/service/insert', {
        key: 'files',
        name: '文件服务',
        rootCode: 'file',
      })
      expect(res.status).toBe(200)
      expect((await serviceRow('files')).rootCode).toBe('file')
      // the file nodes now decide calls on service files, and no longer this server's own
      const own = await t.call('GET', '/api/file-manage/download', {
        token: holder.token,
        query: { fileId: 'x' },
      })
      expect(own.status).toBe(403)
      expect((await forwardHttp('files', holder.token, 'GET', '/file-manage/download')).status).toBe(200)
      // the role grants stay as they were
      const grants = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from role_auths where auth_code = 'file:download'`,
      )
      expect(grants[0].n).toBeGreaterThan(0)
      expect(
        (await t.db.select().from(roleAuths).where(eq(roleAuths.authCode, 'file'))).length,
      ).toBeGreaterThan(0)
    })
  })
})
