import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, MSG } from '@amg/contract'
import { roleAuths, roles, userGroupUsers, userRoles, users } from '../src/db/schema'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { seedCompany, STRONG_CODES, WEAK_CODES, type Company } from './helpers/company'
import { accessSnapshot } from './helpers/snapshot'
import { TEST_ADMIN_PASSWORD } from './helpers/constants'

/**
 * DESIGN.md §6a: an administrator can give or take away only the power they hold. For every grant
 * path, a limited administrator (every permission but the file ones) is refused a change that moves
 * power it lacks (403, nothing changed in the database) and allowed one within its power.
 */
let t: TestApp
let c: Company

async function open() {
  t = await createTestApp()
  c = await seedCompany(t)
  storedNodes = {}
  for (const code of ['file', 'user:edit']) {
    const res = await t.call('GET', '/api/auth/detail', { token: t.adminToken, query: { authCode: code } })
    storedNodes[code] = res.body.data
  }
}
const close = () => t.close()

/** A fresh company for each test of the block (tests that change data). */
function freshCompanyPerTest() {
  beforeEach(open)
  afterEach(close)
}

/** One company for the whole block: its tests are refused, and a refusal changes nothing (checked). */
function oneCompanyForAll() {
  beforeAll(open)
  afterAll(close)
}

type Call = [method: string, url: string, opts: CallOptions]
type Case = [name: string, call: (c: Company) => Call]

const asLimited = (call: Call) => t.call(call[0], call[1], { ...call[2], token: c.limited.token })

/** 403 with the refusal message, and not one row changed. */
async function expectRefused(call: Call, names?: string) {
  const before = await accessSnapshot(t.db)
  const res = await asLimited(call)
  expect(res.status, `${call[0]} ${call[1]}: ${res.body.msg}`).toBe(403)
  expect(res.body.msg.startsWith(BEYOND_POWER_PREFIX)).toBe(true)
  if (names) expect(res.body.msg).toBe(`${BEYOND_POWER_PREFIX}${names}`)
  expect(await accessSnapshot(t.db)).toEqual(before)
}

async function expectAllowed(call: Call) {
  const res = await asLimited(call)
  expect(res.status, `${call[0]} ${call[1]}: ${res.body.msg}`).toBe(200)
}

const groupForm = (id: number, status: number, groupName: string) => ({ id, groupName, status })

