import { eq, isNull } from 'drizzle-orm'
import { SEED_AUTH_TREE, type SeedAuthNode } from '../../src/db/seed-auth-tree'
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

const codesOf = (nodes: SeedAuthNode[]): string[] =>
  nodes.flatMap((n) => [n.code, ...codesOf(n.children ?? [])])

/** Every seeded code but the file subtree: what the limited administrator holds. */
export const LIMITED_CODES = codesOf(SEED_AUTH_TREE).filter((c) => c !== 'file' && !c.startsWith('file:'))
/** Codes the limited administrator lacks. */
export const STRONG_CODES = ['file', 'file:upload']
/** Codes the limited administrator holds too. */
export const WEAK_CODES = ['user', 'org']

/**
 * A small company for the no-escalation tests (DESIGN.md §6a): a limited administrator holding every
 * seeded permission but the file ones, and, on each side of that line, a role, a group, a position
 * and a user: "strong" ones carry power the administrator lacks, "weak" ones only power it holds;
 * "super" ones carry the super-admin role.
 */
export interface Company {
  superRoleId: number
  adminId: number
  limited: { id: number; token: string; roleId: number }
  strongRole: number
  weakRole: number
  strongGroup: number
  weakGroup: number
  superGroup: number
  strongPosition: number
  weakPosition: number
  superPosition: number
  /** departments and job titles of the positions: each holds one position only */
  strongOrg: number
  strongStation: number
  weakOrg: number
  weakStation: number
  strongUser: number
  weakUser: number
  plainUser: number
}

export async function seedCompany(t: TestApp): Promise<Company> {
  const db = t.db
  const [{ id: superRoleId }] = await db.select({ id: roles.id }).from(roles).where(eq(roles.type, 1))
  const [{ id: adminId }] = await db.select({ id: users.id }).from(users).where(eq(users.nickName, 'admin'))
  const role = async (roleName: string, codes: string[]) => {
    const [r] = await db.insert(roles).values({ roleName, type: 3, status: 1 }).returning({ id: roles.id })
    await db.insert(roleAuths).values(codes.map((authCode) => ({ roleId: r.id, authCode })))
    return r.id
  }
  const strongRole = await role('强角色', STRONG_CODES)
  const weakRole = await role('弱角色', WEAK_CODES)
  const group = async (groupName: string, roleId: number) => {
    const [g] = await db.insert(userGroups).values({ groupName, status: 1 }).returning({ id: userGroups.id })
    await db.insert(userGroupRoles).values({ groupId: g.id, roleId })
    return g.id
  }
  const strongGroup = await group('强用户组', strongRole)
  const weakGroup = await group('弱用户组', weakRole)
  const superGroup = await group('超管用户组', superRoleId)
  const [root] = await db.select().from(organizations).where(isNull(organizations.parent))
  const position = async (name: string, roleId: number) => {
    const [org] = await db
      .insert(organizations)
      .values({ organizationName: `${name}部`, parent: root.id })
      .returning({ id: organizations.id })
    const [station] = await db
      .insert(stations)
      .values({ stationName: `${name}岗` })
      .returning({ id: stations.id })
    const [p] = await db
      .insert(positions)
      .values({ orgId: org.id, stationId: station.id })
      .returning({ id: positions.id })
    await db.insert(positionRoles).values({ positionId: p.id, roleId })
    return { id: p.id, orgId: org.id, stationId: station.id }
  }
  const strongPos = await position('强', strongRole)
  const weakPos = await position('弱', weakRole)
  const superPos = await position('超管', superRoleId)
  const passwordHash = await hashPassword(TEST_USER_PASSWORD) // one hash for all: hashing is slow on purpose
  const user = async (nickName: string) => {
    const [u] = await db
      .insert(users)
      .values({ nickName, passwordHash, status: 1 })
      .returning({ id: users.id })
    return u.id
  }
  const strongUser = await user('strong_user')
  await db.insert(userRoles).values({ userId: strongUser, roleId: strongRole })
  await db.insert(userGroupUsers).values({ groupId: strongGroup, userId: strongUser })
  await db.insert(positionUsers).values({ positionId: strongPos.id, userId: strongUser })
  const weakUser = await user('weak_user')
  await db.insert(userRoles).values({ userId: weakUser, roleId: weakRole })
  await db.insert(userGroupUsers).values({ groupId: weakGroup, userId: weakUser })
  await db.insert(positionUsers).values({ positionId: weakPos.id, userId: weakUser })
  const plainUser = await user('plain_user')
  const limited = await t.userWithCodes(LIMITED_CODES, 'limited_admin')
  return {
    superRoleId,
    adminId,
    limited,
    strongRole,
    weakRole,
    strongGroup,
    weakGroup,
    superGroup,
    strongPosition: strongPos.id,
    weakPosition: weakPos.id,
    superPosition: superPos.id,
    strongOrg: strongPos.orgId,
    strongStation: strongPos.stationId,
    weakOrg: weakPos.orgId,
    weakStation: weakPos.stationId,
    strongUser,
    weakUser,
    plainUser,
  }
}
