import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orgTree } from '../src/modules/org'
import { treeFastPathCount } from '../src/modules/org/tree-fast-path'
import { createTestApp, type TestApp, rootOrgIdOf } from './helpers/app'
import { bothWays as bothWaysOf } from './helpers/both-ways'

/**
 * The whole department tree is kept serialized and compressed once per version (decisions.md "Hot
 * path and tree writes"): after every kind of change the answer, plain and in each encoding, is the
 * tree as read afresh from the database. Over HTTP the kept answer is sent before Fastify
 * (modules/org/tree-fast-path.ts); injected requests reach the route: both give the same bytes.
 */
let t: TestApp
let rootId: number
let base: string

beforeAll(async () => {
  t = await createTestApp()
  rootId = await rootOrgIdOf(t.db)
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(async () => t.close())

/** The whole tree as GET /org/tree answers it in `encoding` (none: plain), decoded. */
async function answered(encoding?: 'br' | 'gzip') {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/org/tree',
    headers: { 'x-auth-token': t.adminToken, ...(encoding ? { 'accept-encoding': encoding } : {}) },
  })
  expect(res.statusCode).toBe(200)
  expect(res.headers['content-encoding']).toBe(encoding)
  const raw = res.rawPayload
  const text =
    encoding === 'br'
      ? zlib.brotliDecompressSync(raw).toString('utf8')
      : encoding === 'gzip'
        ? zlib.gunzipSync(raw).toString('utf8')
        : raw.toString('utf8')
  return JSON.parse(text).data
}

/** The whole tree over HTTP (raw bytes, not decoded) and through the route, which must agree; answers the status. */
async function bothWays(token: string, encoding?: string) {
  const headers = { 'x-auth-token': token, ...(encoding ? { 'accept-encoding': encoding } : {}) }
  return (await bothWaysOf(t.app, base, '/api/org/tree', headers)).status
}

/** Every encoding's answer equals the tree read afresh (read twice: the second comes from what is kept). */
async function expectFresh() {
  const fresh = JSON.parse(JSON.stringify(await orgTree(t.db)))
  for (const encoding of [undefined, 'br', 'gzip'] as const)
    for (let i = 0; i < 2; i++) expect(await answered(encoding)).toEqual(fresh)
  const before = treeFastPathCount.answered
  for (const encoding of [undefined, 'br', 'gzip', 'gzip;q=0, br;q=0'])
    expect(await bothWays(t.adminToken, encoding)).toBe(200)
  // the tree is kept (read above): every HTTP answer came from the fast path
  expect(treeFastPathCount.answered - before).toBe(4)
}

async function call(method: string, url: string, body?: object, query?: Record<string, number>) {
  const res = await t.call(method, url, { token: t.adminToken, body, query })
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data
}

describe('the kept whole tree', () => {
  it('is the fresh tree after an insert, an update, a move and a delete', async () => {
    await expectFresh()
    const east = await call('POST', '/api/org/insert', { organizationName: '华东区', parent: rootId })
    await expectFresh()
    const shanghai = await call('POST', '/api/org/insert', { organizationName: '上海分部', parent: east })
    const north = await call('POST', '/api/org/insert', { organizationName: '华北区', parent: rootId })
    await expectFresh()
    // renamed, with a description: the complete names below it change too
    await call('PUT', '/api/org/update', { id: east, organizationName: '华东大区', description: '沪苏浙' })
    await expectFresh()
    // moved under another department
    await call('PUT', '/api/org/update', { id: shanghai, organizationName: '上海分部', parent: north })
    await expectFresh()
    await call('DELETE', '/api/org/delete', undefined, { orgId: shanghai })
    await expectFresh()
  })

  it("over HTTP, a caller the route would refuse gets the route's answer", async () => {
    await answered()
    const before = treeFastPathCount.answered
    const { token } = await t.userWithCodes(['user'], '无部门权限用户')
    expect(await bothWays(token)).toBe(403)
    expect(await bothWays('not-a-session')).toBe(401)
    expect(treeFastPathCount.answered).toBe(before)
  })
})
