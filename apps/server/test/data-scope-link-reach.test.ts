import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX } from '@amg/contract'
import {
  positionRoles,
  positionUsers,
  roles,
  userGroupRoles,
  userGroupUsers,
  userRoles,
} from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'

/**
 * No escalation covers reach on the link paths (DESIGN.md §13): a department administrator (本部门及以下
 * on 研发中心) links a role whose scope lies within their reach, and is refused, with nothing changed,
 * a role of 全部数据 or of departments outside it, whichever link gives it (to a user, through a group
 * or a position, to a group's members, to a position's holders).
 */

let t: TestApp
let c: ScopedCompany
const role: Record<'all' | 'tree' | 'customB' | 'own', number> = {} as never

beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
  // four roles of a permission the administrator holds (用户管理), one per scope
  const make = async (roleName: string, dataScope: number, scopeOrgIds: number[] = []) => {
    const res = await t.call('POST', '/api/role/insert', {
      token: t.adminToken,
      body: { roleName, authCodes: ['access', 'user'], dataScope, scopeOrgIds },
    })
    expect(res.status, res.body.msg).toBe(200)
    return res.body.data as number
  }
  role.all = await make('全部用户', 1)
  role.tree = await make('本部门及以下用户', 4)
  role.customB = await make('销售部用户', 2, [c.orgB])
  role.own = await make('本部门用户', 3)
})
afterAll(async () => t.close())

const linkRows = async () =>
  JSON.stringify(
    await Promise.all([
      t.db.select().from(userRoles).orderBy(userRoles.userId, userRoles.roleId),
      t.db.select().from(userGroupRoles).orderBy(userGroupRoles.groupId, userGroupRoles.roleId),
      t.db.select().from(userGroupUsers).orderBy(userGroupUsers.groupId, userGroupUsers.userId),
      t.db.select().from(positionRoles).orderBy(positionRoles.positionId, positionRoles.roleId),
      t.db.select().from(positionUsers).orderBy(positionUsers.positionId, positionUsers.userId),
    ]),
  )

async function asScoped(method: string, url: string, body: unknown) {
  return t.call(method, url, { token: c.scoped.token, body })
}

async function expectRefused(method: string, url: string, body: unknown) {
  const before = await linkRows()
  const res = await asScoped(method, url, body)
  expect(res.status, res.body.msg).toBe(403)
  expect(res.body.msg.startsWith(BEYOND_POWER_PREFIX)).toBe(true)
  expect(await linkRows()).toBe(before)
}

describe('reach on the link paths', () => {
  it('a role within reach links to a user inside; 全部数据 and another department’s are refused', async () => {
    const ok = await asScoped('PUT', '/api/rel/user-rel-role', { id: c.inside, roleIds: String(role.tree) })
    expect(ok.status, ok.body.msg).toBe(200)
    const own = await asScoped('PUT', '/api/rel/user-rel-role', { id: c.inside, roleIds: String(role.own) })
    expect(own.status, own.body.msg).toBe(200)
    await expectRefused('PUT', '/api/rel/user-rel-role', { id: c.inside, roleIds: String(role.all) })
    await expectRefused('PUT', '/api/rel/user-rel-role', { id: c.inside, roleIds: String(role.customB) })
  })

  it('a group or a position carrying a role beyond reach cannot be joined', async () => {
    const [group] = await t.db
      .insert(userGroupRoles)
      .values({ groupId: c.group, roleId: role.all })
      .returning({ groupId: userGroupRoles.groupId })
    await t.db.insert(positionRoles).values({ positionId: c.posA2, roleId: role.all })
    t.app.ctx.changes.dropAll()
    await expectRefused('PUT', '/api/rel/user-rel-position', { id: c.inside, positionIds: String(c.posA2) })
    // the group already holds users outside the scope, so joining it is refused for that reason or
    // for reach; a fresh group with the same role shows reach alone
    const fresh = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: '全部数据组', status: 1, description: '', roleIds: String(role.all), userIds: '' },
    })
    expect(fresh.status, fresh.body.msg).toBe(200)
    await expectRefused('PUT', '/api/rel/user-groups-rel-user', {
      userGroupsId: fresh.body.data,
      userIds: String(c.inside),
    })
    expect(group.groupId).toBe(c.group)
  })

  it('a role beyond reach cannot be given to the holders of a position or the members of a group', async () => {
    await expectRefused('PUT', '/api/rel/position-rel-role', {
      positionId: c.posA1,
      roleIds: String(role.all),
    })
    const group = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: '研发小组', status: 1, description: '', roleIds: '', userIds: String(c.inside) },
    })
    expect(group.status, group.body.msg).toBe(200)
    await expectRefused('PUT', '/api/rel/user-groups-rel-role', {
      userGroupsId: group.body.data,
      roleIds: String(role.customB),
    })
    const within = await asScoped('PUT', '/api/rel/user-groups-rel-role', {
      userGroupsId: group.body.data,
      roleIds: String(role.tree),
    })
    expect(within.status, within.body.msg).toBe(200)
  })

  it('the super admin links any scope', async () => {
    const res = await t.call('PUT', '/api/rel/user-rel-role', {
      token: t.adminToken,
      body: { id: c.outside, roleIds: String(role.all) },
    })
    expect(res.status, res.body.msg).toBe(200)
    const held = await t.db.select().from(userRoles).where(eq(userRoles.userId, c.outside))
    expect(held.map((r) => r.roleId)).toContain(role.all)
    const [{ n }] = await t.db.select({ n: sql<number>`count(*)::int` }).from(roles)
    expect(n).toBeGreaterThan(4)
  })
})
