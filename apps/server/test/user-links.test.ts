import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { eq, isNull } from 'drizzle-orm'
import {
  organizations,
  positionRoles,
  positions,
  positionUsers,
  roleAuths,
  roles,
  stations,
  userGroupRoles,
  userGroups,
  userGroupUsers,
  userRoles,
  users,
} from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'

let t: TestApp
let userId: number
let rootOrg: { id: number; name: string }
beforeAll(async () => {
  t = await createTestApp()
  const res = await t.call('POST', '/api/user/insert', { token: t.adminToken, body: { nickName: 'linked' } })
  userId = res.body.data
  const [root] = await t.db.select().from(organizations).where(isNull(organizations.parent))
  rootOrg = { id: root.id, name: root.organizationName }
})
afterAll(async () => t.close())

const put = (url: string, body: unknown, token = t.adminToken) => t.call('PUT', url, { token, body })
const listOf = (url: string, query: Record<string, string | number | undefined>, token = t.adminToken) =>
  t.call('POST', url, { token, query })

async function addRole(roleName: string, type = 3, status = 1) {
  const [r] = await t.db
    .insert(roles)
    .values({ roleName, type, status, description: `${roleName} desc` })
    .returning()
  return r.id
}
async function addGroup(groupName: string, status = 1) {
  const [g] = await t.db
    .insert(userGroups)
    .values({ groupName, status, description: `${groupName} desc` })
    .returning()
  return g.id
}
async function addOrg(organizationName: string, parent: number) {
  const [o] = await t.db.insert(organizations).values({ organizationName, parent }).returning()
  return o.id
}
async function addStation(stationName: string) {
  const [s] = await t.db.insert(stations).values({ stationName }).returning()
  return s.id
}
async function addPosition(orgId: number, stationId: number, status = 1) {
  const [p] = await t.db.insert(positions).values({ orgId, stationId, status }).returning()
  return p.id
}
const roleLinks = async (uid = userId) =>
  (await t.db.select().from(userRoles).where(eq(userRoles.userId, uid)))
    .map((r) => r.roleId)
    .sort((a, b) => a - b)
const groupLinks = async (uid = userId) =>
  (await t.db.select().from(userGroupUsers).where(eq(userGroupUsers.userId, uid)))
    .map((r) => r.groupId)
    .sort((a, b) => a - b)
const positionLinks = async (uid = userId) =>
  (await t.db.select().from(positionUsers).where(eq(positionUsers.userId, uid)))
    .map((r) => r.positionId)
    .sort((a, b) => a - b)

