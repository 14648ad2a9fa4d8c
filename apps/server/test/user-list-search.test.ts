import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isNull } from 'drizzle-orm'
import { organizations, positions, roles, stations } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'

/** POST /user/list: the keyword, the department filter and the positions and roles of each row. */

let t: TestApp
let rootOrg: number
const ids: Record<string, number> = {}
const orgs: Record<string, number> = {}

interface Row {
  id: number
  nickName: string
  realName: string | null
  mobile: string | null
  positions: string[]
  roles: string[]
}

const list = (body: Record<string, unknown>) =>
  t.call('POST', '/api/user/list', { token: t.adminToken, body: { pageNum: 1, pageSize: 100, ...body } })

async function names(body: Record<string, unknown>): Promise<string[]> {
  const res = await list(body)
  expect(res.status, res.body.msg).toBe(200)
  expect(res.body.data.total).toBe(res.body.data.list.length)
  return (res.body.data.list as Row[]).map((r) => r.nickName).sort()
}

async function addUser(nickName: string, realName: string | null, mobile: string | null) {
  const res = await t.call('POST', '/api/user/insert', {
    token: t.adminToken,
    body: { nickName, realName, mobile },
  })
  expect(res.status, res.body.msg).toBe(200)
  ids[nickName] = res.body.data
}
async function addOrg(name: string, parent: number) {
  const [o] = await t.db.insert(organizations).values({ organizationName: name, parent }).returning()
  orgs[name] = o.id
  return o.id
}
async function addPosition(orgId: number, stationName: string) {
  const [s] = await t.db.insert(stations).values({ stationName }).returning()
  const [p] = await t.db.insert(positions).values({ orgId, stationId: s.id }).returning()
  return p.id
}
async function linkPositions(userId: number, positionIds: number[]) {
  const res = await t.call('PUT', '/api/rel/user-rel-position', {
    token: t.adminToken,
    body: { id: userId, positionIds: positionIds.join(',') },
  })
  expect(res.status, res.body.msg).toBe(200)
}

beforeAll(async () => {
  t = await createTestApp()
  const [root] = await t.db.select().from(organizations).where(isNull(organizations.parent))
  rootOrg = root.id
  await addUser('甲列表', '张三丰', '13800001111')
  await addUser('乙列表', '李四', '13900002222')
  await addUser('丙列表', 'Wang Wu', null)
  await addUser('丁列表', null, '13700003333')
  // 研发中心 ⊃ 后端组 ⊃ 数据库小组; 市场部 beside it
  const dev = await addOrg('研发中心', rootOrg)
  const backend = await addOrg('后端组', dev)
  const db = await addOrg('数据库小组', backend)
  const market = await addOrg('市场部', rootOrg)
  const devLead = await addPosition(dev, '研发总监')
  const dba = await addPosition(db, '数据库管理员')
  const seller = await addPosition(market, '销售')
  await linkPositions(ids['甲列表'], [devLead, seller])
  await linkPositions(ids['乙列表'], [dba])
  await linkPositions(ids['丙列表'], [seller])
  const [role] = await t.db.insert(roles).values({ roleName: '审计员', type: 3, status: 1 }).returning()
  const res = await t.call('PUT', '/api/rel/user-rel-role', {
    token: t.adminToken,
    body: { id: ids['甲列表'], roleIds: String(role.id) },
  })
  expect(res.status, res.body.msg).toBe(200)
})
afterAll(async () => t.close())

