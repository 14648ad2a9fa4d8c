import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq, isNull } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, MSG, unknownScopeOrgs } from '@amg/contract'
import { operationLogs, type AuditChange } from '../src/db/audit-schema'
import { auths, organizations, positions, positionUsers, roles, stations, userRoles } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * Data scope (DESIGN.md §13): the model, the scope of a call, and serving it. The #921 case: a user
 * whose 报销 role is 仅本人 and whose 报表 role is 本部门 gets `self` for 报销 calls and their
 * department for 报表 calls, in a service of its own (DESIGN.md §10a).
 */
let t: TestApp
/** departments: 财务部 (finance) with 报销组 (claims) below it; 研发中心 (rnd) elsewhere */
const org = { finance: 0, claims: 0, rnd: 0 }
let positionId = 0
let clerk: { id: number; token: string }
let expenseRole = 0
let reportRole = 0

const admin = (
  method: string,
  url: string,
  body?: unknown,
  query?: Record<string, string | number | boolean>,
) => t.call(method, url, { token: t.adminToken, body, query })

const EXPENSE_CALL = { method: 'POST', path: '/api/expense/claims' }
const REPORT_CALL = { method: 'GET', path: '/api/report/monthly' }

beforeAll(async () => {
  t = await createTestApp()
  const db = t.db
  const service = await admin('POST', '/api/service/insert', { key: 'finance', name: '财务系统' })
  expect(service.status).toBe(200)
  const [{ rootCode }] = (await admin('POST', '/api/service/list', { keyword: 'finance' })).body.data.list
  await db.insert(auths).values([
    {
      code: 'fin:expense',
      parentCode: rootCode,
      level: 2,
      chName: '报销',
      enName: 'expense',
      type: 2,
      urlPatternInfos: [{ method: '*', uri: '/api/expense/**' }],
    },
    {
      code: 'fin:report',
      parentCode: rootCode,
      level: 2,
      chName: '报表',
      enName: 'report',
      type: 2,
      urlPatternInfos: [{ method: 'GET', uri: '/api/report/**' }],
    },
  ])
  const [root] = await db.select().from(organizations).where(isNull(organizations.parent))
  const dept = async (name: string, parent: number) =>
    (
      await db
        .insert(organizations)
        .values({ organizationName: name, parent })
        .returning({ id: organizations.id })
    )[0].id
  org.finance = await dept('财务部', root.id)
  org.claims = await dept('报销组', org.finance)
  org.rnd = await dept('研发中心', root.id)
  const [station] = await db.insert(stations).values({ stationName: '会计' }).returning({ id: stations.id })
  positionId = (
    await db
      .insert(positions)
      .values({ orgId: org.finance, stationId: station.id })
      .returning({ id: positions.id })
  )[0].id

  // the two roles through the role calls, as an administrator makes them
  const made = async (roleName: string, authCodes: string[], dataScope: number) => {
    const res = await admin('POST', '/api/role/insert', { roleName, authCodes, dataScope })
    expect(res.status).toBe(200)
    return res.body.data as number
  }
  expenseRole = await made('报销员', ['fin:expense'], 5)
  reportRole = await made('报表员', ['fin:report'], 3)
  const { id } = await t.userWithCodes([], 'scope_clerk')
  await db.insert(userRoles).values([
    { userId: id, roleId: expenseRole },
    { userId: id, roleId: reportRole },
  ])
  await db.insert(positionUsers).values({ positionId, userId: id })
  await t.app.ctx.authz.invalidate()
  clerk = { id, token: await t.login('scope_clerk') }
})
afterAll(async () => t.close())

const check = (call: { method: string; path: string }, token = clerk.token) =>
  t.call('POST', '/api/authz/check', { token, body: { ...call, service: 'finance', withScope: true } })

const forward = (call: { method: string; path: string }) =>
  t.app.inject({
    method: 'GET',
    url: '/api/authz/forward/finance',
    headers: { 'x-auth-token': clerk.token, 'x-original-method': call.method, 'x-original-uri': call.path },
  })