// Every grant path, beyond the limited administrator's power.
const refusedCases: Case[] = [
  // any change to a user puts that user's whole power at stake
  [
    'edit a stronger user',
    (c) => ['PUT', '/api/user/update', { body: { id: c.strongUser, nickName: 'strong_user', status: 1 } }],
  ],
  [
    'freeze a stronger user',
    (c) => ['PUT', '/api/user/update', { body: { id: c.strongUser, nickName: 'strong_user', status: 2 } }],
  ],
  ['delete a stronger user', (c) => ['DELETE', '/api/user/delete', { query: { userId: c.strongUser } }]],
  [
    'link a weak role to a stronger user',
    (c) => ['PUT', '/api/rel/user-rel-role', { body: { id: c.strongUser, roleIds: String(c.weakRole) } }],
  ],
  // user → role
  [
    'link a stronger role to a user',
    (c) => ['PUT', '/api/rel/user-rel-role', { body: { id: c.plainUser, roleIds: String(c.strongRole) } }],
  ],
  [
    'unlink a stronger role from a user',
    (c) => ['PUT', '/api/rel/user-un-rel-role', { body: { userId: c.strongUser, roleId: c.strongRole } }],
  ],
  // user → group / position, from the user's side
  [
    'put a user in a stronger group',
    (c) => [
      'PUT',
      '/api/rel/user-rel-groups',
      { body: { id: c.plainUser, greoupIds: String(c.strongGroup) } },
    ],
  ],
  [
    'put a user in a stronger group (groupIds)',
    (c) => [
      'PUT',
      '/api/rel/user-rel-groups',
      { body: { id: c.plainUser, groupIds: String(c.strongGroup) } },
    ],
  ],
  [
    'take a user out of a stronger group',
    (c) => ['PUT', '/api/rel/user-un-rel-groups', { body: { userId: c.strongUser, groupId: c.strongGroup } }],
  ],
  [
    'give a user a stronger position',
    (c) => [
      'PUT',
      '/api/rel/user-rel-position',
      { body: { id: c.plainUser, positionIds: String(c.strongPosition) } },
    ],
  ],
  [
    'take a stronger position from a user',
    (c) => [
      'PUT',
      '/api/rel/user-un-rel-position',
      { body: { userId: c.strongUser, positionId: c.strongPosition } },
    ],
  ],
  // group → user / role
  [
    'add a user to a stronger group',
    (c) => [
      'PUT',
      '/api/rel/user-groups-rel-user',
      { body: { userGroupsId: c.strongGroup, userIds: String(c.plainUser) } },
    ],
  ],
  [
    'remove a user from a stronger group',
    (c) => [
      'PUT',
      '/api/rel/user-groups-un-rel-user',
      { body: { userGroupsId: c.strongGroup, userIds: String(c.strongUser) } },
    ],
  ],
  [
    'add a stronger user to a weak group',
    (c) => [
      'PUT',
      '/api/rel/user-groups-rel-user',
      { body: { userGroupsId: c.weakGroup, userIds: String(c.strongUser) } },
    ],
  ],
  [
    'link a stronger role to a group',
    (c) => [
      'PUT',
      '/api/rel/user-groups-rel-role',
      { body: { userGroupsId: c.weakGroup, roleIds: String(c.strongRole) } },
    ],
  ],
  [
    'unlink a stronger role from a group',
    (c) => [
      'PUT',
      '/api/rel/user-groups-un-rel-role',
      { body: { userGroupsId: c.strongGroup, roleIds: String(c.strongRole) } },
    ],
  ],
  // position → user / role
  [
    'add a user to a stronger position',
    (c) => [
      'PUT',
      '/api/rel/position-rel-user',
      { body: { positionId: c.strongPosition, userIds: String(c.plainUser) } },
    ],
  ],
  [
    'remove a user from a stronger position',
    (c) => [
      'PUT',
      '/api/rel/position-un-rel-user',
      { body: { positionId: c.strongPosition, userIds: String(c.strongUser) } },
    ],
  ],
  [
    'link a stronger role to a position',
    (c) => [
      'PUT',
      '/api/rel/position-rel-role',
      { body: { positionId: c.weakPosition, roleIds: String(c.strongRole) } },
    ],
  ],
  [
    'unlink a stronger role from a position',
    (c) => [
      'PUT',
      '/api/rel/position-un-rel-role',
      { body: { positionId: c.strongPosition, roleIds: String(c.strongRole) } },
    ],
  ],
  // group and position status and deletes
  [
    'disable a stronger group',
    (c) => ['PATCH', '/api/user_groups/enable', { query: { userGroupsId: c.strongGroup, enable: false } }],
  ],
  [
    'disable a stronger group by update',
    (c) => ['PUT', '/api/user_groups/update', { body: groupForm(c.strongGroup, 2, '强用户组') }],
  ],
  [
    'delete a stronger group',
    (c) => ['DELETE', '/api/user_groups/delete', { query: { userGroupsId: c.strongGroup } }],
  ],
  [
    'create a group with a stronger role',
    (c) => [
      'POST',
      '/api/user_groups/insert',
      { body: { groupName: '新组', status: 1, roleIds: String(c.strongRole), userIds: String(c.plainUser) } },
    ],
  ],
  [
    'create a group with a stronger user',
    (c) => [
      'POST',
      '/api/user_groups/insert',
      { body: { groupName: '新组', status: 1, roleIds: String(c.weakRole), userIds: String(c.strongUser) } },
    ],
  ],
  [
    'disable a stronger position',
    (c) => ['PATCH', '/api/position/enable', { query: { positionId: c.strongPosition, enable: false } }],
  ],
  [
    'delete a stronger position',
    (c) => [
      'DELETE',
      '/api/position/delete',
      { query: { positionIds: `${c.weakPosition},${c.strongPosition}` } },
    ],
  ],
  [
    'delete the department of a stronger position',
    (c) => ['DELETE', '/api/org/delete', { query: { orgId: c.strongOrg } }],
  ],
  [
    'drop a stronger position from its department',
    (c) => [
      'PUT',
      '/api/org/update',
      { body: { id: c.strongOrg, organizationName: '强部', positionSimpleDTOS: [] } },
    ],
  ],
  [
    'delete the job title of a stronger position',
    (c) => ['DELETE', '/api/station/delete', { query: { stationId: c.strongStation } }],
  ],
  [
    'drop a stronger position from its job title',
    (c) => [
      'PUT',
      '/api/station/update',
      { body: { id: c.strongStation, stationName: '强岗', type: 1, orgIds: '' } },
    ],
  ],
  // role contents
  [
    'create a role with power it lacks',
    () => ['POST', '/api/role/insert', { body: { roleName: '新角色', authCodes: STRONG_CODES } }],
  ],
  [
    'rename a stronger role',
    (c) => ['PUT', '/api/role/update', { body: { id: c.strongRole, roleName: '改名', status: 1 } }],
  ],
  [
    'empty a stronger role',
    (c) => [
      'PUT',
      '/api/role/update',
      { body: { id: c.strongRole, roleName: '强角色', status: 1, authCodes: [] } },
    ],
  ],
  [
    'disable a stronger role',
    (c) => ['PUT', '/api/role/update', { body: { id: c.strongRole, roleName: '强角色', status: 2 } }],
  ],
  ['delete a stronger role', (c) => ['DELETE', '/api/role/delete', { query: { id: c.strongRole } }]],
  [
    'grant its own role more codes',
    (c) => [
      'PUT',
      '/api/role/update',
      { body: { id: c.limited.roleId, roleName: 'r_limited_admin', status: 1, authCodes: ['file:upload'] } },
    ],
  ],
  [
    'create a built-in role with power it lacks',
    () => ['POST', '/api/role/admin/insert', { body: { roleName: '内置', authCodes: STRONG_CODES } }],
  ],
  // permission nodes
  [
    'create a node with patterns it lacks',
    () => [
      'POST',
      '/api/auth/insert',
      { body: node({ urlPatternInfos: [{ method: 'GET', uri: '/file-manage/download' }] }) },
    ],
  ],
  [
    'create a node matching everything',
    () => ['POST', '/api/auth/insert', { body: node({ urlPatternInfos: [{ method: '*', uri: '/**' }] }) }],
  ],
  [
    'disable a subtree holding power it lacks',
    () => ['PUT', '/api/auth/update', { body: storedNode('file', { status: 2 }) }],
  ],
  [
    'widen a node it holds beyond its power',
    () => [
      'PUT',
      '/api/auth/update',
      { body: storedNode('user:edit', { urlPatternInfos: [{ method: '*', uri: '/**' }] }) },
    ],
  ],
  [
    'delete a node with power it lacks',
    () => ['DELETE', '/api/auth/delete', { query: { authCode: 'file:upload' } }],
  ],
]

