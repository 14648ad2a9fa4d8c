import { organizations, positions, roles, stations, userGroups } from '../../db/schema'
import type { DbOrTx } from '../../db/connection'
import { eq } from 'drizzle-orm'

/**
 * The names a spreadsheet uses for what a user links (DESIGN.md §15): positions as
 * `部门全称/职位` (the department's path from the root, joined by '/'), roles and groups by name.
 * Read once per job; a name that matches nothing fails its row.
 */
export interface NameBook {
  positionByName: Map<string, number>
  positionName: Map<number, string>
  /** each position's department */
  positionOrg: Map<number, number>
  roleByName: Map<string, number>
  groupByName: Map<string, number>
  /** each department's full name, by id */
  orgPath: Map<number, string>
}

export const PATH_SEPARATOR = '/'

/** The full name of every department, root first, joined by '/'. */
export async function orgPaths(db: DbOrTx): Promise<Map<number, string>> {
  const rows = await db
    .select({ id: organizations.id, parent: organizations.parent, name: organizations.organizationName })
    .from(organizations)
  const byId = new Map(rows.map((r) => [r.id, r]))
  const paths = new Map<number, string>()
  const pathOf = (id: number, depth = 0): string => {
    const known = paths.get(id)
    if (known !== undefined) return known
    const row = byId.get(id)!
    const parent =
      row.parent != null && byId.has(row.parent) && depth < 64 ? pathOf(row.parent, depth + 1) : null
    const path = parent === null ? row.name : `${parent}${PATH_SEPARATOR}${row.name}`
    paths.set(id, path)
    return path
  }
  for (const r of rows) pathOf(r.id)
  return paths
}

export async function readNameBook(db: DbOrTx): Promise<NameBook> {
  const [orgPath, positionRows, roleRows, groupRows] = await Promise.all([
    orgPaths(db),
    db
      .select({ id: positions.id, orgId: positions.orgId, stationName: stations.stationName })
      .from(positions)
      .innerJoin(stations, eq(stations.id, positions.stationId)),
    db.select({ id: roles.id, name: roles.roleName }).from(roles),
    db.select({ id: userGroups.id, name: userGroups.groupName }).from(userGroups),
  ])
  const positionByName = new Map<string, number>()
  const positionName = new Map<number, string>()
  const positionOrg = new Map<number, number>()
  for (const p of positionRows) {
    const name = `${orgPath.get(p.orgId)}${PATH_SEPARATOR}${p.stationName}`
    positionByName.set(name, p.id)
    positionName.set(p.id, name)
    positionOrg.set(p.id, p.orgId)
  }
  return {
    orgPath,
    positionByName,
    positionName,
    positionOrg,
    roleByName: new Map(roleRows.map((r) => [r.name, r.id])),
    groupByName: new Map(groupRows.map((g) => [g.name, g.id])),
  }
}

/** Several names in one cell: joined by ';' (a full-width '；' too), blanks ignored, each once. */
export const splitNames = (cell: string): string[] => [
  ...new Set(
    cell
      .split(/[;；]/)
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ),
]

export const joinNames = (names: readonly string[]): string => names.join(';')
