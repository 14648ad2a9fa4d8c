import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, isNull } from 'drizzle-orm'
import { organizations, positions, positionUsers, stations } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * 管理范围 (DESIGN.md §13): GET /user/current names the reach of the user list call for a scoped
 * administrator by its top departments, and nothing for one who reaches all data or cannot list users.
 */

let t: TestApp
const org: Record<string, number> = {}

beforeAll(async () => {
  t = await createTestApp()
  const [root] = await t.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(isNull(organizations.parent))
  const add = async (name: string, parent: number) =>
    (
      await t.db
        .insert(organizations)
        .values({ organizationName: name, parent })
        .returning({ id: organizations.id })
    )[0].id
  org.center = await add('研发中心', root.id)
  org.front = await add('前端组', org.center)
  org.back = await add('后端组', org.center)
  org.sales = await add('销售部', root.id)
})
afterAll(async () => t.close())

/** A user holding `codes` through a role of this scope, placed in `orgId` through a position. */
async function scopedUser(
  name: string,
  codes: string[],
  dataScope: number,
  orgId?: number,
  scopeOrgIds?: number[],
) {
  const user = await t.userWithCodes(codes, name)
  const update = await t.call('PUT', '/api/role/update', {
    token: t.adminToken,
    body: { id: user.roleId, roleName: `${name}角色`, status: 1, authCodes: codes, dataScope, scopeOrgIds },
  })
  expect(update.status, update.body.msg).toBe(200)
  if (orgId !== undefined) {
    const [station] = await t.db
      .insert(stations)
      .values({ stationName: `${name}职位` })
      .returning({ id: stations.id })
    const [position] = await t.db
      .insert(positions)
      .values({ orgId, stationId: station.id })
      .returning({ id: positions.id })
    await t.db.insert(positionUsers).values({ positionId: position.id, userId: user.id })
  }
  return user
}

const current = async (token: string) => {
  const res = await t.call('GET', '/api/user/current', { token })
  expect(res.status).toBe(200)
  return res.body.data.manageScope
}

describe('manageScope of /user/current', () => {
  it('本部门及以下: the own department with 含下级', async () => {
    const u = await scopedUser('ms_tree', ['access', 'user'], 4, org.center)
    expect(await current(u.token)).toEqual({
      self: false,
      roots: [{ id: org.center, name: '研发中心', withSubtree: true }],
    })
  })

  it('本部门: the department alone, not what is below it', async () => {
    const u = await scopedUser('ms_own', ['access', 'user'], 3, org.center)
    expect(await current(u.token)).toEqual({
      self: false,
      roots: [{ id: org.center, name: '研发中心', withSubtree: false }],
    })
  })

  it('自定义部门 over two branches names both tops; 仅本人 says self', async () => {
    const custom = await scopedUser('ms_custom', ['access', 'user'], 2, undefined, [org.front, org.sales])
    const roots = (await current(custom.token)).roots
    expect(roots).toEqual(
      [
        { id: org.front, name: '前端组', withSubtree: false },
        { id: org.sales, name: '销售部', withSubtree: false },
      ].sort((a, b) => a.id - b.id),
    )
    const self = await scopedUser('ms_self', ['access', 'user'], 5, org.sales)
    expect(await current(self.token)).toEqual({ self: true, roots: [] })
  })

  it('nothing for the super admin, a 全部数据 role, or a user who cannot list users', async () => {
    expect(await current(t.adminToken)).toBeNull()
    const all = await scopedUser('ms_all', ['access', 'user'], 1, org.center)
    expect(await current(all.token)).toBeNull()
    const noUsers = await scopedUser('ms_none', ['organization', 'org'], 4, org.center)
    expect(await current(noUsers.token)).toBeNull()
  })

  it('follows a department move on the next request', async () => {
    const u = await scopedUser('ms_move', ['access', 'user'], 4, org.sales)
    expect((await current(u.token)).roots).toEqual([{ id: org.sales, name: '销售部', withSubtree: false }])
    // written behind the server's back: the trigger's notification reaches it (on PostgreSQL a moment later)
    await t.db.update(organizations).set({ parent: org.sales }).where(eq(organizations.id, org.back))
    await expect
      .poll(async () => (await current(u.token)).roots)
      .toEqual([{ id: org.sales, name: '销售部', withSubtree: true }])
  })
})