// The same paths within its power.
const allowedCases: Case[] = [
  [
    'edit a weaker user',
    (c) => ['PUT', '/api/user/update', { body: { id: c.weakUser, nickName: 'weak_user', status: 1 } }],
  ],
  ['delete a weaker user', (c) => ['DELETE', '/api/user/delete', { query: { userId: c.weakUser } }]],
  [
    'link a weak role to a user',
    (c) => ['PUT', '/api/rel/user-rel-role', { body: { id: c.plainUser, roleIds: String(c.weakRole) } }],
  ],
  [
    'unlink a weak role from a user',
    (c) => ['PUT', '/api/rel/user-un-rel-role', { body: { userId: c.weakUser, roleId: c.weakRole } }],
  ],
  [
    'put a user in a weak group',
    (c) => ['PUT', '/api/rel/user-rel-groups', { body: { id: c.plainUser, greoupIds: String(c.weakGroup) } }],
  ],
  [
    'take a user out of a weak group',
    (c) => ['PUT', '/api/rel/user-un-rel-groups', { body: { userId: c.weakUser, groupId: c.weakGroup } }],
  ],
  [
    'give a user a weak position',
    (c) => [
      'PUT',
      '/api/rel/user-rel-position',
      { body: { id: c.plainUser, positionIds: String(c.weakPosition) } },
    ],
  ],
  [
    'take a weak position from a user',
    (c) => [
      'PUT',
      '/api/rel/user-un-rel-position',
      { body: { userId: c.weakUser, positionId: c.weakPosition } },
    ],
  ],
  [
    'add a user to a weak group',
    (c) => [
      'PUT',
      '/api/rel/user-groups-rel-user',
      { body: { userGroupsId: c.weakGroup, userIds: String(c.plainUser) } },
    ],
  ],
  [
    'remove a user from a weak group',
    (c) => [
      'PUT',
      '/api/rel/user-groups-un-rel-user',
      { body: { userGroupsId: c.weakGroup, userIds: String(c.weakUser) } },
    ],
  ],
  [
    'link a weak role to a group',
    (c) => [
      'PUT',
      '/api/rel/user-groups-rel-role',
      { body: { userGroupsId: c.strongGroup, roleIds: String(c.weakRole) } },
    ],
  ],
  [
    'unlink a weak role from a group',
    (c) => [
      'PUT',
      '/api/rel/user-groups-un-rel-role',
      { body: { userGroupsId: c.weakGroup, roleIds: String(c.weakRole) } },
    ],
  ],
  [
    'add a user to a weak position',
    (c) => [
      'PUT',
      '/api/rel/position-rel-user',
      { body: { positionId: c.weakPosition, userIds: String(c.plainUser) } },
    ],
  ],
  [
    'remove a user from a weak position',
    (c) => [
      'PUT',
      '/api/rel/position-un-rel-user',
      { body: { positionId: c.weakPosition, userIds: String(c.weakUser) } },
    ],
  ],
  [
    'link a weak role to a position',
    (c) => [
      'PUT',
      '/api/rel/position-rel-role',
      { body: { positionId: c.strongPosition, roleIds: String(c.weakRole) } },
    ],
  ],
  [
    'unlink a weak role from a position',
    (c) => [
      'PUT',
      '/api/rel/position-un-rel-role',
      { body: { positionId: c.weakPosition, roleIds: String(c.weakRole) } },
    ],
  ],
  [
    'disable a weak group',
    (c) => ['PATCH', '/api/user_groups/enable', { query: { userGroupsId: c.weakGroup, enable: false } }],
  ],
  [
    'rename a stronger group, status unchanged',
    (c) => ['PUT', '/api/user_groups/update', { body: groupForm(c.strongGroup, 1, '强用户组改名') }],
  ],
  [
    'delete a weak group',
    (c) => ['DELETE', '/api/user_groups/delete', { query: { userGroupsId: c.weakGroup } }],
  ],
  [
    'create a group with a weak role and a plain user',
    (c) => [
      'POST',
      '/api/user_groups/insert',
      { body: { groupName: '新组', status: 1, roleIds: String(c.weakRole), userIds: String(c.plainUser) } },
    ],
  ],
  [
    'disable a weak position',
    (c) => ['PATCH', '/api/position/enable', { query: { positionId: c.weakPosition, enable: false } }],
  ],
  [
    'delete a weak position',
    (c) => ['DELETE', '/api/position/delete', { query: { positionIds: String(c.weakPosition) } }],
  ],
  [
    'delete the department of a weak position',
    (c) => ['DELETE', '/api/org/delete', { query: { orgId: c.weakOrg } }],
  ],
  [
    'delete the job title of a weak position',
    (c) => ['DELETE', '/api/station/delete', { query: { stationId: c.weakStation } }],
  ],
  [
    'create a role within its power',
    () => ['POST', '/api/role/insert', { body: { roleName: '新角色', authCodes: WEAK_CODES } }],
  ],
  [
    'edit a weak role',
    (c) => [
      'PUT',
      '/api/role/update',
      { body: { id: c.weakRole, roleName: '弱角色', status: 2, authCodes: ['user'] } },
    ],
  ],
  ['delete a weak role', (c) => ['DELETE', '/api/role/delete', { query: { id: c.weakRole } }]],
  [
    'create a built-in role within its power',
    () => ['POST', '/api/role/admin/insert', { body: { roleName: '内置', authCodes: WEAK_CODES } }],
  ],
  [
    'create a node within its power',
    () => [
      'POST',
      '/api/auth/insert',
      { body: node({ urlPatternInfos: [{ method: 'POST', uri: '/user/list' }] }) },
    ],
  ],
  [
    'edit a node it holds',
    () => ['PUT', '/api/auth/update', { body: storedNode('user:edit', { chName: '编辑用户' }) }],
  ],
]

