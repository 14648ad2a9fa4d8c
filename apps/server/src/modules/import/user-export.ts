import { and, asc, between, eq, gt } from 'drizzle-orm'
import type { UserExportQuery } from '@amg/contract'
import type { Db } from '../../db/connection'
import {
  positions,
  positionUsers,
  roles,
  userGroups,
  userGroupUsers,
  userRoles,
  users,
} from '../../db/schema'
import { orgInScope, type Caller } from '../../auth/user-scope'
import { liveLink } from '../../auth/reach'
import { userListFilters } from '../user'
import { STATUS_TEXT } from './user-rows'
import { joinNames, orgPaths, PATH_SEPARATOR } from './names'
import { formatLinkCell } from './link-cell'
import { heldPositions } from '../../lib/held-positions'

const BATCH = 1000

const groupBy = <R extends { userId: number }>(rows: R[], text: (r: R) => string) => {
  const byUser = new Map<number, string[]>()
  for (const r of rows) {
    const list = byUser.get(r.userId)
    if (list) list.push(text(r))
    else byUser.set(r.userId, [text(r)])
  }
  return byUser
}

/**
 * GET /user/export (DESIGN.md §15): the users the list shows for these filters and this caller, in
 * the import template's columns, read a thousand at a time by id, so export → import changes
 * nothing. Positions outside the caller's scope are left out, as the list leaves them out; the
 * initial password column stays empty. A time-bound link is its name with its expiry in the server's
 * zone, `名称（至 2026-12-31 18:00 +08:00）` (link-cell.ts), as the import reads it back.
 */
export async function* exportUsers(
  db: Db,
  q: UserExportQuery,
  caller: Caller,
  timeZone: string,
): AsyncGenerator<string[]> {
  const { filters } = userListFilters(q, caller)
  const paths = await orgPaths(db)
  let after = 0
  for (;;) {
    const page = await db
      .select({
        id: users.id,
        nickName: users.nickName,
        realName: users.realName,
        mobile: users.mobile,
        status: users.status,
      })
      .from(users)
      .where(and(gt(users.id, after), ...filters))
      .orderBy(asc(users.id))
      .limit(BATCH)
    if (page.length === 0) return
    const ids = page.map((u) => u.id)
    // the page's links read by the range of its ids, along each link table's user_id index: an IN
    // list of 1,000 ids is planned as a scan of the whole table when the database has no statistics
    // (PGlite never analyzes), once a page. Filters may leave users of the range out of the page; their
    // links are read and skipped, and successive pages' ranges never overlap.
    // A link past its expiry gives nothing from that instant (DESIGN.md §20) and is the sweeper's to
    // remove: it is not written (an import would refuse its past time), and an import does not hold it.
    const first = ids[0]
    const last = ids[ids.length - 1]
    const [held, roleRows, groupRows] = await Promise.all([
      heldPositions(
        db,
        and(between(positionUsers.userId, first, last), liveLink('position_users')),
        asc(positions.id),
      ),
      db
        .select({ userId: userRoles.userId, name: roles.roleName, at: userRoles.expiresAt })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(and(between(userRoles.userId, first, last), liveLink('user_roles')))
        .orderBy(asc(roles.id)),
      db
        .select({ userId: userGroupUsers.userId, name: userGroups.groupName, at: userGroupUsers.expiresAt })
        .from(userGroupUsers)
        .innerJoin(userGroups, eq(userGroups.id, userGroupUsers.groupId))
        .where(and(between(userGroupUsers.userId, first, last), liveLink('user_group_users')))
        .orderBy(asc(userGroups.id)),
    ])
    const positionsOf = groupBy(
      held.filter((p) => orgInScope(caller, p.orgId)),
      (p) => formatLinkCell(`${paths.get(p.orgId)}${PATH_SEPARATOR}${p.stationName}`, p.expiresAt, timeZone),
    )
    const rolesOf = groupBy(roleRows, (r) => formatLinkCell(r.name, r.at, timeZone))
    const groupsOf = groupBy(groupRows, (g) => formatLinkCell(g.name, g.at, timeZone))
    for (const u of page)
      yield [
        u.nickName,
        u.realName ?? '',
        u.mobile ?? '',
        STATUS_TEXT[u.status] ?? '',
        joinNames(positionsOf.get(u.id) ?? []),
        joinNames(rolesOf.get(u.id) ?? []),
        joinNames(groupsOf.get(u.id) ?? []),
        '',
      ]
    after = last
  }
}
