import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, SUPER_ADMIN_POWER_NAME } from '@amg/contract'
import { auths, positions, roleAuths, roles, userGroups, userGroupUsers, userRoles } from '../src/db/schema'
import { LAST_SUPER_ADMIN_MSG } from '../src/auth/super-admin-guard'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { seedCompany, WEAK_CODES, type Company } from './helpers/company'
import { accessSnapshot } from './helpers/snapshot'
import { OFF_NODE, seedDormant, UNDER_OFF, type DormantWorld } from './helpers/dormant'

/**
 * DESIGN.md §6a, "Stored power counts whatever its status": a disabled permission node (or one under
 * a disabled ancestor), a disabled role, group or position still carries the power it gives once
 * enabled, so planting it needs the caller to cover it, and enabling it needs the enabler to cover
 * what it switches on. And "Changing oneself within one's own live power is allowed", even with
 * dormant power one could not grant.
 *
 * The limited administrator holds every seeded permission but the file ones; the equal one holds
 * every seeded permission, live, without being a super admin.
 */
let t: TestApp
let c: Company
let w: DormantWorld

/** The stored node as the edit form sends it, with changes. */
async function storedForm(code: string, over: Record<string, unknown>) {
  const n = (await t.call('GET', '/api/auth/detail', { token: t.adminToken, query: { authCode: code } })).body
    .data
  return {
    code,
    chName: n.chName,
    enName: n.enName,
    parentCode: n.parentCode,
    seq: n.seq,
    status: n.status,
    type: n.type,
    frontEndAccessList: n.frontEndAccessList,
    urlPatternInfos: n.urlPatternInfos,
    ...over,
  }
}

beforeEach(async () => {
  t = await createTestApp()
  c = await seedCompany(t)
  w = await seedDormant(t, { equal: true })
})
afterEach(() => t.close())

type Call = [method: string, url: string, opts: CallOptions]

/** 403 with the refusal message (exactly, when names are given), and not one row changed. */
async function expectRefused(token: string, call: Call, names?: string) {
  const before = await accessSnapshot(t.db)
  const res = await t.call(call[0], call[1], { ...call[2], token })
  expect(res.status, `${call[0]} ${call[1]}: ${res.body.msg}`).toBe(403)
  if (names) expect(res.body.msg).toBe(`${BEYOND_POWER_PREFIX}${names}`)
  else expect(res.body.msg.startsWith(BEYOND_POWER_PREFIX)).toBe(true)
  expect(await accessSnapshot(t.db)).toEqual(before)
}

async function expectAllowed(token: string, call: Call) {
  const res = await t.call(call[0], call[1], { ...call[2], token })
  expect(res.status, `${call[0]} ${call[1]}: ${res.body.msg}`).toBe(200)
}

const limited = () => c.limited.token
const equal = () => w.equal!.token
const BOTH_DORMANT = `${OFF_NODE}、${UNDER_OFF}`

const roleForm = (id: number, roleName: string, status: number, authCodes?: string[]) => ({
  id,
  roleName,
  status,
  ...(authCodes ? { authCodes } : {}),
})

