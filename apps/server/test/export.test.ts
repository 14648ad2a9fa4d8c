import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { positions, roles, stations, userGroups } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { sheetRows } from './helpers/workbooks'

/** 导出 on the list screens (DESIGN.md §15): workbooks streamed, the caller's scope kept. */

let t: TestApp
let c: ScopedCompany
beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
})
afterAll(async () => t.close())

async function exported(url: string, token = t.adminToken) {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-auth-token': token } })
  expect(res.statusCode, res.body).toBe(200)
  expect(res.headers['content-type']).toContain('spreadsheetml')
  expect(String(res.headers['content-disposition'])).toContain("filename*=UTF-8''")
  return [...(await sheetRows(res.rawPayload)).values()]
}

describe('list exports', () => {
  it('roles, groups and job titles: every row under the list columns', async () => {
    const roles = await exported('/api/role/export')
    expect(roles[0]).toEqual(['角色名称', '类型', '数据范围', '状态', '描述', '创建时间'])
    expect(roles.some((r) => r[0] === '超级管理员')).toBe(true)
    const groups = await exported('/api/user_groups/export')
    expect(groups.slice(1).map((g) => g[0])).toEqual(['全公司群'])
    const stations = await exported('/api/station/export')
    expect(stations.slice(1).map((s) => s[0])).toEqual(['员工'])
  })

  it('positions: full department names; a scoped administrator gets only those in scope', async () => {
    const all = (await exported('/api/position/export')).slice(1).map((p) => p[2])
    expect(all).toEqual(
      expect.arrayContaining(['总公司/研发中心/员工', '总公司/研发中心/前端组/员工', '总公司/销售部/员工']),
    )
    const scoped = (await exported('/api/position/export', c.scoped.token)).slice(1).map((p) => p[2])
    expect(scoped).toContain('总公司/研发中心/前端组/员工')
    expect(scoped).not.toContain('总公司/销售部/员工')
  })

  it('the user export follows the list filters', async () => {
    const rows = await exported(`/api/user/export?nickName=${encodeURIComponent('inside')}`)
    expect(rows.slice(1).map((r) => r[0])).toEqual(['inside_user'])
    expect(rows[1][4]).toBe('总公司/研发中心/前端组/员工')
  })

  it('an export needs its button', async () => {
    const weak = await t.userWithCodes(['role'], 'role_reader')
    const res = await t.call('GET', '/api/role/export', { token: weak.token })
    expect(res.status).toBe(403)
  })
})

/** The list call's rows for these filters, every page. */
async function listed<T>(path: string, filters: object, token = t.adminToken): Promise<T[]> {
  const res = await t.call<{ list: T[]; total: number }>('POST', path, {
    token,
    body: { ...filters, pageNum: 1, pageSize: 200 },
  })
  expect(res.status, res.body.msg).toBe(200)
  expect(res.body.data.list.length).toBe(res.body.data.total)
  return res.body.data.list
}

const query = (filters: Record<string, string | number | (string | number)[] | undefined>) =>
  Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v!]).map((x) => `${k}=${encodeURIComponent(String(x))}`))
    .join('&')

const sorted = (items: string[]) => [...items].sort()

