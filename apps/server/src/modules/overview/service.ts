import { sql, type SQL } from 'drizzle-orm'
import { routes, type RouteSpec, type SystemOverview } from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import type { Authorizer } from '../../auth/authorizer'
import { countActiveSuperAdmins } from '../../auth/super-admin-guard'
import { callerOfCall, visibleOrg, visibleUser, type Caller } from '../../auth/user-scope'
import { listOperations } from '../log/index'

/** How many of the caller's own operations the home page lists. */
export const RECENT_OPERATIONS = 5

/** Whether the user may make the call the contract describes (any of its methods). */
async function mayCall(authz: Authorizer, userId: number, route: Pick<RouteSpec, 'method' | 'path'>) {
  const methods = typeof route.method === 'string' ? [route.method] : route.method
  for (const method of methods) if (await authz.can(userId, method, route.path)) return true
  return false
}

/** The user with the scope of the list a figure summarises (DESIGN.md §13: the figure obeys it as the list does). */
const callerOfList = (authz: Authorizer, userId: number, route: Pick<RouteSpec, 'method' | 'path'>) =>
  callerOfCall(authz, userId, typeof route.method === 'string' ? route.method : route.method[0], route.path)

/** `within`: a condition on the table's rows (undefined: all), where the list is scoped. */
const count = async (db: Db, table: string, within?: SQL): Promise<number> => {
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*) as n from ${sql.identifier(table)} ${within ? sql`where ${within}` : sql``}`,
  )
  return Number(row?.n ?? 0)
}

async function userCounts(db: Db, caller: Caller) {
  const visible = visibleUser(caller, sql`users.id`)
  const [row] = await queryRows<{
    active: number | string
    frozen: number | string
    initial: number | string
  }>(
    db,
    sql`select count(*) filter (where status = 1) as active,
               count(*) filter (where status <> 1) as frozen,
               count(*) filter (where password_is_initial = 1) as initial
          from users ${visible ? sql`where ${visible}` : sql``}`,
  )
  return {
    active: Number(row?.active ?? 0),
    frozen: Number(row?.frozen ?? 0),
    initialPassword: Number(row?.initial ?? 0),
  }
}

/**
 * The home page's figures for this user: each only when they may call the list it summarises (the
 * authorizer decides, as it would for that list), so the overview reveals nothing the lists would not.
 * Plain count(*) queries: a few milliseconds at the sizes the lists serve.
 */
export async function overviewFor(
  db: Db,
  authz: Authorizer,
  userId: number,
  timeZone: string,
): Promise<SystemOverview> {
  const may = (route: Pick<RouteSpec, 'method' | 'path'>) => mayCall(authz, userId, route)
  const [users, roles, groups, orgs, stations, positions, services, operations] = await Promise.all([
    may(routes.user.list),
    may(routes.role.list),
    may(routes.userGroup.list),
    may(routes.org.tree),
    may(routes.station.list),
    may(routes.position.list),
    may(routes.service.list),
    may(routes.monitor.operationList),
  ])
  const overview: SystemOverview = {}
  if (users) {
    // the users the user list shows, and of them the super admins
    const caller = await callerOfList(authz, userId, routes.user.list)
    overview.users = await userCounts(db, caller)
    // who holds the super admin role is a question about users and roles both
    if (roles) overview.superAdmins = await countActiveSuperAdmins(db, visibleUser(caller, sql`u.id`))
  }
  if (roles) overview.roles = await count(db, 'roles')
  if (groups) overview.userGroups = await count(db, 'user_groups')
  if (orgs) {
    const caller = await callerOfList(authz, userId, routes.org.tree)
    overview.organizations = await count(db, 'organizations', visibleOrg(caller, sql`id`))
  }
  if (stations) overview.stations = await count(db, 'stations')
  if (positions) {
    const caller = await callerOfList(authz, userId, routes.position.list)
    overview.positions = await count(db, 'positions', visibleOrg(caller, sql`org_id`))
  }
  if (services) overview.services = await count(db, 'services')
  if (operations) {
    // the rows about users obey the scope of the operation log's list call (DESIGN.md §13)
    const page = await listOperations(
      db,
      { operatorId: userId, pageSize: RECENT_OPERATIONS },
      timeZone,
      await callerOfList(authz, userId, routes.monitor.operationList),
    )
    overview.recentOperations = page.list.map(({ id, time, summary, resourceName, result }) => ({
      id,
      time,
      summary,
      resourceName,
      result,
    }))
  }
  return overview
}