describe('user ↔ role', () => {
  let r1: number, r2: number, r3: number
  beforeAll(async () => {
    r1 = await addRole('ur_role_1')
    r2 = await addRole('ur_role_2', 2, 2)
    r3 = await addRole('ur_other_3')
  })

  it('links comma-joined roles; linking twice is harmless', async () => {
    const res = await put('/api/rel/user-rel-role', { id: userId, roleIds: `${r1}, ${r2}` })
    expect(res.status).toBe(200)
    expect(res.body.data).toBeNull()
    expect(await roleLinks()).toEqual([r1, r2])
    expect((await put('/api/rel/user-rel-role', { id: userId, roleIds: `${r2},${r1},${r2}` })).status).toBe(
      200,
    )
    expect(await roleLinks()).toEqual([r1, r2])
  })

  it('lists the linked roles with total, paging and a name filter', async () => {
    const all = await listOf('/api/rel/user/rolelist', { userId, pageNum: 1, pageSize: 10 })
    expect(all.status).toBe(200)
    expect(all.body.data.total).toBe(2)
    expect(all.body.data.list).toEqual([
      { id: r1, roleName: 'ur_role_1', type: 3, status: 1, description: 'ur_role_1 desc', expiresAt: null },
      { id: r2, roleName: 'ur_role_2', type: 2, status: 2, description: 'ur_role_2 desc', expiresAt: null },
    ])
    const second = await listOf('/api/rel/user/rolelist', { userId, pageNum: 2, pageSize: 1 })
    expect(second.body.data).toEqual({ total: 2, list: [expect.objectContaining({ id: r2 })] })
    const beyond = await listOf('/api/rel/user/rolelist', { userId, pageNum: 3, pageSize: 1 })
    expect(beyond.body.data).toEqual({ total: 2, list: [] })
    const filtered = await listOf('/api/rel/user/rolelist', {
      userId,
      pageNum: 1,
      pageSize: 10,
      roleName: 'ROLE_2',
    })
    expect(filtered.body.data.total).toBe(1)
    expect(filtered.body.data.list[0].id).toBe(r2)
  })

  it('refuses unknown and malformed ids, changing nothing', async () => {
    const unknownRole = await put('/api/rel/user-rel-role', { id: userId, roleIds: `${r3},999999` })
    expect(unknownRole.status).toBe(404)
    expect(unknownRole.body.msg).toBe('角色不存在：999999')
    expect(await roleLinks()).toEqual([r1, r2])
    const unknownUser = await put('/api/rel/user-rel-role', { id: 999999, roleIds: `${r3}` })
    expect(unknownUser.status).toBe(404)
    expect(unknownUser.body.msg).toBe('用户不存在')
    const malformed = await put('/api/rel/user-rel-role', { id: userId, roleIds: `${r3},abc` })
    expect(malformed.status).toBe(400)
    expect(malformed.body.msg).toContain('角色ID格式不正确')
    const empty = await put('/api/rel/user-rel-role', { id: userId, roleIds: '' })
    expect(empty.status).toBe(400)
    expect(empty.body.msg).toBe('请选择要关联的角色')
    expect((await put('/api/rel/user-rel-role', { id: userId })).status).toBe(400)
    expect(await roleLinks()).toEqual([r1, r2])
    expect(
      (await listOf('/api/rel/user/rolelist', { userId: 999999, pageNum: 1, pageSize: 10 })).status,
    ).toBe(404)
    expect((await listOf('/api/rel/user/rolelist', { pageNum: 1, pageSize: 10 })).status).toBe(400)
  })

  it('unlinks one role; unlinking what is not linked is harmless', async () => {
    expect((await put('/api/rel/user-un-rel-role', { userId, roleId: r1 })).status).toBe(200)
    expect(await roleLinks()).toEqual([r2])
    expect((await put('/api/rel/user-un-rel-role', { userId, roleId: r1 })).status).toBe(200)
    expect((await put('/api/rel/user-un-rel-role', { userId, roleId: r3 })).status).toBe(200)
    expect(await roleLinks()).toEqual([r2])
    expect((await put('/api/rel/user-un-rel-role', { userId, roleId: 999999 })).status).toBe(404)
    expect((await put('/api/rel/user-un-rel-role', { userId: 999999, roleId: r2 })).status).toBe(404)
    expect((await put('/api/rel/user-un-rel-role', { userId })).status).toBe(400)
  })

  it('only a super admin links or unlinks the super-admin role', async () => {
    const [superRole] = await t.db.select().from(roles).where(eq(roles.type, 1))
    const linker = await t.userWithCodes(['user:role'])
    const res = await put(
      '/api/rel/user-rel-role',
      { id: linker.id, roleIds: String(superRole.id) },
      linker.token,
    )
    expect(res.status).toBe(403)
    expect(await roleLinks(linker.id)).toEqual([linker.roleId])
    const adminId = (await t.db.select().from(users).where(eq(users.nickName, 'admin')))[0].id
    expect(
      (await put('/api/rel/user-un-rel-role', { userId: adminId, roleId: superRole.id }, linker.token))
        .status,
    ).toBe(403)
  })

  it('needs a session and the user:role permission', async () => {
    const body = { id: userId, roleIds: `${r3}` }
    expect((await put('/api/rel/user-rel-role', body, '')).status).toBe(401)
    expect((await listOf('/api/rel/user/rolelist', { userId, pageNum: 1, pageSize: 10 }, '')).status).toBe(
      401,
    )
    const viewer = await t.userWithCodes(['user', 'user:group'])
    expect((await put('/api/rel/user-rel-role', body, viewer.token)).status).toBe(403)
    expect((await put('/api/rel/user-un-rel-role', { userId, roleId: r2 }, viewer.token)).status).toBe(403)
    expect(
      (await listOf('/api/rel/user/rolelist', { userId, pageNum: 1, pageSize: 10 }, viewer.token)).status,
    ).toBe(403)
    expect(await roleLinks()).toEqual([r2])
    const linker = await t.userWithCodes(['user:role'])
    expect((await put('/api/rel/user-rel-role', body, linker.token)).status).toBe(200)
    expect(
      (await listOf('/api/rel/user/rolelist', { userId, pageNum: 1, pageSize: 10 }, linker.token)).body.data
        .total,
    ).toBe(2)
    expect((await put('/api/rel/user-un-rel-role', { userId, roleId: r3 }, linker.token)).status).toBe(200)
    expect(await roleLinks()).toEqual([r2])
  })

  it("reads the caller's access once in the link's transaction, for its power check and its reach check", async () => {
    const linker = await t.userWithCodes(['user:role'])
    const resolve = vi.spyOn(t.app.ctx.authz, 'resolve')
    try {
      expect(
        (await put('/api/rel/user-rel-role', { id: userId, roleIds: `${r3}` }, linker.token)).status,
      ).toBe(200)
      const inTransaction = resolve.mock.calls.filter(([id, tx]) => id === linker.id && tx !== undefined)
      expect(inTransaction).toHaveLength(1)
    } finally {
      resolve.mockRestore()
    }
    expect((await put('/api/rel/user-un-rel-role', { userId, roleId: r3 })).status).toBe(200)
    expect(await roleLinks()).toEqual([r2])
  })
})

