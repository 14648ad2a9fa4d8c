import { getTableName } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { RECORD_TYPE_LABELS, type RecordType } from '@amg/contract'
import {
  auths,
  files,
  organizations,
  positionRoles,
  positions,
  positionUsers,
  roleAuths,
  roles,
  roleScopeOrgs,
  services,
  stations,
  userGroupRoles,
  userGroups,
  userGroupUsers,
  userRoles,
  users,
} from './schema'

/**
 * The table registry: every table of records and of links, described once. The link module links and
 * lists through it, the operation log describes the rows its triggers staged by it, and the triggers
 * a table carries are derived from it (db/table-triggers.ts).
 */

export interface RecordTable {
  type: RecordType
  table: PgTable
  /** the key: `id`, or `code` for a permission */
  keyColumn: PgColumn
  /** the column holding the record's name; none for a position, named by its department and job title */
  nameColumn: PgColumn | null
  /** what the product calls it (用户, 角色, …) */
  label: string
  /** a change to it can change who may do what (so it carries the access-change trigger) */
  decidesAccess: boolean
}

const record = (
  type: RecordType,
  table: PgTable,
  keyColumn: PgColumn,
  nameColumn: PgColumn | null,
  decidesAccess: boolean,
): RecordTable => ({ type, table, keyColumn, nameColumn, label: RECORD_TYPE_LABELS[type], decidesAccess })

export const RECORDS: Record<RecordType, RecordTable> = {
  user: record('user', users, users.id, users.nickName, false),
  role: record('role', roles, roles.id, roles.roleName, true),
  group: record('group', userGroups, userGroups.id, userGroups.groupName, true),
  position: record('position', positions, positions.id, null, true),
  auth: record('auth', auths, auths.code, auths.chName, true),
  // a department's place in the tree decides data scopes (DESIGN.md §13: a move changes subtrees), but
  // through the department tree's own family ('org', migration 0005), not the access family: the
  // accesses worked out on the tree go with it (auth/authorizer.ts, migration 0029)
  org: record('org', organizations, organizations.id, organizations.organizationName, false),
  station: record('station', stations, stations.id, stations.stationName, false),
  file: record('file', files, files.id, files.fileName, false),
  service: record('service', services, services.id, services.name, true),
}

/** One side of a link: the record type and the link table's column holding its key. */
export interface LinkSide {
  type: RecordType
  column: PgColumn
}

/**
 * A link table joins two records; every link can change who may do what. The first side is the one
 * the operation log files a link change under unless the route is about the second.
 */
export interface LinkTable {
  table: PgTable
  sides: readonly [LinkSide, LinkSide]
}

const link = (table: PgTable, a: [RecordType, PgColumn], b: [RecordType, PgColumn]): LinkTable => ({
  table,
  sides: [
    { type: a[0], column: a[1] },
    { type: b[0], column: b[1] },
  ],
})

/**
 * The seven links of DESIGN.md §6a (user–role, user–group, user–position, group–role, group–user,
 * position–role, position–user) live in five tables, seen from either side; the sixth table holds a
 * role's permissions, the seventh a 自定义部门 role's departments (DESIGN.md §13).
 */
export const LINKS: readonly LinkTable[] = [
  link(userRoles, ['user', userRoles.userId], ['role', userRoles.roleId]),
  link(userGroupUsers, ['group', userGroupUsers.groupId], ['user', userGroupUsers.userId]),
  link(userGroupRoles, ['group', userGroupRoles.groupId], ['role', userGroupRoles.roleId]),
  link(positionUsers, ['position', positionUsers.positionId], ['user', positionUsers.userId]),
  link(positionRoles, ['position', positionRoles.positionId], ['role', positionRoles.roleId]),
  link(roleAuths, ['role', roleAuths.roleId], ['auth', roleAuths.authCode]),
  link(roleScopeOrgs, ['role', roleScopeOrgs.roleId], ['org', roleScopeOrgs.orgId]),
]

const recordsByTable = new Map(Object.values(RECORDS).map((r) => [getTableName(r.table), r]))
const linksByTable = new Map(LINKS.map((l) => [getTableName(l.table), l]))

/** The table of records with this SQL name, if it is one. */
export const recordOfTable = (tableName: string): RecordTable | undefined => recordsByTable.get(tableName)

/** The link table with this SQL name, if it is one. */
export const linkOfTable = (tableName: string): LinkTable | undefined => linksByTable.get(tableName)

/** The link table between two record types, with the column of each; throws when they are not linked. */
export function linkBetween(owner: RecordType, target: RecordType) {
  const found = LINKS.find(
    (l) => l.sides.some((s) => s.type === owner) && l.sides.some((s) => s.type === target),
  )
  if (!found || owner === target) throw new Error(`no link between ${owner} and ${target}`)
  const column = (type: RecordType) => found.sides.find((s) => s.type === type)!.column
  return { table: found.table, ownerColumn: column(owner), targetColumn: column(target) }
}
