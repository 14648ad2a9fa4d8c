import { and, asc, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm'
import type {
  PageResult,
  PositionBatchInsertBody,
  PositionForOrgBody,
  PositionListBody,
  PositionNameListBody,
  PositionRoleLinkBody,
  PositionRoleListQuery,
  PositionRow,
  PositionUserLinkBody,
  PositionUserListQuery,
} from '@amg/contract'
import { queryRows, type Db, type DbOrTx, type Transactable } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { guardedChange } from '../../auth/super-admin-guard'
import { organizations, positions, stations } from '../../db/schema'
import { markGrantable, rolesCarried, type PowerGuard } from '../../auth/power'
import type { Links } from '../links/service'
import {
  orgInScope,
  requirePositionsInScope,
  requireWritableUsers,
  visibleUser,
  type Caller,
} from '../../auth/user-scope'
import { MSG } from '@amg/contract'
import { requireExisting } from '../links/existing'
import { linkedTab } from '../links/linked-lists'
import { enablingGrants, writeWithinReach } from '../links/reach-grants'
import { forbidden, notFound } from '../../lib/errors'
import { containsPattern } from '../../lib/like'
import { nonEmptyIdList, paging } from '../links/ids'
import type { VersionedCache } from '../../cache/versioned-cache'
import { loadOrgTree, subtreeOf, type OrgTree } from './org-paths'

const POSITION_NOT_FOUND = '岗位不存在'
const ORG_NOT_FOUND = '部门不存在'

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

/** 404 for an unknown department; 403 for one outside the caller's scope (DESIGN.md §13). */
async function requireOrg(db: DbOrTx, orgId: number, caller: Caller) {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, orgId))
  if (!org) throw notFound(ORG_NOT_FOUND)
  if (!orgInScope(caller, orgId)) throw forbidden(MSG.orgOutOfScope)
}

/**
 * Deleting positions takes them from their holders: the positions must lie in scope, and so must every
 * holder wholly (a straddler's other departments are beyond the caller).
 */
async function requireRemovableInScope(tx: DbOrTx, caller: Caller, positionIds: number[]) {
  if (caller.scope.all || positionIds.length === 0) return
  await requirePositionsInScope(tx, caller, positionIds)
  const holders = await queryRows<{ user_id: number }>(
    tx,
    sql`select distinct user_id from position_users where position_id = any(${intArray(positionIds)})`,
  )
  await requireWritableUsers(
    tx,
    caller,
    holders.map((h) => Number(h.user_id)),
  )
}

/** The positions of exactly one department, searchable by job title. */
export async function listForOrg(db: Db, body: PositionForOrgBody, caller: Caller) {
  const { pageSize, offset } = paging(body)
  await requireOrg(db, body.orgId, caller)
  const where = and(
    eq(positions.orgId, body.orgId),
    body.stationName?.trim()
      ? ilike(stations.stationName, containsPattern(body.stationName.trim()))
      : undefined,
  )
  const [{ total }] = await db
    .select({ total: count() })
    .from(positions)
    .innerJoin(stations, eq(stations.id, positions.stationId))
    .where(where)
  const list = await db
    .select({
      id: positions.id,
      stationId: positions.stationId,
      stationName: stations.stationName,
      status: positions.status,
    })
    .from(positions)
    .innerJoin(stations, eq(stations.id, positions.stationId))
    .where(where)
    .orderBy(asc(positions.stationId), asc(positions.id))
    .limit(pageSize)
    .offset(offset)
  return { list, total: Number(total) }
}

/** Positions and their role and user links go together (ON DELETE CASCADE), all or nothing. */
export async function deletePositions(db: Db, power: PowerGuard, positionIds: string, caller: Caller) {
  const ids = nonEmptyIdList(positionIds, 'positionIds', '要删除的岗位')
  await guardedChange(db, async (tx) => {
    await requireRemovableInScope(tx, caller, ids)
    await power.require(tx, caller.id, { positionIds: ids })
    const deleted = await tx
      .delete(positions)
      .where(inArray(positions.id, ids))
      .returning({ id: positions.id })
    const missing = ids.filter((id) => !deleted.some((d) => d.id === id))
    if (missing.length) throw notFound(`${POSITION_NOT_FOUND}：${missing.join(',')}`)
  })
}

