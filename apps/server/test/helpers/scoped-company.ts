import { isNull } from 'drizzle-orm'
import {
  organizations,
  positions,
  positionUsers,
  roles,
  stations,
  userGroups,
  userGroupUsers,
  users,
} from '../../src/db/schema'
import { eq } from 'drizzle-orm'
import { hashPassword } from '../../src/auth/password'
import { TEST_USER_PASSWORD } from './constants'
import { LIMITED_CODES } from './company'
import type { TestApp } from './app'

/**
 * A small company for the data-scope tests (DESIGN.md §13): departments A (with A1, A2 below it) and
 * B under the root; one position in each (job title 员工); users in A1, in B, one straddling A1 and B,
 * and one with no position; a group holding the three placed users; and a department administrator
 * holding every permission but the file ones through a role of scope 4 (本部门及以下), in a position
 * of A: their scope is A, A1, A2.
 */
export interface ScopedCompany {
  root: number
  orgA: number
  orgA1: number
  orgA2: number
  orgB: number
  posA: number
  posA1: number
  posA2: number
  posB: number
  inside: number
  outside: number
  straddler: number
  unplaced: number
  group: number
  scoped: { id: number; token: string; roleId: number }
  adminId: number
}

export async function seedScopedCompany(t: TestApp): Promise<ScopedCompany> {
  const db = t.db
  const [root] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(isNull(organizations.parent))
  const org = async (name: string, parent: number) => {
    const [o] = await db
      .insert(organizations)
      .values({ organizationName: name, parent })
      .returning({ id: organizations.id })
    return o.id
  }
  const orgA = await org('研发中心', root.id)
  const orgA1 = await org('前端组', orgA)
  const orgA2 = await org('后端组', orgA)
  const orgB = await org('销售部', root.id)
  const [station] = await db.insert(stations).values({ stationName: '员工' }).returning({ id: stations.id })
  const position = async (orgId: number) => {
    const [p] = await db
      .insert(positions)
      .values({ orgId, stationId: station.id })
      .returning({ id: positions.id })
    return p.id
  }
  const posA = await position(orgA)
  const posA1 = await position(orgA1)
  const posA2 = await position(orgA2)
  const posB = await position(orgB)
  const passwordHash = await hashPassword(TEST_USER_PASSWORD)
  const user = async (nickName: string, held: number[]) => {
    const [u] = await db
      .insert(users)
      .values({ nickName, passwordHash, status: 1 })
      .returning({ id: users.id })
    if (held.length)
      await db.insert(positionUsers).values(held.map((positionId) => ({ positionId, userId: u.id })))
    return u.id
  }
  const inside = await user('inside_user', [posA1])
  const outside = await user('outside_user', [posB])
  const straddler = await user('straddler', [posA1, posB])
  const unplaced = await user('unplaced_user', [])
  const [g] = await db
    .insert(userGroups)
    .values({ groupName: '全公司群', status: 1 })
    .returning({ id: userGroups.id })
  await db
    .insert(userGroupUsers)
    .values([inside, outside, straddler].map((userId) => ({ groupId: g.id, userId })))
  const scoped = await t.userWithCodes(LIMITED_CODES, 'dept_admin')
  await db.update(roles).set({ dataScope: 4 }).where(eq(roles.id, scoped.roleId))
  await db.insert(positionUsers).values({ positionId: posA, userId: scoped.id })
  // the rows above were written behind the server's back: drop what it holds in memory
  t.app.ctx.changes.dropAll()
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.nickName, 'admin'))
  return {
    root: root.id,
    orgA,
    orgA1,
    orgA2,
    orgB,
    posA,
    posA1,
    posA2,
    posB,
    inside,
    outside,
    straddler,
    unplaced,
    group: g.id,
    scoped,
    adminId: admin.id,
  }
}