describe('keyword', () => {
  it('finds by a part of the nickName, case-insensitively', async () => {
    expect(await names({ keyword: '甲列' })).toEqual(['甲列表'])
    expect(await names({ keyword: 'ADMI' })).toEqual(['admin'])
  })

  it('finds by a part of the real name, case-insensitively', async () => {
    expect(await names({ keyword: '三丰' })).toEqual(['甲列表'])
    expect(await names({ keyword: 'wang w' })).toEqual(['丙列表'])
  })

  it('finds by a part of the mobile', async () => {
    expect(await names({ keyword: '0002222' })).toEqual(['乙列表'])
    expect(await names({ keyword: '1370000' })).toEqual(['丁列表'])
    expect(await names({ keyword: '138000011112' })).toEqual([])
  })

  it('is normalised as names are: full-width letters find their plain form', async () => {
    expect(await names({ keyword: 'ａｄｍｉｎ' })).toEqual(['admin'])
  })

  it('takes % and _ literally', async () => {
    expect(await names({ keyword: '%' })).toEqual([])
    expect(await names({ keyword: '_' })).toEqual([])
  })

  it('sees a real name or mobile changed a moment ago (those lists are not kept stale)', async () => {
    expect(await names({ keyword: '新名字' })).toEqual([])
    const res = await t.call('PUT', '/api/user/update', {
      token: t.adminToken,
      body: { id: ids['丁列表'], nickName: '丁列表', status: 1, realName: '新名字', mobile: '13700003333' },
    })
    expect(res.status, res.body.msg).toBe(200)
    expect(await names({ keyword: '新名字' })).toEqual(['丁列表'])
  })

  it('combines with nickName (SPEC.md) and status', async () => {
    expect(await names({ keyword: '138', nickName: '乙' })).toEqual([])
    expect(await names({ keyword: '13', nickName: '列表' })).toEqual(['丁列表', '乙列表', '甲列表'])
    expect(await names({ keyword: '列表', status: 2 })).toEqual([])
  })
})

describe('department', () => {
  it('keeps users holding a position in the department or any department below it', async () => {
    expect(await names({ orgId: orgs['研发中心'] })).toEqual(['乙列表', '甲列表'])
    expect(await names({ orgId: orgs['后端组'] })).toEqual(['乙列表'])
    expect(await names({ orgId: orgs['数据库小组'] })).toEqual(['乙列表'])
    expect(await names({ orgId: orgs['市场部'] })).toEqual(['丙列表', '甲列表'])
    expect(await names({ orgId: orgs['研发中心'], keyword: '张三' })).toEqual(['甲列表'])
  })

  it('follows a position linked a moment ago', async () => {
    const seller = await t.db.select().from(positions)
    const marketPosition = seller.find((p) => p.orgId === orgs['市场部'])!
    expect(await names({ orgId: orgs['市场部'] })).not.toContain('丁列表')
    await linkPositions(ids['丁列表'], [marketPosition.id])
    expect(await names({ orgId: orgs['市场部'] })).toContain('丁列表')
  })

  it('answers an empty list for an unknown department', async () => {
    const res = await list({ orgId: 2147483000 })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ list: [], total: 0 })
  })
})

describe('the columns', () => {
  it('each row carries its positions as 部门-职位 and its roles', async () => {
    const res = await list({ keyword: '列表' })
    const rows = res.body.data.list as Row[]
    const byName = new Map(rows.map((r) => [r.nickName, r]))
    expect(byName.get('甲列表')).toMatchObject({
      realName: '张三丰',
      mobile: '13800001111',
      positions: ['市场部-销售', '研发中心-研发总监'],
      roles: ['审计员'],
    })
    expect(byName.get('乙列表')).toMatchObject({ positions: ['数据库小组-数据库管理员'], roles: [] })
    expect(byName.get('丙列表')).toMatchObject({ realName: 'Wang Wu', mobile: null })
    // no password or hash ever leaves
    expect(JSON.stringify(rows)).not.toMatch(/password/i)
  })

  it('pages keep their exact total', async () => {
    const first = await list({ keyword: '列表', pageSize: 10, pageNum: 1 })
    const small = await t.call('POST', '/api/user/list', {
      token: t.adminToken,
      body: { keyword: '列表', pageNum: 2, pageSize: 2 },
    })
    expect(small.body.data.total).toBe(first.body.data.total)
    expect(small.body.data.list).toHaveLength(2)
  })
})

describe('bad input', () => {
  it.each([
    ['orgId as text', { orgId: 'abc' }],
    ['orgId a fraction', { orgId: 1.5 }],
    ['orgId a list', { orgId: [1, 2] }],
    ['orgId negative', { orgId: -3 }],
    ['orgId too large', { orgId: 2 ** 40 }],
    ['keyword a list', { keyword: ['甲'] }],
    ['keyword an object', { keyword: { like: '%' } }],
    ['keyword too long', { keyword: 'x'.repeat(65) }],
  ])('%s answers 400 with a message', async (_name, body) => {
    const res = await list(body)
    expect(res.status).toBe(400)
    expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/)
  })

  it('a user without the list permission is refused', async () => {
    const { token } = await t.userWithCodes([])
    const res = await t.call('POST', '/api/user/list', { token, body: { keyword: '列表' } })
    expect(res.status).toBe(403)
  })
})
