import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { eq } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, MSG } from '@amg/contract'
import { positions, roles, userGroups, users } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'

/**
 * No escalation covers reach on every grant path (DESIGN.md §13), beyond the links: switching a
 * group, a position or a role on, creating a group with members and roles, creating a user into
 * positions. And deleting a role takes it from everyone who holds it, so all of them must lie in
 * the caller's scope. The department administrator reaches 研发中心 and below (A, A1, A2).
 */

let t: TestApp
let c: ScopedCompany
const role: Record<'all' | 'tree' | 'own', number> = {} as never

const asAdmin = (method: string, url: string, body?: unknown) =>
  t.call(method, url, { token: t.adminToken, body })
const asScoped = (method: string, url: string, body?: unknown) =>
  t.call(method, url, { token: c.scoped.token, body })

async function ok(res: Awaited<ReturnType<TestApp['call']>>) {
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data
}

function refusedBeyondReach(res: Awaited<ReturnType<TestApp['call']>>) {
  expect(res.status, res.body.msg).toBe(403)
  expect(res.body.msg.startsWith(BEYOND_POWER_PREFIX), res.body.msg).toBe(true)
}

const statusOf = async (table: typeof userGroups | typeof positions | typeof roles, id: number) =>
  (await t.db.select({ status: table.status }).from(table).where(eq(table.id, id)))[0]?.status

beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
  const make = async (roleName: string, dataScope: number) =>
    (await ok(
      await asAdmin('POST', '/api/role/insert', { roleName, authCodes: ['access', 'user'], dataScope }),
    )) as number
  role.all = await make('全部用户', 1)
  role.tree = await make('本部门及以下用户', 4)
  role.own = await make('本部门用户', 3)
})
afterAll(async () => t.close())

async function disabledGroup(groupName: string, roleId: number, userIds: number[]) {
  return (await ok(
    await asAdmin('POST', '/api/user_groups/insert', {
      groupName,
      status: 2,
      description: '',
      roleIds: String(roleId),
      userIds: userIds.join(','),
    }),
  )) as number
}

describe('enabling is a grant path', () => {
  it('a group whose role reaches beyond the caller stays disabled, by either call', async () => {
    const group = await disabledGroup('全部数据停用组', role.all, [c.inside])
    refusedBeyondReach(await asScoped('PATCH', `/api/user_groups/enable?userGroupsId=${group}&enable=true`))
    refusedBeyondReach(
      await asScoped('PUT', '/api/user_groups/update', { id: group, groupName: '全部数据停用组', status: 1 }),
    )
    expect(await statusOf(userGroups, group)).toBe(2)
  })

  it('a group whose role lies within reach is enabled', async () => {
    const group = await disabledGroup('研发停用组', role.tree, [c.inside])
    await ok(await asScoped('PATCH', `/api/user_groups/enable?userGroupsId=${group}&enable=true`))
    expect(await statusOf(userGroups, group)).toBe(1)
    // disabling takes nothing the reach rule guards
    await ok(await asScoped('PATCH', `/api/user_groups/enable?userGroupsId=${group}&enable=false`))
    expect(await statusOf(userGroups, group)).toBe(2)
  })

  it('a position carrying a role beyond reach stays disabled', async () => {
    await ok(await asAdmin('PATCH', `/api/position/enable?positionId=${c.posA2}&enable=false`))
    await ok(
      await asAdmin('PUT', '/api/rel/position-rel-role', { positionId: c.posA2, roleIds: String(role.all) }),
    )
    await ok(
      await asAdmin('PUT', '/api/rel/position-rel-user', { positionId: c.posA2, userIds: String(c.inside) }),
    )
    refusedBeyondReach(await asScoped('PATCH', `/api/position/enable?positionId=${c.posA2}&enable=true`))
    expect(await statusOf(positions, c.posA2)).toBe(2)
    await ok(
      await asAdmin('PUT', '/api/rel/position-un-rel-role', {
        positionId: c.posA2,
        roleIds: String(role.all),
      }),
    )
    await ok(await asScoped('PATCH', `/api/position/enable?positionId=${c.posA2}&enable=true`))
    expect(await statusOf(positions, c.posA2)).toBe(1)
  })

  it('a position whose holder straddles lends their 本部门 role a department beyond reach', async () => {
    // the straddler (A1 and B) holds 本部门 directly; enabling A2 for them is judged with B among their departments
    await ok(await asAdmin('PUT', '/api/rel/user-rel-role', { id: c.straddler, roleIds: String(role.own) }))
    await ok(await asAdmin('PATCH', `/api/position/enable?positionId=${c.posA2}&enable=false`))
    await ok(
      await asAdmin('PUT', '/api/rel/position-rel-user', {
        positionId: c.posA2,
        userIds: String(c.straddler),
      }),
    )
    refusedBeyondReach(await asScoped('PATCH', `/api/position/enable?positionId=${c.posA2}&enable=true`))
    expect(await statusOf(positions, c.posA2)).toBe(2)
    await ok(
      await asAdmin('PUT', '/api/rel/position-un-rel-user', {
        positionId: c.posA2,
        userIds: String(c.straddler),
      }),
    )
    await ok(await asScoped('PATCH', `/api/position/enable?positionId=${c.posA2}&enable=true`))
  })

  it('a role of 全部数据 held by a user inside stays disabled; one of 本部门及以下 is enabled', async () => {
    const disabled = async (id: number, roleName: string) => {
      await ok(await asAdmin('PUT', '/api/role/update', { id, roleName, status: 2 }))
      await ok(await asAdmin('PUT', '/api/rel/user-rel-role', { id: c.inside, roleIds: String(id) }))
    }
    await disabled(role.all, '全部用户')
    refusedBeyondReach(
      await asScoped('PUT', '/api/role/update', { id: role.all, roleName: '全部用户', status: 1 }),
    )
    expect(await statusOf(roles, role.all)).toBe(2)
    await disabled(role.tree, '本部门及以下用户')
    await ok(
      await asScoped('PUT', '/api/role/update', { id: role.tree, roleName: '本部门及以下用户', status: 1 }),
    )
    expect(await statusOf(roles, role.tree)).toBe(1)
  })
})

