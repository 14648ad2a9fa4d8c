import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, inArray } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, MSG } from '@amg/contract'
import { auths, roleAuths } from '../src/db/schema'
import {
  AUTH_NOT_FOUND,
  DELETE_HAS_CHILDREN,
  MOVE_UNDER_ITSELF,
  PARENT_NOT_FOUND,
  UNIQUE_KEY_EXISTS,
} from '../src/modules/permission/messages'
import { createTestApp, type TestApp } from './helpers/app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const admin = (
  method: string,
  url: string,
  opts: { body?: unknown; query?: Record<string, string | number> } = {},
) => t.call(method, url, { token: t.adminToken, ...opts })

const form = (over: Record<string, unknown> = {}) => ({
  chName: '测试权限',
  enName: 'testAuth',
  description: '说明',
  frontEndAccessList: ' /test/a , /test/b/** ,,',
  level: 99,
  parentCode: 'auth',
  seq: 3,
  status: 1,
  type: 3,
  uniqueKey: null,
  urlPatternInfos: [{ method: 'get', uri: ' /test/list ' }],
  ...over,
})

async function row(code: string) {
  const [r] = await t.db.select().from(auths).where(eq(auths.code, code))
  return r
}

describe('POST /auth/tree', () => {
  it('answers the whole seeded tree with children, isLeaf and the front-end patterns in both shapes', async () => {
    const res = await admin('POST', '/api/auth/tree', { body: {} })
    expect(res.status).toBe(200)
    const tree = res.body.data
    expect(tree.map((n: any) => n.code)).toEqual([
      'access',
      'organization',
      'file',
      'monitor',
      'system',
      'analysis',
      'reviewmenu',
      'jit',
    ])
    const access = tree[0]
    expect(access).toMatchObject({ parentCode: null, level: 1, isLeaf: false, type: 1, status: 1 })
    expect(access.children.map((n: any) => n.code)).toEqual([
      'user',
      'role',
      'adminrole',
      'usergroup',
      'auth',
      'service',
      'apikey',
    ])
    const role = access.children[1]
    expect(role).toMatchObject({
      code: 'role',
      parentCode: 'access',
      level: 2,
      chName: '角色管理',
      isLeaf: false,
      frontEndAccessList: '/rolemanage,/rolemanage/roleinfo',
      frontEndAccesss: [{ frontEndAccess: '/rolemanage' }, { frontEndAccess: '/rolemanage/roleinfo' }],
    })
    expect(role.urlPatternInfos).toContainEqual({ method: 'POST', uri: '/role/listall' })
    const add = role.children[0]
    expect(add).toMatchObject({ code: 'role:add', level: 3, isLeaf: true, children: [] })
    const count = (nodes: any[]): number => nodes.reduce((n, x) => n + 1 + count(x.children), 0)
    expect(count(tree)).toBe((await t.db.select().from(auths)).length)
  })

  it('orders siblings by seq, then code', async () => {
    const a = await admin('POST', '/api/auth/insert', {
      body: form({ parentCode: 'file', seq: 0, chName: '甲', urlPatternInfos: [] }),
    })
    const b = await admin('POST', '/api/auth/insert', {
      body: form({ parentCode: 'file', seq: 0, chName: '乙', urlPatternInfos: [] }),
    })
    const res = await admin('POST', '/api/auth/tree', { body: {} })
    const file = res.body.data.find((n: any) => n.code === 'file')
    expect(file.children.map((n: any) => n.code)).toEqual([
      a.body.data,
      b.body.data,
      'file:upload',
      'file:download',
      'file:download-all',
    ])
    await admin('DELETE', '/api/auth/delete', { query: { authCode: a.body.data } })
    await admin('DELETE', '/api/auth/delete', { query: { authCode: b.body.data } })
  })
})