/** A permission form (the permission screens' fields). */
function node(over: Record<string, unknown>) {
  return {
    chName: '新权限',
    enName: 'newAuth',
    parentCode: 'user',
    seq: 9,
    status: 1,
    type: 3,
    frontEndAccessList: '',
    urlPatternInfos: [],
    ...over,
  }
}

let storedNodes: Record<string, any> = {}
/** The stored node as the edit form sends it, with changes. */
function storedNode(code: string, over: Record<string, unknown>) {
  const n = storedNodes[code]
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

describe('beyond the caller’s power: 403, nothing changed', () => {
  oneCompanyForAll()
  it.each(refusedCases)('%s', async (_name, call) => {
    await expectRefused(call(c))
  })
})

describe('within the caller’s power: allowed', () => {
  freshCompanyPerTest()
  it.each(allowedCases)('%s', async (_name, call) => {
    await expectAllowed(call(c))
  })
})

describe('the refusal names what the caller lacks', () => {
  freshCompanyPerTest()
  it('up to five permission names, or 超级管理员 for the super-admin role', async () => {
    await expectRefused(
      ['PUT', '/api/rel/user-rel-role', { body: { id: c.plainUser, roleIds: String(c.strongRole) } }],
      '上传文件',
    )
    await expectRefused(
      ['PUT', '/api/rel/user-rel-role', { body: { id: c.plainUser, roleIds: String(c.superRoleId) } }],
      '超级管理员',
    )
  })

  it('super-admin roles: created, promoted and linked by super admins only', async () => {
    await expectRefused(
      ['POST', '/api/role/admin/insert', { body: { roleName: '超管2', type: 1 } }],
      '超级管理员',
    )
    await expectRefused(
      [
        'PUT',
        '/api/rel/user-groups-rel-role',
        { body: { userGroupsId: c.weakGroup, roleIds: String(c.superRoleId) } },
      ],
      '超级管理员',
    )
    await expectRefused(
      [
        'PUT',
        '/api/rel/position-rel-role',
        { body: { positionId: c.weakPosition, roleIds: String(c.superRoleId) } },
      ],
      '超级管理员',
    )
    const admin = (method: string, url: string, opts: CallOptions) =>
      t.call(method, url, { ...opts, token: t.adminToken })
    const created = await admin('POST', '/api/role/admin/insert', { body: { roleName: '超管2', type: 1 } })
    expect(created.status).toBe(200)
    const builtIn = await admin('POST', '/api/role/admin/insert', { body: { roleName: '内置2', type: 2 } })
    const promoted = await admin('PUT', '/api/role/admin/update', {
      body: { id: builtIn.body.data, roleName: '内置2', type: 1, status: 1 },
    })
    expect(promoted.status).toBe(200)
    const [row] = await t.db.select().from(roles).where(eq(roles.id, builtIn.body.data))
    expect(row.type).toBe(1)
  })
})

describe('the attacks, each a regression test', () => {
  freshCompanyPerTest()
  it('user:edit alone cannot reset the super admin’s password', async () => {
    const helpdesk = await t.userWithCodes(['user:edit'])
    const before = await accessSnapshot(t.db)
    const res = await t.call('PUT', '/api/user/update', {
      token: helpdesk.token,
      body: { id: c.adminId, nickName: 'admin', status: 1, password: 'Attacker@Pass2026' },
    })
    expect(res.status).toBe(403)
    expect(res.body.msg).toBe(`${BEYOND_POWER_PREFIX}超级管理员`)
    expect(await accessSnapshot(t.db)).toEqual(before)
    const stolen = await t.call('POST', '/api/login', {
      body: { nickName: 'admin', password: 'Attacker@Pass2026' },
    })
    expect(stolen.status).toBe(401)
    expect(
      (await t.call('POST', '/api/login', { body: { nickName: 'admin', password: TEST_ADMIN_PASSWORD } }))
        .status,
    ).toBe(200)
  })

  it.each([
    [
      'PUT',
      '/api/rel/user-rel-groups',
      (c: Company, me: number) => ({ id: me, greoupIds: String(c.superGroup) }),
    ],
    [
      'PUT',
      '/api/rel/user-groups-rel-user',
      (c: Company, me: number) => ({ userGroupsId: c.superGroup, userIds: String(me) }),
    ],
    [
      'PUT',
      '/api/rel/user-rel-position',
      (c: Company, me: number) => ({ id: me, positionIds: String(c.superPosition) }),
    ],
    [
      'PUT',
      '/api/rel/position-rel-user',
      (c: Company, me: number) => ({ positionId: c.superPosition, userIds: String(me) }),
    ],
  ])('joining a super-admin group or position through %s %s is refused', async (method, url, body) => {
    await expectRefused([method, url, { body: body(c, c.limited.id) }], '超级管理员')
    const me = await t.call('GET', '/api/user/current', { token: c.limited.token })
    expect(me.body.data.superAdmin).toBe(false)
  })

  it('re-enabling a disabled super-admin group is refused', async () => {
    await t.call('PATCH', '/api/user_groups/enable', {
      token: t.adminToken,
      query: { userGroupsId: c.superGroup, enable: false },
    })
    await t.db.insert(userGroupUsers).values({ groupId: c.superGroup, userId: c.plainUser })
    await expectRefused([
      'PATCH',
      '/api/user_groups/enable',
      { query: { userGroupsId: c.superGroup, enable: true } },
    ])
    await expectRefused([
      'PUT',
      '/api/user_groups/update',
      { body: groupForm(c.superGroup, 1, '超管用户组') },
    ])
    const plain = await t.login('plain_user')
    expect((await t.call('GET', '/api/user/current', { token: plain })).body.data.superAdmin).toBe(false)
  })

  it('a member of a disabled super-admin group counts as a super admin for edits (no password reset)', async () => {
    await t.call('PATCH', '/api/user_groups/enable', {
      token: t.adminToken,
      query: { userGroupsId: c.superGroup, enable: false },
    })
    await t.db.insert(userGroupUsers).values({ groupId: c.superGroup, userId: c.plainUser })
    await expectRefused(
      [
        'PUT',
        '/api/user/update',
        { body: { id: c.plainUser, nickName: 'plain_user', status: 1, password: 'Attacker@Pass2026' } },
      ],
      '超级管理员',
    )
  })

  it('adminrole:edit cannot promote its own built-in role to super admin', async () => {
    const attacker = await t.userWithCodes(['adminrole', 'adminrole:edit'])
    const [builtIn] = await t.db
      .insert(roles)
      .values({ roleName: '攻击者内置', type: 2, status: 1 })
      .returning({ id: roles.id })
    await t.db.insert(userRoles).values({ userId: attacker.id, roleId: builtIn.id })
    await t.app.ctx.authz.invalidate()
    const res = await t.call('PUT', '/api/role/admin/update', {
      token: attacker.token,
      body: { id: builtIn.id, roleName: '攻击者内置', type: 1, status: 1 },
    })
    expect(res.status).toBe(403)
    expect(res.body.msg).toBe(`${BEYOND_POWER_PREFIX}超级管理员`)
    const [row] = await t.db.select().from(roles).where(eq(roles.id, builtIn.id))
    expect(row.type).toBe(2)
    expect((await t.call('GET', '/api/user/current', { token: attacker.token })).body.data.superAdmin).toBe(
      false,
    )
  })

  it('role:edit alone cannot reach super admin in four calls', async () => {
    const attacker = await t.userWithCodes(['role', 'role:edit'])
    // 1. grant its own role more codes
    const grant = await t.call('PUT', '/api/role/update', {
      token: attacker.token,
      body: {
        id: attacker.roleId,
        roleName: `r_${await nickNameOf(attacker.id)}`,
        status: 1,
        authCodes: ['role', 'role:edit', 'adminrole:add', 'adminrole:edit', 'user:role'],
      },
    })
    expect(grant.status).toBe(403)
    expect(grant.body.msg.startsWith(BEYOND_POWER_PREFIX)).toBe(true)
    expect(
      (await t.db.select().from(roleAuths).where(eq(roleAuths.roleId, attacker.roleId)))
        .map((r) => r.authCode)
        .sort(),
    ).toEqual(['role', 'role:edit'])
    // 2.–4. without those codes, creating, linking and promoting a built-in role are not even reachable
    const create = await t.call('POST', '/api/role/admin/insert', {
      token: attacker.token,
      body: { roleName: 'x' },
    })
    expect(create.status).toBe(403)
    expect(create.body.msg).toBe(MSG.forbidden)
  })

  it('the last super admin, through a group or a position, cannot be taken out from any side', async () => {
    // admin keeps its direct link: unlinking it is refused while it is the only super admin
    const res = await t.call('PUT', '/api/rel/user-un-rel-role', {
      token: t.adminToken,
      body: { userId: c.adminId, roleId: c.superRoleId },
    })
    expect(res.status).toBe(409)
  })
})

describe('the pattern rule on segment boundaries', () => {
  freshCompanyPerTest()
  it('a back-end pattern /user/** does not grant /user_groups/...', async () => {
    const [r] = await t.db
      .insert(roles)
      .values({ roleName: '通配', type: 3, status: 1 })
      .returning({ id: roles.id })
    const code = (
      await t.call('POST', '/api/auth/insert', {
        token: t.adminToken,
        body: node({ chName: '用户通配', urlPatternInfos: [{ method: 'POST', uri: '/user/**' }] }),
      })
    ).body.data
    await t.db.insert(roleAuths).values({ roleId: r.id, authCode: code })
    const u = await t.userWithCodes([])
    await t.db.insert(userRoles).values({ userId: u.id, roleId: r.id })
    await t.app.ctx.authz.invalidate()
    const list = await t.call('POST', '/api/user/list', { token: u.token, body: {} })
    expect(list.status).toBe(200)
    const groups = await t.call('POST', '/api/user_groups/list', { token: u.token, body: {} })
    expect(groups.status).toBe(403)
  })
})

describe('candidates of the link pickers are marked', () => {
  freshCompanyPerTest()
  it('roles, groups and positions beyond the caller’s power are not grantable, with the reason', async () => {
    const rolesList = await asLimited(['POST', '/api/role/namelist', { body: { userId: c.plainUser } }])
    expect(rolesList.status).toBe(200)
    const byId = new Map(rolesList.body.data.map((r: any) => [r.id, r]))
    expect(byId.get(c.weakRole)).toMatchObject({ grantable: true, denyReason: null })
    expect(byId.get(c.strongRole)).toMatchObject({
      grantable: false,
      denyReason: `${BEYOND_POWER_PREFIX}上传文件`,
    })
    expect(byId.get(c.superRoleId)).toMatchObject({
      grantable: false,
      denyReason: `${BEYOND_POWER_PREFIX}超级管理员`,
    })
    const groups = await asLimited(['POST', '/api/user_groups/namelist', { body: { userId: c.plainUser } }])
    const groupById = new Map(groups.body.data.map((g: any) => [g.id, g]))
    expect(groupById.get(c.weakGroup)).toMatchObject({ grantable: true })
    expect(groupById.get(c.strongGroup)).toMatchObject({ grantable: false })
    expect(groupById.get(c.superGroup)).toMatchObject({ grantable: false })
    const positions = await asLimited(['POST', '/api/position/namelist', { body: { userId: c.plainUser } }])
    const positionById = new Map(positions.body.data.map((p: any) => [p.id, p]))
    expect(positionById.get(c.weakPosition)).toMatchObject({ grantable: true })
    expect(positionById.get(c.strongPosition)).toMatchObject({ grantable: false })
    // a super admin may grant everything
    const asAdmin = await t.call('POST', '/api/role/namelist', { token: t.adminToken, body: {} })
    expect(asAdmin.body.data.every((r: any) => r.grantable)).toBe(true)
  })
})

async function nickNameOf(id: number) {
  const [u] = await t.db.select({ nickName: users.nickName }).from(users).where(eq(users.id, id))
  return u.nickName
}