describe('creating is a grant path', () => {
  it('a new group gives its roles to its members only within reach', async () => {
    const body = (groupName: string, roleId: number) => ({
      groupName,
      status: 1,
      description: '',
      roleIds: String(roleId),
      userIds: String(c.inside),
    })
    refusedBeyondReach(await asScoped('POST', '/api/user_groups/insert', body('越权新组', role.all)))
    expect(await t.db.select().from(userGroups).where(eq(userGroups.groupName, '越权新组'))).toEqual([])
    await ok(await asScoped('POST', '/api/user_groups/insert', body('研发新组', role.tree)))
  })

  it('a new user is placed only into positions whose roles lie within reach', async () => {
    await ok(
      await asAdmin('PUT', '/api/rel/position-rel-role', { positionId: c.posA1, roleIds: String(role.all) }),
    )
    refusedBeyondReach(
      await asScoped('POST', '/api/user/insert', { nickName: 'new_beyond', positionIds: [c.posA1] }),
    )
    expect(await t.db.select().from(users).where(eq(users.nickName, 'new_beyond'))).toEqual([])
    await ok(
      await asAdmin('PUT', '/api/rel/position-un-rel-role', {
        positionId: c.posA1,
        roleIds: String(role.all),
      }),
    )
    await ok(await asScoped('POST', '/api/user/insert', { nickName: 'new_within', positionIds: [c.posA1] }))
  })

  it("reads the caller's access once in each of these changes, for its power check and its reach check", async () => {
    const n = Date.now().toString(36) // a retry's names are new
    const group = await disabledGroup(`读取一次组${n}`, role.tree, [c.inside])
    const changes: [string, string, unknown?][] = [
      ['PATCH', `/api/user_groups/enable?userGroupsId=${group}&enable=true`],
      ['PUT', '/api/user_groups/update', { id: group, groupName: `读取一次组${n}`, status: 2 }],
      ['PUT', '/api/user_groups/update', { id: group, groupName: `读取一次组${n}`, status: 1 }],
      ['PATCH', `/api/position/enable?positionId=${c.posA2}&enable=true`],
      ['POST', '/api/user/insert', { nickName: `read_once_${n}`, positionIds: [c.posA1] }],
      [
        'POST',
        '/api/user_groups/insert',
        {
          groupName: `读取一次新组${n}`,
          status: 1,
          description: '',
          roleIds: String(role.tree),
          userIds: String(c.inside),
        },
      ],
    ]
    const resolve = vi.spyOn(t.app.ctx.authz, 'resolve')
    try {
      for (const [method, url, body] of changes) {
        resolve.mockClear()
        const res = await asScoped(method, url, body)
        expect([method, url, res.status, res.body.msg]).toEqual([method, url, 200, expect.any(String)])
        const inTransaction = resolve.mock.calls.filter(([id, tx]) => id === c.scoped.id && tx !== undefined)
        expect([method, url, inTransaction.length]).toEqual([method, url, 1])
      }
    } finally {
      resolve.mockRestore()
    }
  })
})

describe('deleting a role', () => {
  const roleHeldBy = async (roleName: string, link: (id: number) => Promise<void>) => {
    const id = (await ok(
      await asAdmin('POST', '/api/role/insert', { roleName, authCodes: ['access'], dataScope: 4 }),
    )) as number
    await link(id)
    return id
  }
  const exists = async (id: number) => (await t.db.select().from(roles).where(eq(roles.id, id))).length === 1

  it('is refused while anyone outside the scope holds it, directly or through a group', async () => {
    const direct = await roleHeldBy('销售持有', async (id) => {
      await ok(await asAdmin('PUT', '/api/rel/user-rel-role', { id: c.outside, roleIds: String(id) }))
    })
    const viaGroup = await roleHeldBy('全公司群持有', async (id) => {
      await ok(
        await asAdmin('PUT', '/api/rel/user-groups-rel-role', { userGroupsId: c.group, roleIds: String(id) }),
      )
    })
    const straddled = await roleHeldBy('跨部门持有', async (id) => {
      await ok(await asAdmin('PUT', '/api/rel/user-rel-role', { id: c.straddler, roleIds: String(id) }))
    })
    for (const id of [direct, viaGroup, straddled]) {
      const res = await asScoped('DELETE', `/api/role/delete?id=${id}`)
      expect(res.status, res.body.msg).toBe(403)
      expect(res.body.msg).toBe(MSG.userOutOfScope)
      expect(await exists(id)).toBe(true)
    }
    // the super admin's scope is everything
    await ok(await asAdmin('DELETE', `/api/role/delete?id=${direct}`))
    expect(await exists(direct)).toBe(false)
  })

  it('goes through when every holder lies in scope, or no one holds it', async () => {
    const inside = await roleHeldBy('研发持有', async (id) => {
      await ok(await asAdmin('PUT', '/api/rel/user-rel-role', { id: c.inside, roleIds: String(id) }))
    })
    const unheld = await roleHeldBy('无人持有', async () => {})
    await ok(await asScoped('DELETE', `/api/role/delete?id=${inside}`))
    await ok(await asScoped('DELETE', `/api/role/delete?id=${unheld}`))
    expect(await exists(inside)).toBe(false)
    expect(await exists(unheld)).toBe(false)
  })
})