describe('user ↔ group', () => {
  let g1: number, g2: number, g3: number
  beforeAll(async () => {
    g1 = await addGroup('ug_group_1')
    g2 = await addGroup('ug_group_2', 2)
    g3 = await addGroup('ug_other_3')
  })

  it('links with greoupIds (SPEC spelling) and with groupIds; twice is harmless', async () => {
    expect((await put('/api/rel/user-rel-groups', { id: userId, greoupIds: `${g1}` })).status).toBe(200)
    expect((await put('/api/rel/user-rel-groups', { id: userId, groupIds: `${g1},${g2}` })).status).toBe(200)
    expect(await groupLinks()).toEqual([g1, g2])
  })

  it('lists the groups with total, paging and a name filter', async () => {
    const all = await listOf('/api/rel/user/grouplist', { userId, pageNum: 1, pageSize: 10 })
    expect(all.status).toBe(200)
    expect(all.body.data).toEqual({
      total: 2,
      list: [
        { id: g1, groupName: 'ug_group_1', status: 1, description: 'ug_group_1 desc', expiresAt: null },
        { id: g2, groupName: 'ug_group_2', status: 2, description: 'ug_group_2 desc', expiresAt: null },
      ],
    })
    expect(
      (await listOf('/api/rel/user/grouplist', { userId, pageNum: 2, pageSize: 1 })).body.data.list[0].id,
    ).toBe(g2)
    expect((await listOf('/api/rel/user/grouplist', { userId, pageNum: 3, pageSize: 1 })).body.data).toEqual({
      total: 2,
      list: [],
    })
    const filtered = await listOf('/api/rel/user/grouplist', {
      userId,
      pageNum: 1,
      pageSize: 10,
      groupName: 'group_1',
    })
    expect(filtered.body.data.total).toBe(1)
  })

  it('refuses unknown and malformed ids, changing nothing', async () => {
    const unknown = await put('/api/rel/user-rel-groups', { id: userId, greoupIds: `${g3},888888` })
    expect(unknown.status).toBe(404)
    expect(unknown.body.msg).toBe('用户组不存在：888888')
    expect((await put('/api/rel/user-rel-groups', { id: userId, greoupIds: '1;2' })).status).toBe(400)
    const none = await put('/api/rel/user-rel-groups', { id: userId })
    expect(none.status).toBe(400)
    expect(none.body.msg).toBe('请选择要关联的用户组')
    expect((await put('/api/rel/user-rel-groups', { id: 999999, greoupIds: `${g3}` })).status).toBe(404)
    expect(await groupLinks()).toEqual([g1, g2])
  })

  it('unlinks; unlinking what is not linked is harmless', async () => {
    expect((await put('/api/rel/user-un-rel-groups', { userId, groupId: g2 })).status).toBe(200)
    expect((await put('/api/rel/user-un-rel-groups', { userId, groupId: g2 })).status).toBe(200)
    expect((await put('/api/rel/user-un-rel-groups', { userId, groupId: g3 })).status).toBe(200)
    expect(await groupLinks()).toEqual([g1])
    expect((await put('/api/rel/user-un-rel-groups', { userId, groupId: 999999 })).status).toBe(404)
  })

  it('needs a session and the user:group permission', async () => {
    const body = { id: userId, greoupIds: `${g3}` }
    expect((await put('/api/rel/user-rel-groups', body, '')).status).toBe(401)
    const viewer = await t.userWithCodes(['user', 'user:role'])
    expect((await put('/api/rel/user-rel-groups', body, viewer.token)).status).toBe(403)
    expect((await put('/api/rel/user-un-rel-groups', { userId, groupId: g1 }, viewer.token)).status).toBe(403)
    expect(
      (await listOf('/api/rel/user/grouplist', { userId, pageNum: 1, pageSize: 10 }, viewer.token)).status,
    ).toBe(403)
    const linker = await t.userWithCodes(['user:group'])
    expect((await put('/api/rel/user-rel-groups', body, linker.token)).status).toBe(200)
    expect(
      (await listOf('/api/rel/user/grouplist', { userId, pageNum: 1, pageSize: 10 }, linker.token)).body.data
        .total,
    ).toBe(2)
    expect((await put('/api/rel/user-un-rel-groups', { userId, groupId: g3 }, linker.token)).status).toBe(200)
    expect(await groupLinks()).toEqual([g1])
  })
})