describe('planting power in disabled nodes (finding 2)', () => {
  it('adding a disabled node, or one under a disabled ancestor, to a role needs the caller to cover it', async () => {
    await expectRefused(
      limited(),
      ['PUT', '/api/role/update', { body: roleForm(c.weakRole, '弱角色', 1, [...WEAK_CODES, w.offNode]) }],
      OFF_NODE,
    )
    await expectRefused(
      limited(),
      ['PUT', '/api/role/update', { body: roleForm(c.weakRole, '弱角色', 1, [...WEAK_CODES, w.underOff]) }],
      UNDER_OFF,
    )
    await expectRefused(
      limited(),
      ['POST', '/api/role/insert', { body: { roleName: '埋伏', authCodes: ['user', w.offNode] } }],
      OFF_NODE,
    )
    await expectRefused(
      limited(),
      ['POST', '/api/role/admin/insert', { body: { roleName: '埋伏', authCodes: [w.underOff] } }],
      UNDER_OFF,
    )
    // its own role too
    await expectRefused(
      limited(),
      ['PUT', '/api/role/update', { body: roleForm(c.limited.roleId, 'r_limited_admin', 1, [w.offNode]) }],
      OFF_NODE,
    )
  })

  it('an administrator covering the dormant power may add it', async () => {
    await expectAllowed(equal(), [
      'PUT',
      '/api/role/update',
      { body: roleForm(c.weakRole, '弱角色', 1, [...WEAK_CODES, w.offNode, w.underOff]) },
    ])
    const held = await t.db.select().from(roleAuths).where(eq(roleAuths.roleId, c.weakRole))
    expect(held.map((r) => r.authCode).sort()).toEqual([...WEAK_CODES, w.offNode, w.underOff].sort())
  })

  it('a role holding dormant nodes is then beyond the limited administrator: editing or deleting it', async () => {
    await expectRefused(
      limited(),
      ['PUT', '/api/role/update', { body: roleForm(w.dormantRole, '休眠角色改名', 1) }],
      BOTH_DORMANT,
    )
    await expectRefused(limited(), ['DELETE', '/api/role/delete', { query: { id: w.dormantRole } }])
  })

  it.each<[string, (c: Company, w: DormantWorld) => Call]>([
    [
      'to a user',
      (c, w) => [
        'PUT',
        '/api/rel/user-rel-role',
        { body: { id: c.plainUser, roleIds: String(w.dormantRole) } },
      ],
    ],
    [
      'to a group',
      (c, w) => [
        'PUT',
        '/api/rel/user-groups-rel-role',
        { body: { userGroupsId: c.weakGroup, roleIds: String(w.dormantRole) } },
      ],
    ],
    [
      'to a position',
      (c, w) => [
        'PUT',
        '/api/rel/position-rel-role',
        { body: { positionId: c.weakPosition, roleIds: String(w.dormantRole) } },
      ],
    ],
    [
      'in a new group',
      (c, w) => [
        'POST',
        '/api/user_groups/insert',
        {
          body: {
            groupName: '新组',
            status: 2,
            roleIds: String(w.dormantRole),
            userIds: String(c.plainUser),
          },
        },
      ],
    ],
  ])(
    'linking a role that holds disabled nodes %s: refused, allowed to an equal administrator',
    async (_, call) => {
      await expectRefused(limited(), call(c, w), BOTH_DORMANT)
      await expectAllowed(equal(), call(c, w))
    },
  )

  it('linking a disabled role, or a role to a disabled group, counts the role’s stored power', async () => {
    await t.db.update(roles).set({ status: 2 }).where(eq(roles.id, c.strongRole))
    await t.db.update(userGroups).set({ status: 2 }).where(eq(userGroups.id, c.weakGroup))
    await expectRefused(limited(), [
      'PUT',
      '/api/rel/user-rel-role',
      { body: { id: c.plainUser, roleIds: String(c.strongRole) } },
    ])
    await expectRefused(limited(), [
      'PUT',
      '/api/rel/user-groups-rel-role',
      { body: { userGroupsId: c.weakGroup, roleIds: String(c.strongRole) } },
    ])
    await expectAllowed(limited(), [
      'PUT',
      '/api/rel/user-groups-rel-role',
      { body: { userGroupsId: c.weakGroup, roleIds: String(c.weakRole) } },
    ])
  })

  it.each<[string, (c: Company, w: DormantWorld) => Call]>([
    [
      'from the user’s side',
      (c, w) => [
        'PUT',
        '/api/rel/user-rel-groups',
        { body: { id: c.plainUser, greoupIds: String(w.dormantGroup) } },
      ],
    ],
    [
      'from the group’s side',
      (c, w) => [
        'PUT',
        '/api/rel/user-groups-rel-user',
        { body: { userGroupsId: w.dormantGroup, userIds: String(c.plainUser) } },
      ],
    ],
  ])(
    'joining a disabled group whose role holds disabled nodes %s: refused, allowed to an equal administrator',
    async (_, call) => {
      await expectRefused(limited(), call(c, w), BOTH_DORMANT)
      await expectAllowed(equal(), call(c, w))
      const [member] = await t.db
        .select()
        .from(userGroupUsers)
        .where(eq(userGroupUsers.groupId, w.dormantGroup))
      expect(member.userId).toBe(c.plainUser)
    },
  )

  it('the link pickers mark a role or group holding dormant power as not grantable', async () => {
    const roleList = await t.call('POST', '/api/role/namelist', {
      token: limited(),
      body: { userId: c.plainUser },
    })
    const dormant = roleList.body.data.find((r: { id: number }) => r.id === w.dormantRole)
    expect(dormant).toMatchObject({ grantable: false, denyReason: `${BEYOND_POWER_PREFIX}${BOTH_DORMANT}` })
    const groups = await t.call('POST', '/api/user_groups/namelist', {
      token: limited(),
      body: { userId: c.plainUser },
    })
    const group = groups.body.data.find((g: { id: number }) => g.id === w.dormantGroup)
    expect(group).toMatchObject({ grantable: false })
    const asEqual = await t.call('POST', '/api/role/namelist', {
      token: equal(),
      body: { userId: c.plainUser },
    })
    expect(asEqual.body.data.find((r: { id: number }) => r.id === w.dormantRole)).toMatchObject({
      grantable: true,
    })
  })
})