describe('the #921 case: each call gets the scope of the roles that allow it', () => {
  it('check: 报销 is the user alone, 报表 the department, anything else refused without a scope', async () => {
    const expense = await check(EXPENSE_CALL)
    expect([expense.status, expense.body.data]).toEqual([
      200,
      { allowed: true, userId: clerk.id, scope: { all: false, self: true, orgIds: [] } },
    ])
    const report = await check(REPORT_CALL)
    expect(report.body.data).toEqual({
      allowed: true,
      userId: clerk.id,
      scope: { all: false, self: false, orgIds: [org.finance] },
    })
    const refused = await check({ method: 'DELETE', path: '/api/report/monthly' })
    expect(refused.body.data).toEqual({ allowed: false, userId: clerk.id })
    // without withScope the answer is as before
    const plain = await t.call('POST', '/api/authz/check', {
      token: clerk.token,
      body: { ...REPORT_CALL, service: 'finance' },
    })
    expect(plain.body.data).toEqual({ allowed: true, userId: clerk.id })
  })

  it('check-batch: scopes in the order asked, null for a refused call', async () => {
    const res = await t.call('POST', '/api/authz/check-batch', {
      token: clerk.token,
      body: {
        service: 'finance',
        withScope: true,
        checks: [REPORT_CALL, { method: 'GET', path: '/api/payroll' }, EXPENSE_CALL],
      },
    })
    expect([res.status, res.body.data]).toEqual([
      200,
      {
        results: [true, false, true],
        scopes: [
          { all: false, self: false, orgIds: [org.finance] },
          null,
          { all: false, self: true, orgIds: [] },
        ],
      },
    ])
  })

  it('forward auth names the scope in X-Auth-Data-Scope (a department with a part below it: org:<id>)', async () => {
    const expense = await forward(EXPENSE_CALL)
    expect([expense.statusCode, expense.headers['x-auth-data-scope']]).toEqual([200, 'self'])
    const report = await forward(REPORT_CALL)
    expect([report.statusCode, report.headers['x-auth-data-scope']]).toEqual([200, `org:${org.finance}`])
    const refused = await forward({ method: 'DELETE', path: '/api/report/monthly' })
    expect([refused.statusCode, refused.headers['x-auth-data-scope']]).toEqual([403, undefined])
  })

  it('explain shows each role part of the scope', async () => {
    const res = await admin('POST', '/api/authz/explain', {
      ...REPORT_CALL,
      userId: clerk.id,
      service: 'finance',
    })
    expect(res.status).toBe(200)
    expect(res.body.data.scope).toEqual({ all: false, self: false, orgIds: [org.finance] })
    expect(res.body.data.roleScopes).toEqual([
      {
        role: { id: reportRole, roleName: '报表员', type: 3 },
        dataScope: 3,
        scope: { all: false, self: false, orgIds: [org.finance] },
        scopeText: '财务部',
      },
    ])
    const refused = await admin('POST', '/api/authz/explain', {
      method: 'GET',
      path: '/api/payroll',
      userId: clerk.id,
      service: 'finance',
    })
    expect([refused.body.data.allowed, refused.body.data.scope, refused.body.data.roleScopes]).toEqual([
      false,
      null,
      [],
    ])
  })

  it('a super admin has all data; a role of 1 (every existing role) too', async () => {
    const res = await check(REPORT_CALL, t.adminToken)
    expect(res.body.data.scope).toEqual({ all: true, self: false, orgIds: [] })
    const plain = await t.userWithCodes(['fin:report'])
    expect((await check(REPORT_CALL, plain.token)).body.data.scope).toEqual({
      all: true,
      self: false,
      orgIds: [],
    })
    const seeded = await admin('POST', '/api/role/listall', { pageSize: 100 })
    for (const r of seeded.body.data.list)
      if (![expenseRole, reportRole].includes(r.id))
        expect([r.roleName, r.dataScope]).toEqual([r.roleName, 1])
  })

  it('is computed from memory, and kept with the access until something deciding it changes', async () => {
    await check(REPORT_CALL)
    expect(t.app.ctx.authz.isCached(clerk.id)).toBe(true)
    const scope = await t.app.ctx.authz.scopeOf(clerk.id, 'GET', '/api/report/monthly', 'finance')
    expect(scope).toEqual({ all: false, self: false, orgIds: [org.finance] })
    expect(await t.app.ctx.authz.scopeOf(clerk.id, 'GET', '/api/payroll', 'finance')).toBeNull()
  })
})