describe('user ↔ position', () => {
  let deptA: number, deptB: number, deptC: number
  let s1: number, s2: number
  let pRoot: number, pA: number, pB: number, pC: number
  beforeAll(async () => {
    deptA = await addOrg('研发部', rootOrg.id)
    deptB = await addOrg('前端组', deptA)
    deptC = await addOrg('市场部', rootOrg.id)
    s1 = await addStation('工程师')
    s2 = await addStation('经理')
    pRoot = await addPosition(rootOrg.id, s2)
    pA = await addPosition(deptA, s2)
    pB = await addPosition(deptB, s1, 2)
    pC = await addPosition(deptC, s1)
  })

  it('links positions; twice is harmless', async () => {
    expect(
      (await put('/api/rel/user-rel-position', { id: userId, positionIds: `${pRoot},${pA},${pB}` })).status,
    ).toBe(200)
    expect((await put('/api/rel/user-rel-position', { id: userId, positionIds: [pB, pC] })).status).toBe(200)
    expect(await positionLinks()).toEqual([pRoot, pA, pB, pC].sort((a, b) => a - b))
  })

  it('lists held positions with the full department path name', async () => {
    const all = await listOf('/api/rel/user/positionlist', { userId, pageNum: 1, pageSize: 10 })
    expect(all.status).toBe(200)
    expect(all.body.data.total).toBe(4)
    expect(all.body.data.list).toEqual([
      {
        id: pRoot,
        orgId: rootOrg.id,
        stationId: s2,
        organizationCompleteName: rootOrg.name,
        stationName: '经理',
        status: 1,
        type: 1,
        expiresAt: null,
      },
      {
        id: pA,
        orgId: deptA,
        stationId: s2,
        organizationCompleteName: `${rootOrg.name}-研发部`,
        stationName: '经理',
        status: 1,
        type: 1,
        expiresAt: null,
      },
      {
        id: pB,
        orgId: deptB,
        stationId: s1,
        organizationCompleteName: `${rootOrg.name}-研发部-前端组`,
        stationName: '工程师',
        status: 2,
        type: 1,
        expiresAt: null,
      },
      {
        id: pC,
        orgId: deptC,
        stationId: s1,
        organizationCompleteName: `${rootOrg.name}-市场部`,
        stationName: '工程师',
        status: 1,
        type: 1,
        expiresAt: null,
      },
    ])
  })

  it('filters by department (with its sub-departments) and by job title, paging at the edges', async () => {
    const inA = await listOf('/api/rel/user/positionlist', { userId, pageNum: 1, pageSize: 10, orgId: deptA })
    expect(inA.body.data.total).toBe(2)
    expect(inA.body.data.list.map((p: { id: number }) => p.id)).toEqual([pA, pB])
    const inRoot = await listOf('/api/rel/user/positionlist', {
      userId,
      pageNum: 1,
      pageSize: 10,
      orgId: rootOrg.id,
    })
    expect(inRoot.body.data.total).toBe(4)
    const engineers = await listOf('/api/rel/user/positionlist', {
      userId,
      pageNum: 1,
      pageSize: 10,
      stationId: s1,
    })
    expect(engineers.body.data.list.map((p: { id: number }) => p.id)).toEqual([pB, pC])
    const both = await listOf('/api/rel/user/positionlist', {
      userId,
      pageNum: 1,
      pageSize: 10,
      stationId: s1,
      orgId: deptA,
    })
    expect(both.body.data.list.map((p: { id: number }) => p.id)).toEqual([pB])
    const page2 = await listOf('/api/rel/user/positionlist', { userId, pageNum: 2, pageSize: 3 })
    expect(page2.body.data.total).toBe(4)
    expect(page2.body.data.list.map((p: { id: number }) => p.id)).toEqual([pC])
    const beyond = await listOf('/api/rel/user/positionlist', { userId, pageNum: 3, pageSize: 3 })
    expect(beyond.body.data).toEqual({ total: 4, list: [] })
    const unknownOrg = await listOf('/api/rel/user/positionlist', {
      userId,
      pageNum: 1,
      pageSize: 10,
      orgId: 999999,
    })
    expect(unknownOrg.body.data).toEqual({ total: 0, list: [] })
    expect(
      (await listOf('/api/rel/user/positionlist', { userId, pageNum: 1, pageSize: 10, orgId: 'x' })).status,
    ).toBe(400)
  })

  it('refuses unknown and malformed ids, changing nothing', async () => {
    const extra = await addPosition(deptC, s2)
    const unknown = await put('/api/rel/user-rel-position', { id: userId, positionIds: `${extra},777777` })
    expect(unknown.status).toBe(404)
    expect(unknown.body.msg).toBe('岗位不存在：777777')
    expect((await put('/api/rel/user-rel-position', { id: userId, positionIds: '-1' })).status).toBe(400)
    expect((await put('/api/rel/user-rel-position', { id: 999999, positionIds: `${extra}` })).status).toBe(
      404,
    )
    expect(await positionLinks()).not.toContain(extra)
  })

  it('unlinks; unlinking what is not linked is harmless', async () => {
    expect((await put('/api/rel/user-un-rel-position', { userId, positionId: pC })).status).toBe(200)
    expect((await put('/api/rel/user-un-rel-position', { userId, positionId: pC })).status).toBe(200)
    expect(await positionLinks()).toEqual([pRoot, pA, pB].sort((a, b) => a - b))
    expect((await put('/api/rel/user-un-rel-position', { userId, positionId: 999999 })).status).toBe(404)
  })

  it('needs a session and the user:position permission', async () => {
    const body = { id: userId, positionIds: `${pC}` }
    expect((await put('/api/rel/user-rel-position', body, '')).status).toBe(401)
    const viewer = await t.userWithCodes(['user', 'user:role', 'user:group'])
    expect((await put('/api/rel/user-rel-position', body, viewer.token)).status).toBe(403)
    expect(
      (await put('/api/rel/user-un-rel-position', { userId, positionId: pA }, viewer.token)).status,
    ).toBe(403)
    expect(
      (await listOf('/api/rel/user/positionlist', { userId, pageNum: 1, pageSize: 10 }, viewer.token)).status,
    ).toBe(403)
    const linker = await t.userWithCodes(['user:position'])
    expect((await put('/api/rel/user-rel-position', body, linker.token)).status).toBe(200)
    expect(
      (await listOf('/api/rel/user/positionlist', { userId, pageNum: 1, pageSize: 10 }, linker.token)).body
        .data.total,
    ).toBe(4)
    expect(
      (await put('/api/rel/user-un-rel-position', { userId, positionId: pC }, linker.token)).status,
    ).toBe(200)
  })
})

