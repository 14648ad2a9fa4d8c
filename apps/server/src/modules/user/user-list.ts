import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm'
import { isBlank, type PageResult, type UserListBody, type UserListRow } from '@amg/contract'
import type { Db } from '../../db/connection'
import { organizations, positions, positionUsers, roles, stations, userRoles, users } from '../../db/schema'
import { orgInScope, scopeKey, visibleUser, type Caller } from '../../auth/user-scope'
import { paging } from '../../lib/paged'
import { containsPattern } from '../../lib/like'
import { heldPositions } from '../../lib/held-positions'
import { inIdOrder, newestFirstPage, type ListMemory } from '../../lib/newest-first-page'
import type { VersionedCache } from '../../cache/versioned-cache'
import { isoTimes, userRowColumns } from './user-read'

/**
 * POST /user/list: newest first. The page's ids come from the (create_time, id) index, then only those
 * rows are read, with their positions and roles in one more query each (per page, not per row); the
 * total is exact (lib/newest-first-page.ts). Text filters match anywhere, case-insensitively; from 3
 * characters on a trigram index serves the nickName.
 *
 * What is read is kept in the list cache only for filters on columns whose changes the cache hears of
 * (nickName, status: the users trigger; the positions held and their departments, for a scoped
 * caller's list, kept per scope). A keyword also looks at realName and mobile, and a department at the
 * department tree, which those triggers do not watch: those lists are read afresh each time, so they
 * are never stale.
 */
export async function listUsers(
  db: Db,
  listCache: VersionedCache,
  q: UserListBody,
  caller: Caller,
): Promise<PageResult<UserListRow>> {
  const { nickName, keyword, orgId, status, inScope, filters, walk } = userListFilters(q, caller)
  const { pageSize, offset } = paging(q)
  const watched = keyword === null && orgId === null
  const { ids, ...total } = await newestFirstPage(
    db,
    watched ? listCache : READ_AFRESH,
    {
      source: { table: users, id: users.id, createTime: users.createTime },
      where: filters.length ? and(...filters) : undefined,
      walk,
      key: `users:${JSON.stringify([nickName, status])}${inScope ? `:${scopeKey(caller)}` : ''}`,
    },
    { offset, limit: pageSize },
  )
  if (!ids.length) return { list: [], ...total }
  const [rows, held] = await Promise.all([
    db
      .select({
        ...userRowColumns,
        // DESIGN.md §14: the list shows who has two-step sign-in
        mfaEnabled: sql<boolean>`exists (select 1 from user_mfa m where m.user_id = ${users.id} and m.enabled)`,
      })
      .from(users)
      .where(inArray(users.id, ids)),
    heldByUsers(db, ids, caller),
  ])
  return {
    list: inIdOrder(rows, ids).map((row) => ({
      ...isoTimes(row),
      positions: held.positions.get(row.id) ?? [],
      ...(held.hidden.has(row.id) ? { hiddenPositions: held.hidden.get(row.id) } : {}),
      roles: held.roles.get(row.id) ?? [],
    })),
    ...total,
  }
}

/**
 * The user list's filters and the caller's scope (DESIGN.md §13), shared by the list and the export
 * (DESIGN.md §15), so an export holds exactly the users the list shows.
 */
export function userListFilters(
  q: Pick<UserListBody, 'nickName' | 'keyword' | 'orgId' | 'status'>,
  caller: Caller,
) {
  const nickName = isBlank(q.nickName) ? null : q.nickName!.trim()
  const keyword = isBlank(q.keyword) ? null : q.keyword!.trim()
  const orgId = q.orgId ?? null
  const status = q.status ?? null
  const filters: SQL[] = []
  if (nickName) filters.push(ilike(users.nickName, containsPattern(nickName)))
  if (keyword) {
    const pattern = containsPattern(keyword)
    filters.push(
      or(ilike(users.nickName, pattern), ilike(users.realName, pattern), ilike(users.mobile, pattern))!,
    )
  }
  if (orgId != null) filters.push(holdsPositionUnder(orgId))
  if (status != null) filters.push(eq(users.status, status))
  // data scope (DESIGN.md §13): who is visible depends on the positions held and their departments,
  // which the list cache hears of too (migration 0019), and on the caller's scope, which names the list;
  // `walk` is the same condition checked row by row, for pages read along the index
  const inScope = visibleUser(caller, users.id)
  const walk = inScope
    ? and(...filters, visibleUser(caller, users.id, { rowByRow: true }))
    : filters.length
      ? and(...filters)
      : undefined
  if (inScope) filters.push(inScope)
  return { nickName, keyword, orgId, status, inScope, filters, walk }
}

/** A list memory that keeps nothing: the list is read from the database each time. */
const READ_AFRESH: ListMemory = { token: () => 0, peek: () => undefined, store: () => undefined }

/** The ids of the department `orgId` and of every department below it, as a subquery. */
export const orgsUnder = (orgId: number): SQL => sql`with recursive subtree(id) as (
        select id from organizations where id = ${orgId}
        union
        select o.id from organizations o join subtree s on o.parent = s.id
      ) select id from subtree`

/** The user holds a position in the department `orgId` or any department below it. */
const holdsPositionUnder = (orgId: number): SQL => sql`exists (
    select 1 from ${positionUsers} pu join ${positions} p on p.id = pu.position_id
    where pu.user_id = ${users.id} and p.org_id in (${orgsUnder(orgId)}))`

/**
 * The positions ('部门-职位', the department's own name) and the directly linked roles of a page of
 * users: one query each for the whole page.
 */
async function heldByUsers(db: Db, userIds: number[], caller: Caller) {
  const [positionRows, roleRows] = await Promise.all([
    heldPositions(
      db,
      inArray(positionUsers.userId, userIds),
      asc(organizations.organizationName),
      asc(stations.stationName),
    ),
    db
      .select({ userId: userRoles.userId, roleName: roles.roleName })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(inArray(userRoles.userId, userIds))
      .orderBy(asc(roles.id)),
  ])
  const group = <R extends { userId: number }>(rows: R[], text: (r: R) => string) => {
    const byUser = new Map<number, string[]>()
    for (const r of rows) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), text(r)])
    return byUser
  }
  // positions in departments outside the caller's scope are not shown, only counted (DESIGN.md §13)
  const hidden = new Map<number, number>()
  for (const r of positionRows)
    if (!orgInScope(caller, r.orgId)) hidden.set(r.userId, (hidden.get(r.userId) ?? 0) + 1)
  return {
    hidden,
    positions: group(
      positionRows.filter((r) => orgInScope(caller, r.orgId)),
      (r) => `${r.orgName}-${r.stationName}`,
    ),
    roles: group(roleRows, (r) => r.roleName),
  }
}