describe('what changes the scope shows on the next request', () => {
  it('a role scope change: 本部门及以下 reaches the part below, then the whole subtree is tree:<id>', async () => {
    const res = await admin('PUT', '/api/role/update', {
      id: reportRole,
      roleName: '报表员',
      status: 1,
      dataScope: 4,
    })
    expect(res.status).toBe(200)
    expect((await check(REPORT_CALL)).body.data.scope).toEqual({
      all: false,
      self: false,
      orgIds: [org.finance, org.claims].sort((a, b) => a - b),
    })
    expect((await forward(REPORT_CALL)).headers['x-auth-data-scope']).toBe(`tree:${org.finance}`)
  })

  it('a department move changes the subtree', async () => {
    const moved = await admin('PUT', '/api/org/update', {
      id: org.rnd,
      organizationName: '研发中心',
      parent: org.finance,
    })
    expect(moved.status).toBe(200)
    expect((await check(REPORT_CALL)).body.data.scope.orgIds).toEqual(
      [org.finance, org.claims, org.rnd].sort((a, b) => a - b),
    )
    const [root] = await t.db.select().from(organizations).where(isNull(organizations.parent))
    await admin('PUT', '/api/org/update', { id: org.rnd, organizationName: '研发中心', parent: root.id })
    expect((await check(REPORT_CALL)).body.data.scope.orgIds).toEqual(
      [org.finance, org.claims].sort((a, b) => a - b),
    )
  })

  it('disabling the position drops its department from 3/4 scopes; 仅本人 stays', async () => {
    const off = await admin('PATCH', '/api/position/enable', undefined, { positionId, enable: false })
    expect(off.status).toBe(200)
    expect((await check(REPORT_CALL)).body.data).toEqual({
      allowed: true,
      userId: clerk.id,
      scope: { all: false, self: false, orgIds: [] },
    })
    expect((await forward(REPORT_CALL)).headers['x-auth-data-scope']).toBe('none')
    expect((await check(EXPENSE_CALL)).body.data.scope).toEqual({ all: false, self: true, orgIds: [] })
    await admin('PATCH', '/api/position/enable', undefined, { positionId, enable: true })
    expect((await check(REPORT_CALL)).body.data.scope.orgIds).toContain(org.finance)
  })

  it('a 自定义部门 role: each chosen department with everything below it, united with the others', async () => {
    const res = await admin('PUT', '/api/role/update', {
      id: expenseRole,
      roleName: '报销员',
      status: 1,
      dataScope: 2,
      scopeOrgIds: [org.finance, org.rnd],
    })
    expect(res.status).toBe(200)
    expect((await check(EXPENSE_CALL)).body.data.scope).toEqual({
      all: false,
      self: false,
      orgIds: [org.finance, org.claims, org.rnd].sort((a, b) => a - b),
    })
    // a chosen department deleted takes its row with it, and the scope follows
    // written behind the server's back: the trigger's notification reaches it (on PostgreSQL a moment later)
    await t.db.delete(organizations).where(eq(organizations.id, org.rnd))
    await expect
      .poll(async () => (await check(EXPENSE_CALL)).body.data.scope.orgIds)
      .toEqual([org.finance, org.claims].sort((a, b) => a - b))
    const detail = await admin('GET', '/api/role/detail', undefined, { id: expenseRole })
    expect([detail.body.data.dataScope, detail.body.data.scopeOrgIds]).toEqual([2, [org.finance]])
  })
})

