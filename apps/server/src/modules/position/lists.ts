import { sql, type SQL } from 'drizzle-orm'
import type { PageResult, PositionListBody, PositionNameListBody, PositionRow } from '@amg/contract'
import { queryRows, type Db, type DbOrTx } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { markGrantable, rolesCarried, type PowerGuard } from '../../auth/power'
import { orgInScope, type Caller } from '../../auth/user-scope'
import { paging } from '../../lib/paged'
import type { VersionedCache } from '../../cache/versioned-cache'
import { loadOrgTree, subtreeOf, type OrgTree } from './org-paths'

/** The position list, its export's departments and the simple list the pickers take. */

interface RawPositionRow {
  id: number
  org_id: number
  station_id: number
  station_name: string
  status: number
  type: number
}

/** The department tree and the position counts the position lists are paged by, kept between calls. */
export interface PositionCaches {
  org: VersionedCache
  lists: VersionedCache
}

/** The kept department tree. */
async function keptTree(caches: PositionCaches, db: DbOrTx): Promise<OrgTree> {
  return caches.org.get('tree', () => loadOrgTree(db))
}

/** How many positions each department holds (of one job title, if given). */
function positionsPerOrg(caches: PositionCaches, db: DbOrTx, stationId: number | null) {
  return caches.lists.get(`positions:${stationId}`, async () => {
    // two arrays in one row, not a row per department: the embedded driver pays per row
    const [row] = await queryRows<{ orgs: number[] | null; counts: number[] | null }>(
      db,
      sql`select array_agg(org_id) as orgs, array_agg(n) as counts from (
        select org_id, count(*)::int as n from positions
        ${stationId ? sql`where station_id = ${stationId}` : sql``} group by org_id) c`,
    )
    const counts = row?.counts ?? []
    return new Map((row?.orgs ?? []).map((orgId, i) => [Number(orgId), Number(counts[i])]))
  })
}

interface PositionFilters {
  /** departments (one array parameter, however many) */
  orgIds?: number[]
  stationId?: number | null
  /** leaves out the positions this user holds */
  userId?: number | null
}

/**
 * Positions with their department's complete name, in tree order of the departments (then by job
 * title), so the rows of one department are adjacent — the console merges them. A position whose
 * department is not in the tree is left out.
 */
async function selectPositions(db: DbOrTx, tree: OrgTree, f: PositionFilters): Promise<PositionRow[]> {
  const where: SQL[] = [sql`true`]
  if (f.orgIds) where.push(sql`p.org_id = any(${intArray(f.orgIds)})`)
  if (f.stationId) where.push(sql`p.station_id = ${f.stationId}`)
  if (f.userId)
    where.push(
      sql`not exists (select 1 from position_users pu where pu.position_id = p.id and pu.user_id = ${f.userId})`,
    )
  const rows = await queryRows<RawPositionRow>(
    db,
    sql`select p.id, p.org_id, p.station_id, s.station_name, p.status, p.type
        from positions p join stations s on s.id = p.station_id
       where ${sql.join(where, sql` and `)}`,
  )
  return rows
    .flatMap((r) => {
      const org = tree.nodes.get(Number(r.org_id))
      if (!org) return []
      const row: PositionRow = {
        id: Number(r.id),
        orgId: Number(r.org_id),
        stationId: Number(r.station_id),
        organizationCompleteName: org.completeName,
        stationName: r.station_name,
        status: Number(r.status),
        type: Number(r.type),
      }
      return [{ rank: org.rank, row }]
    })
    .sort((a, b) => a.rank - b.rank || a.row.stationId - b.row.stationId || a.row.id - b.row.id)
    .map((r) => r.row)
}

/**
 * The departments whose positions the position list (and its export) holds, in tree order: the
 * department filter's subtree, or every department; a scoped administrator's only within scope
 * (DESIGN.md §13).
 */
export function listedOrgs(tree: OrgTree, body: Pick<PositionListBody, 'orgId'>, caller: Caller): number[] {
  return (body.orgId ? subtreeOf(tree, body.orgId) : tree.order).filter((id) => orgInScope(caller, id))
}

/**
 * POST /position/list. The departments come in tree order from the kept tree, each with its kept
 * position count, so the page's departments are found without reading any position; then only their
 * positions are read. The total is exact: the counts are at hand anyway.
 */
export async function listPositions(
  db: Db,
  caches: PositionCaches,
  body: PositionListBody,
  caller: Caller,
): Promise<PageResult<PositionRow>> {
  const { pageSize, offset } = paging(body)
  const tree = await keptTree(caches, db)
  const counts = await positionsPerOrg(caches, db, body.stationId || null)
  const scope = listedOrgs(tree, body, caller)
  let total = 0
  let before = 0 // positions ahead of the page's first department
  const pageOrgs: number[] = []
  for (const orgId of scope) {
    const n = counts.get(orgId) ?? 0
    if (n > 0 && total + n > offset && total < offset + pageSize) {
      if (pageOrgs.length === 0) before = total
      pageOrgs.push(orgId)
    }
    total += n
  }
  const rows = pageOrgs.length
    ? await selectPositions(db, tree, { orgIds: pageOrgs, stationId: body.stationId })
    : []
  return { list: rows.slice(offset - before, offset - before + pageSize), total }
}

/**
 * Every position as a simple list; `userId` leaves out the positions that user already holds. Each
 * is marked with whether the caller may grant the roles it carries.
 */
export async function positionNameList(
  db: Db,
  caches: PositionCaches,
  power: PowerGuard,
  caller: Caller,
  body: PositionNameListBody,
) {
  const tree = await keptTree(caches, db)
  const orgIds = body.orgId ? subtreeOf(tree, body.orgId) : caller.scope.all ? undefined : tree.order
  const candidates = await selectPositions(db, tree, {
    orgIds: orgIds?.filter((id) => orgInScope(caller, id)),
    stationId: body.stationId,
    userId: body.userId,
  })
  return markGrantable(db, power, caller.id, candidates, (ids) => rolesCarried(db, 'position_roles', ids))
}
