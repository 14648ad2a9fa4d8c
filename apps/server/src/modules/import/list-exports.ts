import { asc, eq, gt, and, sql } from 'drizzle-orm'
import {
  ROLE_TYPE_LABEL,
  DATA_SCOPE_LABEL,
  logTimeText,
  zonedIso,
  type DataScopeValue,
  type GroupExportQuery,
  type PositionExportQuery,
  type RoleExportQuery,
  type RoleType,
  type StationExportQuery,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { positions, roles, stations, userGroups } from '../../db/schema'
import type { Caller } from '../../auth/user-scope'
import { roleListFilters } from '../role'
import { groupListFilters } from '../user-group'
import { stationListFilters } from '../station/service'
import { listedOrgs } from '../position/service'
import { loadOrgTree } from '../position/org-paths'
import { orgPaths, PATH_SEPARATOR } from './names'

/**
 * The other lists' exports (DESIGN.md §15: 导出 on every list screen): the rows the list shows for
 * the same filters (each through its list's own filter builder), a thousand at a time by id, never
 * the whole list in memory. Roles, groups and job titles are company-wide; positions follow the
 * caller's scope as their list does.
 */

const BATCH = 1000
const STATUS = (s: number) => (s === 1 ? '启用' : '禁用')
/**
 * A time as text a person and a program both read right: the wall time in the server's zone with
 * its offset, `2026-11-28 23:37:55 +08:00`, as the logs and their exports write it.
 */
const time = (d: Date, timeZone: string) => logTimeText(zonedIso(d, timeZone))

async function* byId<R extends { id: number }>(page: (after: number) => Promise<R[]>): AsyncGenerator<R> {
  let after = 0
  for (;;) {
    const rows = await page(after)
    if (rows.length === 0) return
    yield* rows
    after = rows[rows.length - 1].id
  }
}

export const ROLE_EXPORT_COLUMNS = ['角色名称', '类型', '数据范围', '状态', '描述', '创建时间']
export async function* exportRoles(db: Db, q: RoleExportQuery, timeZone: string): AsyncGenerator<string[]> {
  const { where: filters } = roleListFilters(q)
  const rows = byId((after) =>
    db
      .select()
      .from(roles)
      .where(and(gt(roles.id, after), filters))
      .orderBy(asc(roles.id))
      .limit(BATCH),
  )
  for await (const r of rows)
    yield [
      r.roleName,
      ROLE_TYPE_LABEL[r.type as RoleType] ?? '',
      DATA_SCOPE_LABEL[r.dataScope as DataScopeValue] ?? '',
      STATUS(r.status),
      r.description ?? '',
      time(r.createTime, timeZone),
    ]
}

export const GROUP_EXPORT_COLUMNS = ['用户组名称', '状态', '描述', '创建时间']
export async function* exportGroups(db: Db, q: GroupExportQuery, timeZone: string): AsyncGenerator<string[]> {
  const { where } = groupListFilters(q)
  const rows = byId((after) =>
    db
      .select()
      .from(userGroups)
      .where(and(gt(userGroups.id, after), where))
      .orderBy(asc(userGroups.id))
      .limit(BATCH),
  )
  for await (const g of rows)
    yield [g.groupName, STATUS(g.status), g.description ?? '', time(g.createTime, timeZone)]
}

export const STATION_EXPORT_COLUMNS = ['职位名称', '创建时间']
export async function* exportStations(
  db: Db,
  q: StationExportQuery,
  timeZone: string,
): AsyncGenerator<string[]> {
  const filters = stationListFilters(q)
  const rows = byId((after) =>
    db
      .select()
      .from(stations)
      .where(and(gt(stations.id, after), filters))
      .orderBy(asc(stations.id))
      .limit(BATCH),
  )
  for await (const s of rows) yield [s.stationName, time(s.createTime, timeZone)]
}

export const POSITION_EXPORT_COLUMNS = ['部门全称', '职位', '岗位', '状态']
export async function* exportPositions(
  db: Db,
  q: PositionExportQuery,
  caller: Caller,
): AsyncGenerator<string[]> {
  const paths = await orgPaths(db)
  // the list's departments: the filter's subtree and the caller's scope (one array parameter)
  const orgIds =
    caller.scope.all && !q.orgId ? null : listedOrgs(await loadOrgTree(db), { orgId: q.orgId }, caller)
  const inScope = and(
    orgIds ? sql`${positions.orgId} = any(${intArray(orgIds)})` : undefined,
    q.stationId ? eq(positions.stationId, q.stationId) : undefined,
  )
  const rows = byId((after) =>
    db
      .select({
        id: positions.id,
        orgId: positions.orgId,
        status: positions.status,
        stationName: stations.stationName,
      })
      .from(positions)
      .innerJoin(stations, eq(stations.id, positions.stationId))
      .where(and(gt(positions.id, after), inScope))
      .orderBy(asc(positions.id))
      .limit(BATCH),
  )
  for await (const p of rows) {
    const path = paths.get(p.orgId) ?? ''
    yield [path, p.stationName, `${path}${PATH_SEPARATOR}${p.stationName}`, STATUS(p.status)]
  }
}