describe('POST /auth/tree: what the caller may grant', () => {
  const flatten = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flatten(n.children)])

  it('marks every node grantable for a super admin', async () => {
    const res = await admin('POST', '/api/auth/tree', { body: {} })
    const nodes = flatten(res.body.data)
    expect(nodes.every((n) => n.grantable === true && n.denyReason === null)).toBe(true)
  })

  it('marks for a limited administrator exactly what a role save would accept or refuse', async () => {
    const manager = await t.userWithCodes(['access', 'role', 'role:add'])
    const res = await t.call('POST', '/api/auth/tree', { token: manager.token, body: {} })
    expect(res.status).toBe(200)
    const nodes = flatten(res.body.data)
    const grantable = nodes.filter((n) => n.grantable).map((n) => n.code)
    const refused = nodes.filter((n) => !n.grantable)
    expect(grantable).toEqual(expect.arrayContaining(['access', 'role', 'role:add']))
    const userAdd = refused.find((n) => n.code === 'user:add')
    expect(userAdd.denyReason).toBe(`${BEYOND_POWER_PREFIX}${userAdd.chName}`)

    // what is marked grantable saves; one node marked otherwise is refused with its reason
    const ok = await t.call('POST', '/api/role/insert', {
      token: manager.token,
      body: { roleName: `可授予_${Date.now()}`, authCodes: grantable },
    })
    expect(ok.status).toBe(200)
    const refusedSave = await t.call('POST', '/api/role/insert', {
      token: manager.token,
      body: { roleName: `越权_${Date.now()}`, authCodes: ['access', 'user', 'user:add'] },
    })
    expect(refusedSave.status).toBe(403)
    expect(refusedSave.body.msg).toContain(userAdd.chName)
  })
})