describe('role calls carry dataScope and scopeOrgIds (DESIGN.md §13)', () => {
  it('insert, detail and listall: default 1, and 2 with its departments', async () => {
    const plain = await admin('POST', '/api/role/insert', { roleName: '范围默认' })
    const detail = await admin('GET', '/api/role/detail', undefined, { id: plain.body.data })
    expect([detail.body.data.dataScope, detail.body.data.scopeOrgIds]).toEqual([1, []])
    const custom = await admin('POST', '/api/role/insert', {
      roleName: '范围自定义',
      dataScope: 2,
      scopeOrgIds: [org.claims, org.finance, org.claims],
    })
    expect(custom.status).toBe(200)
    const list = await admin('POST', '/api/role/listall', { roleName: '范围自定义' })
    expect(
      list.body.data.list.map((r: { dataScope: number; scopeOrgIds: number[] }) => [
        r.dataScope,
        r.scopeOrgIds,
      ]),
    ).toEqual([[2, [org.finance, org.claims].sort((a, b) => a - b)]])
    // another scope keeps no departments
    await admin('PUT', '/api/role/update', {
      id: custom.body.data,
      roleName: '范围自定义',
      status: 1,
      dataScope: 3,
    })
    const after = await admin('GET', '/api/role/detail', undefined, { id: custom.body.data })
    expect([after.body.data.dataScope, after.body.data.scopeOrgIds]).toEqual([3, []])
    // an update without dataScope leaves the stored scope as it is
    await admin('PUT', '/api/role/update', { id: custom.body.data, roleName: '范围自定义2', status: 1 })
    expect(
      (await admin('GET', '/api/role/detail', undefined, { id: custom.body.data })).body.data.dataScope,
    ).toBe(3)
  })

  it('an unknown department is 400 with its id, and nothing changes', async () => {
    const before = await t.db.select().from(roles).where(eq(roles.id, reportRole))
    const bad = await admin('PUT', '/api/role/update', {
      id: reportRole,
      roleName: '报表员改',
      status: 1,
      dataScope: 2,
      scopeOrgIds: [org.finance, 999999],
    })
    expect([bad.status, bad.body.msg]).toEqual([400, unknownScopeOrgs([999999])])
    expect(await t.db.select().from(roles).where(eq(roles.id, reportRole))).toEqual(before)
    const insert = await admin('POST', '/api/role/insert', {
      roleName: '范围坏部门',
      dataScope: 2,
      scopeOrgIds: [999998],
    })
    expect([insert.status, insert.body.msg]).toEqual([400, unknownScopeOrgs([999998])])
    expect(await t.db.select().from(roles).where(eq(roles.roleName, '范围坏部门'))).toEqual([])
  })

  it('bad scopes are 400 with a Chinese message, never a 500', async () => {
    const cases: [unknown, string][] = [
      [{ dataScope: 7 }, MSG.dataScopeInvalid],
      [{ dataScope: '全部' }, MSG.dataScopeInvalid],
      [{ dataScope: 2 }, MSG.scopeOrgIdsRequired],
      [{ dataScope: 2, scopeOrgIds: [] }, MSG.scopeOrgIdsRequired],
      [{ dataScope: 2, scopeOrgIds: 'abc' }, MSG.scopeOrgIdsInvalid],
    ]
    for (const [extra, msg] of cases) {
      const res = await admin('POST', '/api/role/insert', { roleName: '范围校验', ...(extra as object) })
      expect([res.status, res.body.msg]).toEqual([400, msg])
    }
    const huge = await admin('POST', '/api/role/insert', {
      roleName: '范围校验',
      dataScope: 2,
      scopeOrgIds: [2 ** 40],
    })
    expect(huge.status).toBe(400)
    expect(huge.body.msg).toMatch(/scopeOrgIds/)
  })

  it('a super-admin role stays 全部数据 whatever is asked', async () => {
    const res = await admin('POST', '/api/role/admin/insert', { roleName: '范围超管', type: 1, dataScope: 5 })
    expect(res.status).toBe(200)
    const detail = await admin('GET', '/api/role/detail', undefined, { id: res.body.data })
    expect(detail.body.data.dataScope).toBe(1)
  })

  it('the operation log records the scope and the departments like other role fields', async () => {
    const id = (await admin('POST', '/api/role/insert', { roleName: '范围日志' })).body.data
    await admin('PUT', '/api/role/update', {
      id,
      roleName: '范围日志',
      status: 1,
      dataScope: 2,
      scopeOrgIds: [org.finance],
    })
    const [row] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    const detail = await admin('GET', '/api/log/operation/detail', undefined, { id: row.id })
    const changes = detail.body.data.changes as AuditChange[]
    expect(changes).toContainEqual(expect.objectContaining({ field: 'dataScope', before: 1, after: 2 }))
    expect(changes).toContainEqual(
      expect.objectContaining({
        field: 'links',
        added: [{ type: 'org', id: org.finance, name: '财务部' }],
        removed: [],
      }),
    )
  })
})