describe('a link change takes effect on authorization at the next request', () => {
  let target: { id: number; token: string }
  let grantingRole: number
  const listUsers = () =>
    t.call('POST', '/api/user/list', { token: target.token, body: { pageNum: 1, pageSize: 10 } })
  const codes = async () =>
    (await t.call('GET', '/api/user/current', { token: target.token })).body.data.authCodes as string[]

  beforeAll(async () => {
    target = await t.userWithCodes([])
    grantingRole = await addRole('grants_user_page')
    await t.db.insert(roleAuths).values({ roleId: grantingRole, authCode: 'user' })
    await t.app.ctx.authz.invalidate()
  })

  it('through a direct role', async () => {
    expect((await listUsers()).status).toBe(403)
    expect(await codes()).not.toContain('user')
    expect((await put('/api/rel/user-rel-role', { id: target.id, roleIds: `${grantingRole}` })).status).toBe(
      200,
    )
    expect((await listUsers()).status).toBe(200)
    expect(await codes()).toContain('user')
    expect((await put('/api/rel/user-un-rel-role', { userId: target.id, roleId: grantingRole })).status).toBe(
      200,
    )
    expect((await listUsers()).status).toBe(403)
    expect(await codes()).not.toContain('user')
  })

  it('through a group, and only while the group is enabled', async () => {
    const group = await addGroup('grants_group')
    await t.db.insert(userGroupRoles).values({ groupId: group, roleId: grantingRole })
    await t.app.ctx.authz.invalidate()
    expect((await listUsers()).status).toBe(403)
    expect((await put('/api/rel/user-rel-groups', { id: target.id, greoupIds: `${group}` })).status).toBe(200)
    expect((await listUsers()).status).toBe(200)
    expect((await put('/api/rel/user-un-rel-groups', { userId: target.id, groupId: group })).status).toBe(200)
    expect((await listUsers()).status).toBe(403)
    const frozenGroup = await addGroup('grants_group_frozen', 2)
    await t.db.insert(userGroupRoles).values({ groupId: frozenGroup, roleId: grantingRole })
    expect(
      (await put('/api/rel/user-rel-groups', { id: target.id, groupIds: `${frozenGroup}` })).status,
    ).toBe(200)
    expect((await listUsers()).status).toBe(403)
  })

  it('through a position', async () => {
    const org = await addOrg('授权部', rootOrg.id)
    const station = await addStation('授权岗')
    const position = await addPosition(org, station)
    await t.db.insert(positionRoles).values({ positionId: position, roleId: grantingRole })
    await t.app.ctx.authz.invalidate()
    expect((await listUsers()).status).toBe(403)
    expect(
      (await put('/api/rel/user-rel-position', { id: target.id, positionIds: `${position}` })).status,
    ).toBe(200)
    expect((await listUsers()).status).toBe(200)
    expect(await codes()).toContain('user')
    expect(
      (await put('/api/rel/user-un-rel-position', { userId: target.id, positionId: position })).status,
    ).toBe(200)
    expect((await listUsers()).status).toBe(403)
  })
})