describe('GET /auth/detail', () => {
  it('answers one node', async () => {
    const res = await admin('GET', '/api/auth/detail', { query: { authCode: 'auth:add' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      code: 'auth:add',
      parentCode: 'auth',
      level: 3,
      chName: '新建权限',
      enName: 'authAdd',
      type: 3,
      status: 1,
      isLeaf: true,
      frontEndAccessList: '',
      frontEndAccesss: [],
      urlPatternInfos: [{ method: 'POST', uri: '/auth/insert' }],
    })
    const page = await admin('GET', '/api/auth/detail', { query: { authCode: 'auth' } })
    expect(page.body.data.isLeaf).toBe(false)
  })

  it('answers 404 for an unknown code and 400 without one', async () => {
    const res = await admin('GET', '/api/auth/detail', { query: { authCode: 'nope' } })
    expect(res.status).toBe(404)
    expect(res.body.msg).toBe(AUTH_NOT_FOUND)
    expect((await admin('GET', '/api/auth/detail')).status).toBe(400)
  })
})

describe('POST /auth/insert', () => {
  it('generates the code, stores trimmed patterns and computes the level from the parent', async () => {
    const res = await admin('POST', '/api/auth/insert', { body: form() })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.created)
    const code: string = res.body.data
    expect(code).toMatch(/^AUTH\d{6}$/)
    const r = await row(code)
    expect(r).toMatchObject({
      parentCode: 'auth',
      level: 3,
      chName: '测试权限',
      enName: 'testAuth',
      description: '说明',
      seq: 3,
      status: 1,
      type: 3,
      uniqueKey: null,
      frontEndAccess: ['/test/a', '/test/b/**'],
      urlPatternInfos: [{ method: 'GET', uri: '/test/list' }],
    })
    const detail = await admin('GET', '/api/auth/detail', { query: { authCode: code } })
    expect(detail.body.data.frontEndAccessList).toBe('/test/a,/test/b/**')
    const second = await admin('POST', '/api/auth/insert', { body: form({ chName: '再一个' }) })
    expect(second.body.data).not.toBe(code)
  })

  it('makes a top-level node without a parent and defaults seq to 1', async () => {
    const res = await admin('POST', '/api/auth/insert', {
      body: form({ parentCode: null, seq: undefined, frontEndAccessList: '', urlPatternInfos: [] }),
    })
    expect(res.status).toBe(200)
    expect(await row(res.body.data)).toMatchObject({
      parentCode: null,
      level: 1,
      seq: 1,
      frontEndAccess: [],
      urlPatternInfos: [],
    })
    const blankParent = await admin('POST', '/api/auth/insert', {
      body: form({ parentCode: '', urlPatternInfos: [] }),
    })
    expect((await row(blankParent.body.data)).level).toBe(1)
  })

  it.each([
    ['type', { type: undefined }, MSG.authTypeRequired],
    ['type null', { type: null }, MSG.authTypeRequired],
    ['type 4', { type: 4 }, MSG.authTypeRequired],
    ['status', { status: undefined }, MSG.statusRequired],
    ['status 3', { status: 3 }, MSG.statusRequired],
    ['enName', { enName: undefined }, MSG.enNameRequired],
    ['enName blank', { enName: '   ' }, MSG.enNameRequired],
    ['chName', { chName: undefined }, MSG.chNameRequired],
    ['chName blank', { chName: '' }, MSG.chNameRequired],
    ['seq', { seq: 'abc' }, MSG.seqRequired],
    ['urlPatternInfos', { urlPatternInfos: undefined }, MSG.urlPatternsRequired],
    ['urlPatternInfos null', { urlPatternInfos: null }, MSG.urlPatternsRequired],
  ])('refuses a missing or wrong %s with its message', async (_name, over, msg) => {
    const before = (await t.db.select().from(auths)).length
    const res = await admin('POST', '/api/auth/insert', { body: form(over) })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(msg)
    expect((await t.db.select().from(auths)).length).toBe(before)
  })

  it('refuses an unknown parent, a bad method, a relative uri or front-end pattern, and a duplicate unique key', async () => {
    const parent = await admin('POST', '/api/auth/insert', { body: form({ parentCode: 'nope' }) })
    expect(parent.status).toBe(400)
    expect(parent.body.msg).toBe(PARENT_NOT_FOUND)
    const method = await admin('POST', '/api/auth/insert', {
      body: form({ urlPatternInfos: [{ method: 'FETCH', uri: '/x' }] }),
    })
    expect(method.status).toBe(400)
    expect(method.body.msg).toContain('FETCH')
    const uri = await admin('POST', '/api/auth/insert', {
      body: form({ urlPatternInfos: [{ method: 'GET', uri: 'x' }] }),
    })
    expect(uri.status).toBe(400)
    const front = await admin('POST', '/api/auth/insert', { body: form({ frontEndAccessList: '/ok,bad' }) })
    expect(front.status).toBe(400)
    expect(front.body.msg).toContain('bad')
    const first = await admin('POST', '/api/auth/insert', { body: form({ uniqueKey: 'uk-1' }) })
    expect(first.status).toBe(200)
    const dup = await admin('POST', '/api/auth/insert', { body: form({ uniqueKey: 'uk-1' }) })
    expect(dup.status).toBe(409)
    expect(dup.body.msg).toBe(UNIQUE_KEY_EXISTS)
    const malformed = await t.call('POST', '/api/auth/insert', {
      token: t.adminToken,
      body: '{bad',
      headers: { 'content-type': 'application/json' },
    })
    expect(malformed.status).toBe(400)
  })
})