describe('each export takes its list’s filters: exactly the rows the list shows', () => {
  beforeAll(async () => {
    await t.db.insert(roles).values([
      { roleName: '导出甲角色', type: 3, status: 1 },
      { roleName: '导出乙角色', type: 3, status: 2 },
      { roleName: '导出丙', type: 2, status: 1 },
    ])
    await t.db.insert(userGroups).values([
      { groupName: '导出甲组', status: 1, description: '华东' },
      { groupName: '导出乙组', status: 2, description: '华东' },
      { groupName: '其他组', status: 1, description: '华北' },
    ])
    const [engineer] = await t.db
      .insert(stations)
      .values([{ stationName: '导出工程师' }, { stationName: '导出经理', type: 2 }])
      .returning({ id: stations.id })
    await t.db.insert(positions).values([
      { orgId: c.orgA1, stationId: engineer.id },
      { orgId: c.orgA2, stationId: engineer.id },
      { orgId: c.orgB, stationId: engineer.id },
    ])
    t.app.ctx.changes.dropAll()
  })

  it('roles: name, status and types (one type or several)', async () => {
    for (const filters of [
      { roleName: '导出' },
      { roleName: '导出', status: 1 },
      { roleName: '导出', types: [3] },
      { roleName: '导出', types: [2, 3], status: 1 },
    ]) {
      const list = await listed<{ roleName: string }>('/api/role/listall', filters)
      const rows = await exported(`/api/role/export?${query(filters)}`)
      expect(sorted(rows.slice(1).map((r) => r[0])), JSON.stringify(filters)).toEqual(
        sorted(list.map((r) => r.roleName)),
      )
      expect(list.length).toBeGreaterThan(0)
    }
    expect((await exported(`/api/role/export?${query({ roleName: '导出', types: [3] })}`)).length).toBe(3)
  })

  it('groups: name, description and status', async () => {
    for (const filters of [{ groupName: '导出' }, { description: '华东', status: 2 }, { status: 1 }]) {
      const list = await listed<{ groupName: string }>('/api/user_groups/list', filters)
      const rows = await exported(`/api/user_groups/export?${query(filters)}`)
      expect(sorted(rows.slice(1).map((r) => r[0])), JSON.stringify(filters)).toEqual(
        sorted(list.map((r) => r.groupName)),
      )
      expect(list.length).toBeGreaterThan(0)
    }
  })

  it('job titles: name and type', async () => {
    for (const filters of [{ stationName: '导出' }, { stationName: '导出', type: 2 }, { type: 1 }]) {
      const list = await listed<{ stationName: string }>('/api/station/list', filters)
      const rows = await exported(`/api/station/export?${query(filters)}`)
      expect(sorted(rows.slice(1).map((r) => r[0])), JSON.stringify(filters)).toEqual(
        sorted(list.map((r) => r.stationName)),
      )
      expect(list.length).toBeGreaterThan(0)
    }
  })

  it('positions: a department’s subtree and a job title, within the caller’s scope', async () => {
    const [engineer] = await t.db.select().from(stations).where(eq(stations.stationName, '导出工程师'))
    for (const [filters, token] of [
      [{ orgId: c.orgA }, t.adminToken],
      [{ stationId: engineer.id }, t.adminToken],
      [{ orgId: c.orgA, stationId: engineer.id }, t.adminToken],
      [{ stationId: engineer.id }, c.scoped.token],
      [{ orgId: c.root }, c.scoped.token],
    ] as const) {
      const list = await listed<{ organizationCompleteName: string; stationName: string }>(
        '/api/position/list',
        filters,
        token,
      )
      const rows = await exported(`/api/position/export?${query(filters)}`, token)
      expect(sorted(rows.slice(1).map((r) => r[2])), JSON.stringify(filters)).toEqual(
        sorted(list.map((p) => `${p.organizationCompleteName.split('-').join('/')}/${p.stationName}`)),
      )
      expect(list.length).toBeGreaterThan(0)
    }
    const scoped = await exported(`/api/position/export?stationId=${engineer.id}`, c.scoped.token)
    expect(sorted(scoped.slice(1).map((r) => r[2]))).toEqual([
      '总公司/研发中心/前端组/导出工程师',
      '总公司/研发中心/后端组/导出工程师',
    ])
  })

  it('the operation log: its filters and the caller’s scope, as its list', async () => {
    for (const [name, token] of [
      ['日志甲', t.adminToken],
      ['日志乙', c.scoped.token],
      ['导出工程师', t.adminToken],
    ])
      await t.call('POST', '/api/station/insert', { token, body: { stationName: name, type: 1 } })
    for (const [filters, token] of [
      [{ summary: '新建职位', result: 'success' }, t.adminToken],
      [{ summary: '新建职位', operatorName: 'adm' }, t.adminToken],
      [{ summary: '新建职位', operatorName: 'dept' }, c.scoped.token],
    ] as const) {
      const list = await listed<{ id: number }>('/api/log/operation/list', filters, token)
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/log/operation/export?${query(filters)}`,
        headers: { 'x-auth-token': token },
      })
      expect(res.statusCode).toBe(200)
      const ids = res.body
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(1)
        .filter((line) => line !== '')
        .map((line) => line.split(',')[0])
      expect(list.length, JSON.stringify(filters)).toBeGreaterThan(0)
      expect(sorted(ids)).toEqual(sorted(list.map((r) => String(r.id))))
    }
  })

  it('a bad filter is the list’s 400 with the list’s message', async () => {
    for (const [list, exportPath, body, q] of [
      ['/api/role/listall', '/api/role/export', { types: [9] }, 'types=9'],
      ['/api/role/listall', '/api/role/export', { status: 'x' }, 'status=x'],
      ['/api/user_groups/list', '/api/user_groups/export', { status: 7 }, 'status=7'],
      ['/api/station/list', '/api/station/export', { type: 'x' }, 'type=x'],
      ['/api/position/list', '/api/position/export', { orgId: -1 }, 'orgId=-1'],
      ['/api/log/operation/list', '/api/log/operation/export', { from: 'gestern' }, 'from=gestern'],
    ] as const) {
      const fromList = await t.call('POST', list, { token: t.adminToken, body: { ...body, pageNum: 1 } })
      const fromExport = await t.call('GET', `${exportPath}?${q}`, { token: t.adminToken })
      expect(fromList.status, list).toBe(400)
      expect(fromExport.status, exportPath).toBe(400)
      expect(fromExport.body.msg, exportPath).toBe(fromList.body.msg)
      expect(fromExport.body.msg).toMatch(/[\u4e00-\u9fff]/)
    }
  })
})
