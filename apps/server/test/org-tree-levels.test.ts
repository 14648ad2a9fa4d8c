import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MSG, ORG_SEARCH_LIMIT } from '@amg/contract'
import { organizations } from '../src/db/schema'
import { createTestApp, type TestApp, rootOrgIdOf } from './helpers/app'

/** GET /org/tree by parts: the root level, one level, a search with paths, one department's path. */

let t: TestApp
let rootId: number
const ids: Record<string, number> = {}

const admin = () => t.adminToken
const tree = (query: Record<string, string | number>, token: string | null = admin()) =>
  t.call('GET', '/api/org/tree', { token, query })

async function addOrg(name: string, parent: number) {
  const res = await t.call('POST', '/api/org/insert', {
    token: admin(),
    body: { organizationName: name, parent, description: `${name}说明` },
  })
  expect(res.status, res.body.msg).toBe(200)
  ids[name] = res.body.data
  return res.body.data as number
}

beforeAll(async () => {
  t = await createTestApp()
  rootId = await rootOrgIdOf(t.db)
  // 总公司 ─ 华东区 ─ 上海分部 ─ 浦东_100%组
  //        └ 华北区          └ 徐汇组
  const east = await addOrg('华东区', rootId)
  await addOrg('华北区', rootId)
  const sh = await addOrg('上海分部', east)
  await addOrg('浦东_100%组', sh)
  await addOrg('徐汇组', sh)
})
afterAll(async () => t.close())

