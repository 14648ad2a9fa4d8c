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
} from '../../src/db/schema'
import { hashPassword } from '../../src/auth/password'
import { TEST_USER_PASSWORD } from './constants'
import type { TestApp } from './app'

/**
 * A small world for the authz API (DESIGN.md §10): a user holding `user` directly, one holding
 * `role` through a group, one holding `org` through a position, and a frozen user linked to the
 * group's role directly (who must never count).
 */
export interface AuthzWorld {
  adminId: number
  superRoleId: number
  direct: { id: number; token: string; roleId: number }
  groupUser: { id: number; token: string }
  positionUser: { id: number; token: string }
  frozenId: number
  groupRole: number
  positionRole: number
  groupId: number
  positionId: number
}

export async function seedAuthzWorld(t: TestApp): Promise<AuthzWorld> {
  const db = t.db
  const [{ id: superRoleId }] = await db.select({ id: roles.id }).from(roles).where(eq(roles.type, 1))
  const [{ id: adminId }] = await db.select({ id: users.id }).from(users).where(eq(users.nickName, 'admin'))
  const passwordHash = await hashPassword(TEST_USER_PASSWORD)
  const user = async (nickName: string, status = 1) =>
    (await db.insert(users).values({ nickName, passwordHash, status }).returning({ id: users.id }))[0].id
  const role = async (roleName: string, codes: string[]) => {
    const [r] = await db.insert(roles).values({ roleName, type: 3, status: 1 }).returning({ id: roles.id })
    await db.insert(roleAuths).values(codes.map((authCode) => ({ roleId: r.id, authCode })))
    return r.id
  }

  const direct = await t.userWithCodes(['user'], 'az_direct')

  const groupRole = await role('az_group_role', ['role'])
  const [group] = await db
    .insert(userGroups)
    .values({ groupName: 'az_group', status: 1 })
    .returning({ id: userGroups.id })
  await db.insert(userGroupRoles).values({ groupId: group.id, roleId: groupRole })
  const groupUserId = await user('az_group_user')
  await db.insert(userGroupUsers).values({ groupId: group.id, userId: groupUserId })

  const positionRole = await role('az_position_role', ['org'])
  const [root] = await db.select().from(organizations).where(isNull(organizations.parent))
  const [org] = await db
    .insert(organizations)
    .values({ organizationName: 'az部', parent: root.id })
    .returning({ id: organizations.id })
  const [station] = await db.insert(stations).values({ stationName: 'az岗' }).returning({ id: stations.id })
  const [position] = await db
    .insert(positions)
    .values({ orgId: org.id, stationId: station.id })
    .returning({ id: positions.id })
  await db.insert(positionRoles).values({ positionId: position.id, roleId: positionRole })
  const positionUserId = await user('az_position_user')
  await db.insert(positionUsers).values({ positionId: position.id, userId: positionUserId })

  const frozenId = await user('az_frozen', 2)
  await db.insert(userRoles).values({ userId: frozenId, roleId: groupRole })
  await t.app.ctx.authz.invalidate()

  return {
    adminId,
    superRoleId,
    direct,
    groupUser: { id: groupUserId, token: await t.login('az_group_user') },
    positionUser: { id: positionUserId, token: await t.login('az_position_user') },
    frozenId,
    groupRole,
    positionRole,
    groupId: group.id,
    positionId: position.id,
  }
}
