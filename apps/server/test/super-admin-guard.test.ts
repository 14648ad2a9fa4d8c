import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { eq, isNull } from 'drizzle-orm'
import {
  organizations,
  positionRoles,
  positions,
  positionUsers,
  roles,
  stations,
  userGroupRoles,
  userGroups,
  userGroupUsers,
  userRoles,
  users,
} from '../src/db/schema'
import { LAST_SUPER_ADMIN_MSG } from '../src/auth/super-admin-guard'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * DESIGN.md §6: the last active super admin cannot be removed, frozen or unlinked — also when the
 * super-admin role reaches them only through a group or a position.
 */
let t: TestApp
let superRoleId: number
let adminId: number

beforeEach(async () => {
  t = await createTestApp()
  ;[{ id: superRoleId }] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.type, 1))
  ;[{ id: adminId }] = await t.db.select({ id: users.id }).from(users).where(eq(users.nickName, 'admin'))
})
afterEach(async () => t.close())

const refused = (res: { status: number; body: { msg: string } }) => {
  expect(res.status).toBe(409)
  expect(res.body.msg).toBe(LAST_SUPER_ADMIN_MSG)
}

/** Moves the super-admin rights from admin's direct link to another user, through `via`. */
async function onlySuperAdminThrough(via: 'group' | 'position') {
  const { id: userId } = await t.userWithCodes([], `holder_${via}`)
  let holderId: number
  if (via === 'group') {
    const [group] = await t.db.insert(userGroups).values({ groupName: 'super-group', status: 1 }).returning()
    await t.db.insert(userGroupRoles).values({ groupId: group.id, roleId: superRoleId })
    await t.db.insert(userGroupUsers).values({ groupId: group.id, userId })
    holderId = group.id
  } else {
    const [root] = await t.db.select().from(organizations).where(isNull(organizations.parent))
    const [station] = await t.db.insert(stations).values({ stationName: 'super-station' }).returning()
    const [position] = await t.db
      .insert(positions)
      .values({ orgId: root.id, stationId: station.id })
      .returning()
    await t.db.insert(positionRoles).values({ positionId: position.id, roleId: superRoleId })
    await t.db.insert(positionUsers).values({ positionId: position.id, userId })
    holderId = position.id
  }
  // With a second super admin, admin's own link may go.
  const unlink = await t.call('PUT', '/api/rel/user-un-rel-role', {
    token: t.adminToken,
    body: { roleId: superRoleId, userId: adminId },
  })
  expect(unlink.status).toBe(200)
  expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, adminId))).toEqual([])
  return { userId, holderId }
}

describe('the last super admin through a group', () => {
  it('cannot lose the group: disable, delete, unlink the role or the user', async () => {
    const { userId, holderId: groupId } = await onlySuperAdminThrough('group')
    const token = t.adminToken // admin's session stays; the server checks rights per request
    await t.db.insert(userRoles).values({
      userId: adminId,
      roleId: (await t.userWithCodes(['usergroup:edit', 'usergroup:delete', 'usergroup:link'])).roleId,
    })
    await t.app.ctx.authz.invalidate()
    refused(
      await t.call('PATCH', '/api/user_groups/enable', {
        token,
        query: { userGroupsId: groupId, enable: false },
      }),
    )
    refused(await t.call('DELETE', '/api/user_groups/delete', { token, query: { userGroupsId: groupId } }))
    refused(
      await t.call('PUT', '/api/rel/user-groups-un-rel-role', {
        token,
        body: { userGroupsId: groupId, roleIds: String(superRoleId) },
      }),
    )
    refused(
      await t.call('PUT', '/api/rel/user-groups-un-rel-user', {
        token,
        body: { userGroupsId: groupId, userIds: String(userId) },
      }),
    )
    const [group] = await t.db.select().from(userGroups).where(eq(userGroups.id, groupId))
    expect(group.status).toBe(1)
    expect(await t.db.select().from(userGroupUsers).where(eq(userGroupUsers.groupId, groupId))).toHaveLength(
      1,
    )
  })
})

describe('the last super admin through a position', () => {
  it('cannot lose the position: disable, delete, unlink the role or the user', async () => {
    const { userId, holderId: positionId } = await onlySuperAdminThrough('position')
    const token = t.adminToken
    await t.db.insert(userRoles).values({
      userId: adminId,
      roleId: (
        await t.userWithCodes(['position:enable', 'position:delete', 'position:link', 'station:delete'])
      ).roleId,
    })
    await t.app.ctx.authz.invalidate()
    refused(await t.call('PATCH', '/api/position/enable', { token, query: { positionId, enable: false } }))
    refused(
      await t.call('DELETE', '/api/position/delete', { token, query: { positionIds: String(positionId) } }),
    )
    refused(
      await t.call('PUT', '/api/rel/position-un-rel-role', {
        token,
        body: { positionId, roleIds: String(superRoleId) },
      }),
    )
    refused(
      await t.call('PUT', '/api/rel/position-un-rel-user', {
        token,
        body: { positionId, userIds: String(userId) },
      }),
    )
    const [position] = await t.db.select().from(positions).where(eq(positions.id, positionId))
    refused(
      await t.call('DELETE', '/api/station/delete', { token, query: { stationId: position.stationId } }),
    )
    expect(position.status).toBe(1)
    expect(
      await t.db.select().from(positionUsers).where(eq(positionUsers.positionId, positionId)),
    ).toHaveLength(1)
  })
})

describe('while another super admin remains', () => {
  it('the same changes go through', async () => {
    const { holderId: groupId } = await onlySuperAdminThrough('group')
    // admin becomes a super admin again directly, so the group is no longer the last path
    await t.db.insert(userRoles).values({ userId: adminId, roleId: superRoleId })
    await t.app.ctx.authz.invalidate()
    const res = await t.call('PATCH', '/api/user_groups/enable', {
      token: t.adminToken,
      query: { userGroupsId: groupId, enable: false },
    })
    expect(res.status).toBe(200)
    const [group] = await t.db.select().from(userGroups).where(eq(userGroups.id, groupId))
    expect(group.status).toBe(2)
  })
})