/** Creates the (department, job title) pairs that do not exist yet; answers the new position ids. */
export async function batchInsert(
  db: Transactable,
  body: PositionBatchInsertBody,
  caller: Caller,
): Promise<number[]> {
  const stationIds = nonEmptyIdList(body.stationIds, 'stationIds', '职位')
  return db.transaction(async (tx) => {
    await requireOrg(tx, body.orgId, caller)
    const found = await tx.select({ id: stations.id }).from(stations).where(inArray(stations.id, stationIds))
    const missing = stationIds.filter((id) => !found.some((f) => f.id === id))
    if (missing.length) throw notFound(`职位不存在：${missing.join(',')}`)
    const created = await tx
      .insert(positions)
      .values(stationIds.map((stationId) => ({ orgId: body.orgId, stationId })))
      .onConflictDoNothing()
      .returning({ id: positions.id })
    return created.map((c) => c.id)
  })
}

/** Enabling or disabling a position gives or takes the power of the roles it carries (DESIGN.md §6a). */
export async function setPositionEnabled(
  db: Db,
  power: PowerGuard,
  positionId: number,
  enable: boolean,
  caller: Caller,
) {
  const updated = await guardedChange(db, async (tx) => {
    await requireExisting(tx, 'position', [positionId])
    await requirePositionsInScope(tx, caller, [positionId])
    // the caller's access read once, before the write: the power check and the reach check judge it
    const access = await power.callerAccess(tx, caller.id)
    await power.require(tx, caller.id, { positionIds: [positionId] }, access)
    const write = () =>
      tx
        .update(positions)
        .set({ status: enable ? 1 : 2, updateTime: new Date() })
        .where(eq(positions.id, positionId))
        .returning({ id: positions.id })
    return enable
      ? writeWithinReach(tx, power, access, write, () => enablingGrants(tx, 'position', positionId))
      : write()
  })
  if (updated.length === 0) throw notFound(POSITION_NOT_FOUND)
}

/** The position's links, served by the shared link module (power check and last-super-admin guard included). */
export const linkRoles = (links: Links, body: PositionRoleLinkBody, caller: Caller) =>
  links.link({
    owner: 'position',
    ownerId: body.positionId,
    target: 'role',
    targetIds: nonEmptyIdList(body.roleIds, 'roleIds', '要关联的角色'),
    caller,
  })

export const unlinkRoles = (links: Links, body: PositionRoleLinkBody, caller: Caller) =>
  links.unlink({
    owner: 'position',
    ownerId: body.positionId,
    target: 'role',
    targetIds: nonEmptyIdList(body.roleIds, 'roleIds', '要移除的角色'),
    caller,
  })

export const linkUsers = (links: Links, body: PositionUserLinkBody, caller: Caller) =>
  links.link({
    owner: 'position',
    ownerId: body.positionId,
    target: 'user',
    targetIds: nonEmptyIdList(body.userIds, 'userIds', '要关联的用户'),
    caller,
  })

export const unlinkUsers = (links: Links, body: PositionUserLinkBody, caller: Caller) =>
  links.unlink({
    owner: 'position',
    ownerId: body.positionId,
    target: 'user',
    targetIds: nonEmptyIdList(body.userIds, 'userIds', '要移除的用户'),
    caller,
  })

/** The position's roles, as its 关联角色 tab lists them. */
export const positionRoleList = async (db: Db, q: PositionRoleListQuery, caller: Caller) => {
  await requireExisting(db, 'position', [q.positionId])
  await requirePositionsInScope(db, caller, [q.positionId])
  return linkedTab(db, {
    owner: 'position',
    ownerId: q.positionId,
    target: 'role',
    nameContains: q.roleName,
    page: q,
  })
}

/** The position's holders, as its 关联用户 tab lists them. */
export const positionUserList = async (db: Db, q: PositionUserListQuery, caller: Caller) => {
  await requireExisting(db, 'position', [q.id])
  await requirePositionsInScope(db, caller, [q.id])
  return linkedTab(db, {
    owner: 'position',
    ownerId: q.id,
    target: 'user',
    nameContains: q.nickName,
    page: q,
    visible: (id) => visibleUser(caller, id),
  })
}