describe('no escalation covers reach (DESIGN.md §13): a role is given scopes only within the caller reach', () => {
  /** 财务管理员: manages roles, and reads 报表 for 财务部 and below (本部门及以下, position 财务部-会计) */
  let manager: { id: number; token: string }
  let sales = 0
  let salesClerk = 0
  let claimsClerk = 0

  beforeAll(async () => {
    const db = t.db
    const [root] = await db.select().from(organizations).where(isNull(organizations.parent))
    sales = (
      await db
        .insert(organizations)
        .values({ organizationName: '销售部', parent: root.id })
        .returning({ id: organizations.id })
    )[0].id
    const [station] = await db.insert(stations).values({ stationName: '专员' }).returning({ id: stations.id })
    const position = async (orgId: number) =>
      (await db.insert(positions).values({ orgId, stationId: station.id }).returning({ id: positions.id }))[0]
        .id
    const holder = async (orgId: number) => {
      const u = await t.userWithCodes([])
      await db.insert(positionUsers).values({ positionId: await position(orgId), userId: u.id })
      return u.id
    }
    salesClerk = await holder(sales)
    claimsClerk = await holder(org.claims)
    const m = await t.userWithCodes(['role', 'role:add', 'role:edit', 'fin:report'], 'scope_manager')
    await db.update(roles).set({ dataScope: 4 }).where(eq(roles.id, m.roleId))
    await db.insert(positionUsers).values({ positionId, userId: m.id })
    manager = m
  })

  const asManager = (method: string, url: string, body: unknown) =>
    t.call(method, url, { token: manager.token, body })
  const refusal = (name: string, scope: string) => `${BEYOND_POWER_PREFIX}${name}（${scope}）`
  const linkTo = async (roleId: number, userId: number) => {
    await t.db.insert(userRoles).values({ userId, roleId })
  }

  it('全部数据 only by a holder of 全部数据', async () => {
    const res = await asManager('POST', '/api/role/insert', {
      roleName: '越权全部',
      authCodes: ['fin:report'],
    })
    expect([res.status, res.body.msg]).toEqual([403, refusal('报表', '全部数据')])
    expect(await t.db.select().from(roles).where(eq(roles.roleName, '越权全部'))).toEqual([])
    const bySuper = await admin('POST', '/api/role/insert', {
      roleName: '超管全部',
      authCodes: ['fin:report'],
    })
    expect(bySuper.status).toBe(200)
  })

  it('自定义部门 only for departments (with their subtrees) within the caller scope', async () => {
    const inside = await asManager('POST', '/api/role/insert', {
      roleName: '自定义内',
      authCodes: ['fin:report'],
      dataScope: 2,
      scopeOrgIds: [org.claims],
    })
    expect(inside.status).toBe(200)
    const outside = await asManager('POST', '/api/role/insert', {
      roleName: '自定义外',
      authCodes: ['fin:report'],
      dataScope: 2,
      scopeOrgIds: [org.claims, sales],
    })
    expect([outside.status, outside.body.msg]).toEqual([403, refusal('报表', '自定义部门')])
    const widen = await asManager('PUT', '/api/role/update', {
      id: inside.body.data,
      roleName: '自定义内',
      status: 1,
      scopeOrgIds: [sales],
    })
    expect(widen.status).toBe(403)
    const detail = await admin('GET', '/api/role/detail', undefined, { id: inside.body.data })
    expect(detail.body.data.scopeOrgIds).toEqual([org.claims])
  })

  it('本部门及以下 only when the caller reaches the whole subtree below each holder', async () => {
    const made = await asManager('POST', '/api/role/insert', {
      roleName: '本部门报表',
      authCodes: ['fin:report'],
      dataScope: 3,
    })
    expect(made.status).toBe(200)
    const roleId = made.body.data as number
    await linkTo(roleId, claimsClerk)
    const widened = await asManager('PUT', '/api/role/update', {
      id: roleId,
      roleName: '本部门报表',
      status: 1,
      dataScope: 4,
    })
    expect(widened.status).toBe(200)
    // a holder in 销售部, outside the caller reach: 本部门及以下 and 本部门 both refused
    await linkTo(roleId, salesClerk)
    const again = await asManager('PUT', '/api/role/update', {
      id: roleId,
      roleName: '本部门报表',
      status: 1,
      dataScope: 3,
    })
    expect([again.status, again.body.msg]).toEqual([403, refusal('报表', '本部门')])
    const self = await asManager('PUT', '/api/role/update', {
      id: roleId,
      roleName: '本部门报表',
      status: 1,
      dataScope: 5,
    })
    expect([self.status, self.body.msg]).toEqual([403, refusal('报表', '仅本人')])
    expect((await admin('GET', '/api/role/detail', undefined, { id: roleId })).body.data.dataScope).toBe(4)
  })

  it('adding a permission gives it with the role scope; a change that gives nothing new passes', async () => {
    const wide = await admin('POST', '/api/role/insert', { roleName: '全部空角色' })
    const add = await asManager('PUT', '/api/role/update', {
      id: wide.body.data,
      roleName: '全部空角色',
      status: 1,
      authCodes: ['fin:report'],
    })
    expect([add.status, add.body.msg]).toEqual([403, refusal('报表', '全部数据')])
    const rename = await asManager('PUT', '/api/role/update', {
      id: wide.body.data,
      roleName: '全部空角色改名',
      status: 1,
      authCodes: [],
    })
    expect(rename.status).toBe(200)
    // the super admin passes every reach
    const bySuper = await admin('PUT', '/api/role/update', {
      id: wide.body.data,
      roleName: '全部空角色改名',
      status: 1,
      authCodes: ['fin:report'],
      dataScope: 2,
      scopeOrgIds: [sales],
    })
    expect(bySuper.status).toBe(200)
  })
})