describe('PUT /auth/update', () => {
  it('changes the fields and answers null', async () => {
    const code = (await admin('POST', '/api/auth/insert', { body: form() })).body.data
    const res = await admin('PUT', '/api/auth/update', {
      body: form({
        code,
        chName: '改名',
        enName: 'renamed',
        seq: 7,
        status: 2,
        type: 2,
        frontEndAccessList: '/renamed',
        urlPatternInfos: [
          { method: 'POST', uri: '/renamed/**' },
          { method: 'post', uri: '/renamed/**' },
        ],
      }),
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ code: 200, msg: MSG.updated, data: null })
    expect(await row(code)).toMatchObject({
      chName: '改名',
      enName: 'renamed',
      seq: 7,
      status: 2,
      type: 2,
      level: 3,
      frontEndAccess: ['/renamed'],
      urlPatternInfos: [{ method: 'POST', uri: '/renamed/**' }],
    })
  })

  it('moves a node with its subtree and recomputes their levels', async () => {
    const top = (await admin('POST', '/api/auth/insert', { body: form({ parentCode: null }) })).body.data
    const mid = (await admin('POST', '/api/auth/insert', { body: form({ parentCode: top }) })).body.data
    const leaf = (await admin('POST', '/api/auth/insert', { body: form({ parentCode: mid }) })).body.data
    expect((await row(leaf)).level).toBe(3)
    const res = await admin('PUT', '/api/auth/update', { body: form({ code: top, parentCode: 'auth:add' }) })
    expect(res.status).toBe(200)
    expect((await row(top)).level).toBe(4)
    expect((await row(mid)).level).toBe(5)
    expect((await row(leaf)).level).toBe(6)
  })

  it('refuses to make a node its own ancestor', async () => {
    const top = (await admin('POST', '/api/auth/insert', { body: form({ parentCode: null }) })).body.data
    const child = (await admin('POST', '/api/auth/insert', { body: form({ parentCode: top }) })).body.data
    for (const parentCode of [top, child]) {
      const res = await admin('PUT', '/api/auth/update', { body: form({ code: top, parentCode }) })
      expect(res.status).toBe(400)
      expect(res.body.msg).toBe(MOVE_UNDER_ITSELF)
    }
    expect((await row(top)).parentCode).toBeNull()
  })

  it('answers 404 for an unknown code and validates like insert', async () => {
    const res = await admin('PUT', '/api/auth/update', { body: form({ code: 'nope' }) })
    expect(res.status).toBe(404)
    const bad = await admin('PUT', '/api/auth/update', { body: form({ code: 'auth:add', chName: ' ' }) })
    expect(bad.status).toBe(400)
    expect(bad.body.msg).toBe(MSG.chNameRequired)
    const parent = await admin('PUT', '/api/auth/update', {
      body: form({ code: 'auth:add', parentCode: 'nope' }),
    })
    expect(parent.body.msg).toBe(PARENT_NOT_FOUND)
    expect((await row('auth:add')).chName).toBe('新建权限')
  })
})

describe('DELETE /auth/delete', () => {
  it('refuses a node that still has children', async () => {
    const res = await admin('DELETE', '/api/auth/delete', { query: { authCode: 'role' } })
    expect(res.status).toBe(409)
    expect(res.body.msg).toBe(DELETE_HAS_CHILDREN)
    expect(await row('role')).toBeDefined()
  })

  it('deletes a leaf and the role grants of it', async () => {
    const code = (await admin('POST', '/api/auth/insert', { body: form() })).body.data
    const { roleId } = await t.userWithCodes([code])
    const res = await admin('DELETE', '/api/auth/delete', { query: { authCode: code } })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.deleted)
    expect(await row(code)).toBeUndefined()
    expect(await t.db.select().from(roleAuths).where(eq(roleAuths.roleId, roleId))).toEqual([])
  })

  it('answers 404 for an unknown code', async () => {
    const res = await admin('DELETE', '/api/auth/delete', { query: { authCode: 'nope' } })
    expect(res.status).toBe(404)
  })
})

describe('GET /auth/get-all-back-end', () => {
  it('lists the server’s own routes by method and group', async () => {
    const res = await admin('GET', '/api/auth/get-all-back-end')
    expect(res.status).toBe(200)
    const { urlMap } = res.body.data
    expect(Object.keys(urlMap)).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']))
    expect(urlMap.POST['权限管理']).toContainEqual({ apiOperationValue: '新建权限', urls: ['/auth/insert'] })
    expect(urlMap.DELETE['角色管理']).toContainEqual({
      apiOperationValue: '删除内置角色',
      urls: ['/role/admin/delete'],
    })
    const allUrls = Object.values(urlMap).flatMap((groups: any) =>
      Object.values(groups)
        .flat()
        .flatMap((e: any) => e.urls),
    )
    expect(allUrls.filter((u: string) => u.startsWith('/api/'))).toEqual([])
  })

  it('sends the same table every time, compressed when accepted, as the compression plugin would', async () => {
    const json = JSON.stringify({
      code: 200,
      msg: MSG.success,
      data: { urlMap: t.app.ctx.catalogue.urlMap() },
    })
    const get = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'GET',
        url: '/api/auth/get-all-back-end',
        headers: { 'x-auth-token': t.adminToken, ...headers },
      })
    const plainAsks: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br', 'x-no-compression': '1' },
    ]
    for (const headers of plainAsks) {
      const plain = await get(headers)
      expect(plain.body).toBe(json)
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.headers.vary).toBeUndefined()
    }
    for (const [accept, encoding, decode] of [
      ['gzip, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await get({ 'accept-encoding': accept })
        expect(res.headers['content-encoding']).toBe(encoding)
        expect(res.headers.vary).toBe('accept-encoding')
        expect(decode(res.rawPayload).toString('utf8')).toBe(json)
      }
    }
  })
})