describe('enabling checks what it switches on', () => {
  it('a node: refused to a limited administrator, allowed to one who covers it', async () => {
    // 停用上传 gives 上传文件's power: the equal administrator holds that live, the limited one does not
    const enable = await storedForm(w.offNode, { status: 1 })
    await expectRefused(limited(), ['PUT', '/api/auth/update', { body: enable }], OFF_NODE)
    await expectAllowed(equal(), ['PUT', '/api/auth/update', { body: enable }])
    const [row] = await t.db.select().from(auths).where(eq(auths.code, w.offNode))
    expect(row.status).toBe(1)
    // a seeded node, disabled by a super admin: switching it back on is beyond the limited administrator
    await t.db.update(auths).set({ status: 2 }).where(eq(auths.code, 'file:upload'))
    await expectRefused(
      limited(),
      ['PUT', '/api/auth/update', { body: await storedForm('file:upload', { status: 1 }) }],
      '上传文件',
    )
  })

  it('a disabled ancestor: enabling it, or moving a node out from under it, needs the subtree covered', async () => {
    await expectRefused(
      limited(),
      ['PUT', '/api/auth/update', { body: await storedForm(w.offParent, { status: 1 }) }],
      UNDER_OFF,
    )
    await expectRefused(
      limited(),
      ['PUT', '/api/auth/update', { body: await storedForm(w.underOff, { parentCode: 'user' }) }],
      UNDER_OFF,
    )
    await expectAllowed(equal(), [
      'PUT',
      '/api/auth/update',
      { body: await storedForm(w.underOff, { parentCode: 'user' }) },
    ])
    await expectAllowed(equal(), [
      'PUT',
      '/api/auth/update',
      { body: await storedForm(w.offParent, { status: 1 }) },
    ])
  })

  it('a role: refused to a limited administrator, allowed to one who covers it', async () => {
    await t.db.update(roles).set({ status: 2 }).where(eq(roles.id, c.strongRole))
    const call: Call = ['PUT', '/api/role/update', { body: roleForm(c.strongRole, '强角色', 1) }]
    await expectRefused(limited(), call)
    await expectAllowed(equal(), call)
    const [row] = await t.db.select().from(roles).where(eq(roles.id, c.strongRole))
    expect(row.status).toBe(1)
  })

  it('a group: refused to a limited administrator, allowed to one who covers it', async () => {
    const enable: Call = [
      'PATCH',
      '/api/user_groups/enable',
      { query: { userGroupsId: w.dormantGroup, enable: true } },
    ]
    await expectRefused(limited(), enable, BOTH_DORMANT)
    await expectRefused(limited(), [
      'PUT',
      '/api/user_groups/update',
      { body: { id: w.dormantGroup, groupName: '休眠用户组', status: 1 } },
    ])
    await expectAllowed(equal(), enable)
    const [row] = await t.db.select().from(userGroups).where(eq(userGroups.id, w.dormantGroup))
    expect(row.status).toBe(1)
  })

  it('a position: refused to a limited administrator, allowed to one who covers it', async () => {
    await t.db.update(positions).set({ status: 2 }).where(eq(positions.id, c.strongPosition))
    const enable: Call = [
      'PATCH',
      '/api/position/enable',
      { query: { positionId: c.strongPosition, enable: true } },
    ]
    await expectRefused(limited(), enable)
    await expectAllowed(equal(), enable)
    const [row] = await t.db.select().from(positions).where(eq(positions.id, c.strongPosition))
    expect(row.status).toBe(1)
  })

  it('a super admin enables anything', async () => {
    const res = await t.call('PATCH', '/api/user_groups/enable', {
      token: t.adminToken,
      query: { userGroupsId: w.dormantGroup, enable: true },
    })
    expect(res.status).toBe(200)
  })
})

