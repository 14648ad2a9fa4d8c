import { and, count, eq, sql, type SQL } from 'drizzle-orm'
import type {
  PageResult,
  UserGroupListQuery,
  UserGroupRow,
  UserPositionListQuery,
  UserPositionRow,
  UserRoleListQuery,
  UserRoleRow,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import { positions, positionUsers, roles, stations, userGroups } from '../../db/schema'
import { requireReadableUser, visibleOrg, type Caller } from '../../auth/user-scope'
import { requireExisting } from '../links/existing'
import { linkedPage } from '../links/linked-lists'
import { orgCompleteNames } from '../position/org-paths'
import { orgsUnder } from './user-list'

/** The tabs of one user's screen: the roles, groups and positions the user is linked to. */

/** A user's tab lists: 404 when the user does not exist, 403 when outside the caller's scope. */
async function requireVisible(db: Db, caller: Caller, userId: number) {
  await requireExisting(db, 'user', [userId])
  await requireReadableUser(db, caller, userId)
}

/** What the 角色 and 用户组 tabs show of each linked record. */
const TAB_FIELDS = {
  role: {
    id: roles.id,
    roleName: roles.roleName,
    type: roles.type,
    status: roles.status,
    description: roles.description,
  },
  group: {
    id: userGroups.id,
    groupName: userGroups.groupName,
    status: userGroups.status,
    description: userGroups.description,
  },
}

/** A page of the user's roles or groups, whose name contains `name` when given. */
async function userTab<T extends keyof typeof TAB_FIELDS>(
  db: Db,
  caller: Caller,
  target: T,
  q: { userId: number; pageNum?: number; pageSize?: number },
  name: string | null | undefined,
) {
  await requireVisible(db, caller, q.userId)
  return linkedPage(db, {
    owner: 'user',
    ownerId: q.userId,
    target,
    fields: TAB_FIELDS[target],
    nameContains: name,
    page: q,
  })
}

export const listUserRoles = (
  db: Db,
  q: UserRoleListQuery,
  caller: Caller,
): Promise<PageResult<UserRoleRow>> => userTab(db, caller, 'role', q, q.roleName)

export const listUserGroups = (
  db: Db,
  q: UserGroupListQuery,
  caller: Caller,
): Promise<PageResult<UserGroupRow>> => userTab(db, caller, 'group', q, q.groupName)

/**
 * Positions a user holds, in a department (or below it) and of a job title when given, each with its
 * department's full path name (root first, joined by '-').
 */
export async function listUserPositions(
  db: Db,
  q: UserPositionListQuery,
  caller: Caller,
): Promise<PageResult<UserPositionRow> & { hiddenPositions?: number }> {
  await requireVisible(db, caller, q.userId)
  const where: SQL[] = []
  // positions in departments outside the scope are counted, not listed (DESIGN.md §13)
  const inScope = visibleOrg(caller, positions.orgId)
  if (inScope) where.push(inScope)
  if (q.stationId != null) where.push(eq(positions.stationId, q.stationId))
  if (q.orgId != null) where.push(sql`${positions.orgId} in (${orgsUnder(q.orgId)})`)
  const { list, total } = await linkedPage(db, {
    owner: 'user',
    ownerId: q.userId,
    target: 'position',
    fields: {
      id: positions.id,
      orgId: positions.orgId,
      stationId: positions.stationId,
      stationName: sql<string>`(select ${stations.stationName} from ${stations} where ${stations.id} = ${positions.stationId})`,
      status: positions.status,
      type: positions.type,
    },
    where: and(...where),
    page: q,
  })
  const names = await orgCompleteNames(
    db,
    list.map((p) => p.orgId),
  )
  return {
    list: list.map((p) => ({
      id: p.id,
      orgId: p.orgId,
      stationId: p.stationId,
      organizationCompleteName: names.get(p.orgId) ?? '',
      stationName: p.stationName,
      status: p.status,
      type: p.type,
      expiresAt: p.expiresAt ?? null,
    })),
    total,
    ...(inScope ? { hiddenPositions: await hiddenPositionsOf(db, q.userId, inScope) } : {}),
  }
}

/** How many of the user's positions lie in departments outside the caller's scope. */
async function hiddenPositionsOf(db: Db, userId: number, inScope: SQL): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(positionUsers)
    .innerJoin(positions, eq(positions.id, positionUsers.positionId))
    .where(and(eq(positionUsers.userId, userId), sql`not ${inScope}`))
  return Number(n)
}