describe('GET /org/tree by levels', () => {
  it('roots=1 answers the root level only, with hasChildren', async () => {
    const res = await tree({ roots: 1 })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      {
        id: rootId,
        organizationName: '总公司',
        description: expect.anything(),
        parent: null,
        childCount: 2,
        hasChildren: true,
      },
    ])
    expect(res.body.data[0]).not.toHaveProperty('children')
  })

  it('parentId answers that department’s children only, each with hasChildren', async () => {
    const top = await tree({ parentId: rootId })
    expect(top.status).toBe(200)
    expect(top.body.data).toEqual([
      {
        id: ids['华东区'],
        organizationName: '华东区',
        description: '华东区说明',
        parent: rootId,
        childCount: 1,
        hasChildren: true,
      },
      {
        id: ids['华北区'],
        organizationName: '华北区',
        description: '华北区说明',
        parent: rootId,
        childCount: 0,
        hasChildren: false,
      },
    ])
    const deep = await tree({ parentId: ids['上海分部'] })
    expect(deep.body.data.map((n: any) => [n.organizationName, n.hasChildren])).toEqual([
      ['浦东_100%组', false],
      ['徐汇组', false],
    ])
    // a leaf and an unknown department: an empty list
    expect((await tree({ parentId: ids['徐汇组'] })).body.data).toEqual([])
    const unknown = await tree({ parentId: 999999 })
    expect(unknown.status).toBe(200)
    expect(unknown.body.data).toEqual([])
  })

  it('a level follows changes at once (the kept answer is dropped)', async () => {
    expect((await tree({ parentId: ids['华北区'] })).body.data).toEqual([])
    const id = await addOrg('北京分部', ids['华北区'])
    expect((await tree({ parentId: ids['华北区'] })).body.data.map((n: any) => n.id)).toEqual([id])
    const top = await tree({ parentId: rootId })
    expect(top.body.data.find((n: any) => n.id === ids['华北区']).hasChildren).toBe(true)
    expect((await t.call('DELETE', '/api/org/delete', { token: admin(), query: { orgId: id } })).status).toBe(
      200,
    )
    expect((await tree({ parentId: ids['华北区'] })).body.data).toEqual([])
    expect((await tree({ parentId: rootId })).body.data[1].hasChildren).toBe(false)
  })

  it('keyword answers the departments whose name contains it, each with its path from the root', async () => {
    const res = await tree({ keyword: '组' })
    expect(res.status).toBe(200)
    const path = [
      { id: rootId, organizationName: '总公司' },
      { id: ids['华东区'], organizationName: '华东区' },
      { id: ids['上海分部'], organizationName: '上海分部' },
    ]
    expect(res.body.data).toEqual([
      expect.objectContaining({
        id: ids['浦东_100%组'],
        organizationName: '浦东_100%组',
        hasChildren: false,
        path,
      }),
      expect.objectContaining({ id: ids['徐汇组'], organizationName: '徐汇组', path }),
    ])
    // a top-level hit: its path is the root; the root itself: an empty path
    const east = await tree({ keyword: '华东' })
    expect(east.body.data).toEqual([
      expect.objectContaining({ id: ids['华东区'], hasChildren: true, path: [path[0]] }),
    ])
    expect((await tree({ keyword: '总公' })).body.data).toEqual([
      expect.objectContaining({ id: rootId, path: [] }),
    ])
    // wildcards are taken literally; case and surrounding blanks do not matter; nothing found: empty
    expect((await tree({ keyword: '_100%' })).body.data.map((n: any) => n.id)).toEqual([ids['浦东_100%组']])
    expect((await tree({ keyword: '%' })).body.data.map((n: any) => n.id)).toEqual([ids['浦东_100%组']])
    expect((await tree({ keyword: '  徐汇 ' })).body.data.map((n: any) => n.id)).toEqual([ids['徐汇组']])
    expect((await tree({ keyword: '不存在的部门' })).body.data).toEqual([])
  })

  it('keyword answers at most ORG_SEARCH_LIMIT departments', async () => {
    const parent = await addOrg('批量部', rootId)
    await t.db
      .insert(organizations)
      .values(
        Array.from({ length: ORG_SEARCH_LIMIT + 5 }, (_, i) => ({ organizationName: `批量组${i}`, parent })),
      )
    const res = await tree({ keyword: '批量组' })
    expect(res.body.data).toHaveLength(ORG_SEARCH_LIMIT)
    expect(res.body.data[0].path.map((p: any) => p.id)).toEqual([rootId, parent])
  })

  it('pathTo answers one department with its path; an unknown one, an empty list', async () => {
    const res = await tree({ pathTo: ids['徐汇组'] })
    expect(res.body.data).toEqual([
      expect.objectContaining({
        id: ids['徐汇组'],
        path: [rootId, ids['华东区'], ids['上海分部']].map((id) => expect.objectContaining({ id })),
      }),
    ])
    expect((await tree({ pathTo: 999999 })).body.data).toEqual([])
  })

  it('refuses bad values with a Chinese message (400), changing nothing', async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ parentId: 'abc' }, MSG.orgTreeParentInvalid],
      [{ parentId: 0 }, MSG.orgTreeParentInvalid],
      [{ parentId: -3 }, MSG.orgTreeParentInvalid],
      [{ parentId: '1.5' }, MSG.orgTreeParentInvalid],
      [{ parentId: '99999999999' }, MSG.orgTreeParentInvalid],
      [{ roots: 2 }, MSG.orgTreeRootsInvalid],
      [{ roots: 'yes' }, MSG.orgTreeRootsInvalid],
      [{ pathTo: 'x' }, MSG.orgTreePathToInvalid],
      [{ keyword: '' }, MSG.orgTreeKeywordInvalid],
      [{ keyword: '   ' }, MSG.orgTreeKeywordInvalid],
      [{ keyword: '长'.repeat(65) }, MSG.orgTreeKeywordInvalid],
      [{ parentId: rootId, roots: 1 }, MSG.orgTreeOneQuery],
      [{ parentId: rootId, keyword: '组' }, MSG.orgTreeOneQuery],
    ]
    for (const [query, msg] of cases) {
      const res = await tree(query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(res.body.msg, JSON.stringify(query)).toBe(msg)
    }
  })

  it('is guarded like the whole tree: 401 without a session, 403 without the code', async () => {
    expect((await tree({ roots: 1 }, null)).status).toBe(401)
    const none = await t.userWithCodes(['role'])
    expect((await tree({ parentId: rootId }, none.token)).status).toBe(403)
    expect((await tree({ keyword: '组' }, none.token)).status).toBe(403)
    const org = await t.userWithCodes(['org'])
    expect((await tree({ parentId: rootId }, org.token)).status).toBe(200)
    expect((await tree({ keyword: '组' }, org.token)).status).toBe(200)
  })

  it('without parameters still answers the whole tree, nested with complete names', async () => {
    const res = await tree({})
    expect(res.status).toBe(200)
    const [root] = res.body.data
    expect(root).toMatchObject({ id: rootId, parent: null, organizationCompleteName: '总公司' })
    const east = root.children.find((n: any) => n.id === ids['华东区'])
    expect(east.children[0].children.map((n: any) => n.organizationCompleteName)).toEqual([
      '总公司-华东区-上海分部-浦东_100%组',
      '总公司-华东区-上海分部-徐汇组',
    ])
    expect(east).not.toHaveProperty('hasChildren')
  })

  it('sends levels compressed when the client accepts it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/org/tree?parentId=${rootId}`,
      headers: { 'x-auth-token': admin(), 'accept-encoding': 'gzip' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('gzip')
    const body = JSON.parse(zlib.gunzipSync(res.rawPayload).toString())
    expect(body.data.map((n: any) => n.organizationName)).toEqual(['华东区', '华北区', '批量部'])
  })
})
