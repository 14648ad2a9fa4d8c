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

/**
 * Moves the super-admin rights from admin's direct link to another user, through `via`. Only a
 * super admin may manage a super admin's group or position (DESIGN.md §6a), so the one trying to
 * remove the last super admin below is that super admin themself.
 */
async function onlySuperAdminThrough(via: 'group' | 'position') {
  const holder = await t.userWithCodes([], `holder_${via}`)
  const userId = holder.id
  let holderId: number
  if (via === 'group') {
    const [group] = await t.db.insert(userGroups).values({ groupName: 'super-group', status: 1 }).returning()
    await t.db.insert(userGroupRoles).values({ groupId: group.id, roleId: superRoleId })
    await t.db.insert(userGroupUsers).values({ groupId: group.id, userId })
    holderId = group.id
  } else {
    const [root] = await t.db.select().from(organizations).where(isNull(organizations.parent))
    const [org] = await t.db
      .insert(organizations)
      .values({ organizationName: 'super-dept', parent: root.id })
      .returning()
    const [station] = await t.db.insert(stations).values({ stationName: 'super-station' }).returning()
    const [position] = await t.db
      .insert(positions)
      .values({ orgId: org.id, stationId: station.id })
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
  return { userId, holderId, token: holder.token }
}

describe('the last super admin through a group', () => {
  it('cannot lose the group: disable, update, delete, unlink the role or the user, from either side', async () => {
    const { userId, holderId: groupId, token } = await onlySuperAdminThrough('group')
    refused(
      await t.call('PATCH', '/api/user_groups/enable', {
        token,
        query: { userGroupsId: groupId, enable: false },
      }),
    )
    refused(
      await t.call('PUT', '/api/user_groups/update', {
        token,
        body: { id: groupId, groupName: 'super-group', status: 2 },
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
    refused(await t.call('PUT', '/api/rel/user-un-rel-groups', { token, body: { userId, groupId } }))
    const [group] = await t.db.select().from(userGroups).where(eq(userGroups.id, groupId))
    expect(group.status).toBe(1)
    expect(await t.db.select().from(userGroupUsers).where(eq(userGroupUsers.groupId, groupId))).toHaveLength(
      1,
    )
    expect(await t.db.select().from(userGroupRoles).where(eq(userGroupRoles.groupId, groupId))).toHaveLength(
      1,
    )
  })
})

describe('the last super admin through a position', () => {
  it('cannot lose the position: disable, delete, unlink, department or job-title delete, from either side', async () => {
    const { userId, holderId: positionId, token } = await onlySuperAdminThrough('position')
    const [position] = await t.db.select().from(positions).where(eq(positions.id, positionId))
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
    refused(await t.call('PUT', '/api/rel/user-un-rel-position', { token, body: { userId, positionId } }))
    refused(
      await t.call('DELETE', '/api/station/delete', { token, query: { stationId: position.stationId } }),
    )
    refused(await t.call('DELETE', '/api/org/delete', { token, query: { orgId: position.orgId } }))
    const [after] = await t.db.select().from(positions).where(eq(positions.id, positionId))
    expect(after.status).toBe(1)
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

  it('two super admins removing each other at once: one super admin remains', async () => {
    const { userId, holderId: groupId, token } = await onlySuperAdminThrough('group')
    // admin is a super admin again through a second group; each takes the other out at the same moment
    const [second] = await t.db.insert(userGroups).values({ groupName: 'super-2', status: 1 }).returning()
    await t.db.insert(userGroupRoles).values({ groupId: second.id, roleId: superRoleId })
    await t.db.insert(userGroupUsers).values({ groupId: second.id, userId: adminId })
    await t.app.ctx.authz.invalidate()
    const [a, b] = await Promise.all([
      t.call('PUT', '/api/rel/user-un-rel-groups', { token: t.adminToken, body: { userId, groupId } }),
      t.call('PUT', '/api/rel/user-un-rel-groups', { token, body: { userId: adminId, groupId: second.id } }),
    ])
    // the second to run is refused: by the guard (409), or already by the power check (403) when it
    // sees that the first change took its own super-admin rights away
    const statuses = [a.status, b.status].sort()
    expect(statuses[0]).toBe(200)
    expect([403, 409]).toContain(statuses[1])
    const remaining = await t.db.select().from(userGroupUsers)
    const supers = remaining.filter(
      (r) =>
        (r.groupId === groupId && r.userId === userId) || (r.groupId === second.id && r.userId === adminId),
    )
    expect(supers).toHaveLength(1)
  })
})