describe('changing oneself within one’s live power (finding 13)', () => {
  /** The limited administrator also carries dormant power: a disabled group with the strong role. */
  beforeEach(async () => {
    await t.db.update(userGroups).set({ status: 2 }).where(eq(userGroups.id, c.strongGroup))
    await t.db.insert(userGroupUsers).values({ groupId: c.strongGroup, userId: c.limited.id })
    await t.app.ctx.authz.invalidate()
  })

  const me = () => c.limited.id

  it.each<[string, (c: Company, me: number) => Call]>([
    [
      'linking a covered role to oneself',
      (c, me) => ['PUT', '/api/rel/user-rel-role', { body: { id: me, roleIds: String(c.weakRole) } }],
    ],
    [
      'joining a covered group',
      (c, me) => ['PUT', '/api/rel/user-rel-groups', { body: { id: me, greoupIds: String(c.weakGroup) } }],
    ],
    [
      'being added to a covered group from its side',
      (c, me) => [
        'PUT',
        '/api/rel/user-groups-rel-user',
        { body: { userGroupsId: c.weakGroup, userIds: String(me) } },
      ],
    ],
    [
      'taking a covered position',
      (c, me) => [
        'PUT',
        '/api/rel/user-rel-position',
        { body: { id: me, positionIds: String(c.weakPosition) } },
      ],
    ],
    [
      'being added to a covered position from its side',
      (c, me) => [
        'PUT',
        '/api/rel/position-rel-user',
        { body: { positionId: c.weakPosition, userIds: String(me) } },
      ],
    ],
    [
      'creating a group with oneself and a covered role',
      (c, me) => [
        'POST',
        '/api/user_groups/insert',
        { body: { groupName: '我的组', status: 1, roleIds: String(c.weakRole), userIds: String(me) } },
      ],
    ],
    [
      'editing oneself',
      (_c, me) => ['PUT', '/api/user/update', { body: { id: me, nickName: 'limited_admin', status: 1 } }],
    ],
  ])('%s is allowed despite dormant power', async (_, call) => {
    await expectAllowed(limited(), call(c, me()))
  })

  it('the same link to another user carrying that dormant power is refused', async () => {
    await t.db.insert(userGroupUsers).values({ groupId: c.strongGroup, userId: c.plainUser })
    await expectRefused(limited(), [
      'PUT',
      '/api/rel/user-rel-role',
      { body: { id: c.plainUser, roleIds: String(c.weakRole) } },
    ])
  })

  it('the linked role lands and the caller’s live power grows only by what it already covered', async () => {
    const before = (await t.call('GET', '/api/user/current', { token: limited() })).body.data
    await expectAllowed(limited(), [
      'PUT',
      '/api/rel/user-rel-role',
      { body: { id: me(), roleIds: String(c.weakRole) } },
    ])
    const links = await t.db.select().from(userRoles).where(eq(userRoles.userId, me()))
    expect(links.map((l) => l.roleId)).toContain(c.weakRole)
    const after = (await t.call('GET', '/api/user/current', { token: limited() })).body.data
    expect(after.superAdmin).toBe(false)
    expect(after.authCodes).toEqual(before.authCodes)
  })

  it('linking oneself a role holding a disabled node one lacks is refused', async () => {
    await expectRefused(
      limited(),
      ['PUT', '/api/rel/user-rel-role', { body: { id: me(), roleIds: String(w.dormantRole) } }],
      BOTH_DORMANT,
    )
    await expectRefused(limited(), [
      'PUT',
      '/api/rel/user-rel-role',
      { body: { id: me(), roleIds: String(c.strongRole) } },
    ])
    await expectRefused(
      limited(),
      ['PUT', '/api/rel/user-rel-groups', { body: { id: me(), greoupIds: String(c.superGroup) } }],
      SUPER_ADMIN_POWER_NAME,
    )
  })

  it('waking one’s own dormant power is refused: enabling the group that carries it', async () => {
    await expectRefused(limited(), [
      'PATCH',
      '/api/user_groups/enable',
      { query: { userGroupsId: c.strongGroup, enable: true } },
    ])
  })

  it('unlinking oneself from the super-admin role stays guarded by the last-super-admin rule', async () => {
    const res = await t.call('PUT', '/api/rel/user-un-rel-role', {
      token: t.adminToken,
      body: { userId: c.adminId, roleId: c.superRoleId },
    })
    expect(res.status).toBe(409)
    expect(res.body.msg).toBe(LAST_SUPER_ADMIN_MSG)
  })
})

describe('role impact lists the stored power that would come alive', () => {
  it('disabled nodes of the new set are listed as dormant, not as gained', async () => {
    const res = await t.call('POST', '/api/authz/role-impact', {
      token: t.adminToken,
      body: { roleId: c.weakRole, authCodes: [...WEAK_CODES, w.underOff, w.offNode, 'no-such-code'] },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      users: 1,
      gained: [],
      lost: [],
      dormant: [
        { code: w.offNode, chName: OFF_NODE },
        { code: w.underOff, chName: UNDER_OFF },
      ],
    })
    const kept = await t.call('POST', '/api/authz/role-impact', {
      token: t.adminToken,
      body: { roleId: w.dormantRole, authCodes: ['user', 'org'] },
    })
    expect(kept.body.data).toEqual({
      users: 0,
      gained: [{ code: 'org', chName: '部门管理' }],
      lost: [],
      dormant: [],
    })
  })
})
