import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