describe('authorization', () => {
  // nodes without patterns carry no power, so holding the action's code is enough (DESIGN.md §6a)
  const powerless = (over: Record<string, unknown> = {}) =>
    form({ frontEndAccessList: '', urlPatternInfos: [], ...over })
  const calls: [string, string, string, Record<string, unknown>][] = [
    ['POST', '/api/auth/tree', 'auth', { body: {} }],
    ['GET', '/api/auth/detail', 'auth', { query: { authCode: 'auth' } }],
    ['GET', '/api/auth/get-all-back-end', 'auth', {}],
    ['POST', '/api/auth/insert', 'auth:add', { body: powerless() }],
    ['PUT', '/api/auth/update', 'auth:edit', { body: powerless({ code: 'PLACEHOLDER' }) }],
    ['DELETE', '/api/auth/delete', 'auth:delete', { query: { authCode: 'PLACEHOLDER' } }],
  ]

  it.each(calls)(
    '%s %s: 401 without a session, 403 without %s, 200 with it',
    async (method, url, code, opts) => {
      const target = (await admin('POST', '/api/auth/insert', { body: powerless() })).body.data
      const fill = (o: Record<string, any>) => JSON.parse(JSON.stringify(o).replaceAll('PLACEHOLDER', target))
      expect((await t.call(method, url, fill(opts))).status).toBe(401)
      const other = await t.userWithCodes(['user'])
      const denied = await t.call(method, url, { token: other.token, ...fill(opts) })
      expect(denied.status).toBe(403)
      expect(denied.body.msg).toBe(MSG.forbidden)
      const allowed = await t.userWithCodes([code])
      const res = await t.call(method, url, { token: allowed.token, ...fill(opts) })
      expect(res.status).toBe(200)
    },
  )

  it('a disabled node disables its subtree for everyone but super admins, at the next request', async () => {
    const u = await t.userWithCodes(['auth', 'auth:add'])
    expect(
      (await t.call('GET', '/api/auth/detail', { token: u.token, query: { authCode: 'auth' } })).status,
    ).toBe(200)
    const access = (await admin('GET', '/api/auth/detail', { query: { authCode: 'access' } })).body.data
    const disable = await admin('PUT', '/api/auth/update', {
      body: { ...access, status: 2, frontEndAccessList: access.frontEndAccessList },
    })
    expect(disable.status).toBe(200)
    expect(
      (await t.call('GET', '/api/auth/detail', { token: u.token, query: { authCode: 'auth' } })).status,
    ).toBe(403)
    const current = await t.call('GET', '/api/user/current', { token: u.token })
    expect(current.body.data.authCodes).toEqual([])
    expect((await admin('GET', '/api/auth/detail', { query: { authCode: 'auth' } })).status).toBe(200)
    await admin('PUT', '/api/auth/update', { body: { ...access, status: 1 } })
    expect(
      (await t.call('GET', '/api/auth/detail', { token: u.token, query: { authCode: 'auth' } })).status,
    ).toBe(200)
    const rows = await t.db
      .select()
      .from(auths)
      .where(inArray(auths.code, ['access']))
    expect(rows[0].status).toBe(1)
  })
})
