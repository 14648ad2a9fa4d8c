import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { sql } from 'drizzle-orm'
import { AuthzCheckResult, Envelope, Health, MSG, RoleDetail } from '@amg/contract'
import { mayGrowLarge } from '../src/lib/compression'
import { acceptedEncoding } from '../src/modules/org/tree-payload'
import { roles as rolesTable } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'

/** DESIGN.md §12: answers go out compressed when the client accepts it, and stay readable. */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const get = (url: string, encoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { 'x-auth-token': t.adminToken, ...(encoding ? { 'accept-encoding': encoding } : {}) },
  })

describe('compressed answers', () => {
  it('sends brotli or gzip as accepted, the same JSON as uncompressed', async () => {
    // the permission tree: about 24 KB of JSON
    const authTree = (encoding?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/tree',
        headers: { 'x-auth-token': t.adminToken, ...(encoding ? { 'accept-encoding': encoding } : {}) },
      })
    const plain = await authTree()
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.length).toBeGreaterThan(8192)
    const br = await authTree('gzip, deflate, br')
    expect(br.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body)
    const gzip = await authTree('gzip')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body)
    expect(gzip.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2)
  })

  it('leaves small answers alone', async () => {
    const small = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-encoding': 'br' },
    })
    expect(small.statusCode).toBe(200)
    expect(small.headers['content-encoding']).toBeUndefined()
    // below 8 KB compressing costs more time than the bytes saved take on the wire: the current user
    // of a few pages
    const { token } = await t.userWithCodes(
      ['user', 'role', 'usergroup', 'org', 'station', 'position'],
      'compression.reader',
    )
    const current = await t.app.inject({
      method: 'GET',
      url: '/api/user/current',
      headers: { 'x-auth-token': token, 'accept-encoding': 'br' },
    })
    expect(current.statusCode).toBe(200)
    expect(current.rawPayload.length).toBeGreaterThan(1024)
    expect(current.rawPayload.length).toBeLessThan(8192)
    expect(current.headers['content-encoding']).toBeUndefined()
  })
})

describe('which answers can be compressed', () => {
  it('reads Accept-Encoding alike every time, remembered or not', () => {
    const said: [string | string[] | undefined, 'br' | 'gzip' | null][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0, br;q=0', null],
      ['GZIP;Q=0.5', 'gzip'],
      ['identity', null],
      ['', null],
      [undefined, null],
      [['gzip;q=0', 'br'], 'br'],
      [`${'x'.repeat(300)}, br`, 'br'],
    ]
    for (let time = 0; time < 3; time++)
      for (const [header, encoding] of said) expect(acceptedEncoding(header), String(header)).toBe(encoding)
  })

  it('a list can grow large; a verdict cannot', () => {
    expect(mayGrowLarge(Envelope(RoleDetail))).toBe(true)
    expect(mayGrowLarge(Envelope(Health))).toBe(false)
    // a check's answer may carry a data scope: a list of departments (DESIGN.md §13)
    expect(mayGrowLarge(Envelope(AuthzCheckResult))).toBe(true)
  })

  it('a route whose answer cannot grow (no compression step) answers as before', async () => {
    const check = await t.app.inject({
      method: 'POST',
      url: '/api/authz/check',
      headers: { 'x-auth-token': t.adminToken, 'accept-encoding': 'br, gzip' },
      payload: { method: 'GET', path: '/user/list' },
    })
    expect(check.statusCode).toBe(200)
    expect(check.headers['content-encoding']).toBeUndefined()
    expect(check.json()).toEqual({ code: 200, msg: MSG.success, data: { allowed: true, userId: 1 } })
  })

  it('a compressed request body is refused as unreadable, and nothing is written', async () => {
    const roles = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(rolesTable))[0].n
    const before = await roles()
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/role/insert',
      headers: {
        'x-auth-token': t.adminToken,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      payload: zlib.gzipSync(JSON.stringify({ roleName: '压缩请求体', type: 0 })),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ code: 400, msg: MSG.badJson, data: null })
    expect(await roles()).toEqual(before)
  })
})

describe('the department tree', () => {
  const tree = async (encoding?: string) => {
    const res = await get('/api/org/tree', encoding)
    const text =
      res.headers['content-encoding'] === 'br'
        ? zlib.brotliDecompressSync(res.rawPayload).toString()
        : res.headers['content-encoding'] === 'gzip'
          ? zlib.gunzipSync(res.rawPayload).toString()
          : res.body
    return { res, json: JSON.parse(text) as { code: number; data: { children: unknown[] }[] } }
  }

  it('is the same in every encoding, and shows a change on the very next call', async () => {
    const plain = await tree()
    expect(plain.res.statusCode).toBe(200)
    expect(plain.res.headers['content-type']).toMatch(/application\/json/)
    expect((await tree('br')).json).toEqual(plain.json)
    expect((await tree('gzip, deflate')).json).toEqual(plain.json)
    expect((await tree('br;q=0, gzip')).res.headers['content-encoding']).not.toBe('br')

    const rootId = (plain.json.data[0] as unknown as { id: number }).id
    const added = await t.call('POST', '/api/org/insert', {
      token: t.adminToken,
      body: { organizationName: '压缩测试部', parent: rootId, description: '第一版' },
    })
    expect(added.status, added.body.msg).toBe(200)
    for (const encoding of [undefined, 'br', 'gzip'])
      expect(JSON.stringify((await tree(encoding)).json)).toContain('第一版')
    // a description edited behind the server's back shows too (the trigger says the tree changed)
    await t.db.execute(sql`update organizations set description = '第二版' where id = ${added.body.data}`)
    await vi.waitFor(async () => expect(JSON.stringify((await tree('br')).json)).toContain('第二版'), {
      timeout: 2000,
    })
  })
})
