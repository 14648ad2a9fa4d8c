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
import { queryRows, type Db, type DbOrTx } from '../../db/connection'
import { guardedChange } from '../../auth/super-admin-guard'
import {
  organizations,
  positionRoles,
  positionUsers,
  positions,
  roles,
  stations,
  users,
} from '../../db/schema'
import { markGrantable, rolesCarried, type PowerGuard } from '../../auth/power'
import type { Links } from '../links/service'
import { notFound } from '../../lib/errors'
import { containsPattern } from '../../lib/like'
import { nonEmptyIdList, paging } from '../user-group/ids'
import { inOrgSubtree, orgPathsCte } from './org-paths'

const POSITION_NOT_FOUND = '岗位不存在'
const ORG_NOT_FOUND = '部门不存在'

interface RawPositionRow {
  id: number
  org_id: number
  station_id: number
  complete_name: string
  station_name: string
  status: number
  type: number
}

const toRow = (r: RawPositionRow): PositionRow => ({
  id: Number(r.id),
  orgId: Number(r.org_id),
  stationId: Number(r.station_id),
  organizationCompleteName: r.complete_name,
  stationName: r.station_name,
  status: Number(r.status),
  type: Number(r.type),
})

/** Filters shared by the list and the simple list (`p` positions). */
function positionFilters(body: {
  orgId?: number | null
  stationId?: number | null
  userId?: number | null
}): SQL {
  const conditions: SQL[] = [sql`true`]
  if (body.orgId) conditions.push(inOrgSubtree(sql`p.org_id`, body.orgId))
  if (body.stationId) conditions.push(sql`p.station_id = ${body.stationId}`)
  if (body.userId) {
    conditions.push(
      sql`not exists (select 1 from position_users pu where pu.position_id = p.id and pu.user_id = ${body.userId})`,
    )
  }
  return sql.join(conditions, sql` and `)
}

/**
 * Positions with their department's complete name. Ordered in tree order of the departments
 * (then by job title), so the rows of one department are adjacent — the console merges them.
 */
async function selectPositions(db: DbOrTx, where: SQL, page?: { limit: number; offset: number }) {
  const rows = await queryRows<RawPositionRow>(
    db,
    sql`with recursive ${orgPathsCte()}
      select p.id, p.org_id, p.station_id, op.complete_name, s.station_name, p.status, p.type
        from positions p
        join org_paths op on op.id = p.org_id
        join stations s on s.id = p.station_id
       where ${where}
       order by op.ids, p.station_id, p.id
       ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`,
  )
  return rows.map(toRow)
}

export async function listPositions(db: Db, body: PositionListBody): Promise<PageResult<PositionRow>> {
  const { pageSize, offset } = paging(body)
  const where = positionFilters(body)
  const [{ total }] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from positions p where ${where}`,
  )
  const list = total > 0 ? await selectPositions(db, where, { limit: pageSize, offset }) : []
  return { list, total: Number(total) }
}

/**
 * Every position as a simple list; `userId` leaves out the positions that user already holds. Each
 * is marked with whether the caller may grant the roles it carries.
 */
export async function positionNameList(
  db: Db,
  power: PowerGuard,
  callerId: number,
  body: PositionNameListBody,
) {
  const candidates = await selectPositions(db, positionFilters(body))
  return markGrantable(db, power, callerId, candidates, (ids) => rolesCarried(db, 'position_roles', ids))
}

async function requireOrg(db: DbOrTx, orgId: number) {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, orgId))
  if (!org) throw notFound(ORG_NOT_FOUND)
}

async function requirePosition(db: DbOrTx, positionId: number) {
  const [p] = await db.select({ id: positions.id }).from(positions).where(eq(positions.id, positionId))
  if (!p) throw notFound(POSITION_NOT_FOUND)
}

/** The positions of exactly one department, searchable by job title. */
export async function listForOrg(db: Db, body: PositionForOrgBody) {
  const { pageSize, offset } = paging(body)
  await requireOrg(db, body.orgId)
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
export async function deletePositions(db: Db, power: PowerGuard, positionIds: string, operatorId: number) {
  const ids = nonEmptyIdList(positionIds, 'positionIds', '要删除的岗位')
  await guardedChange(db, async (tx) => {
    await power.require(tx, operatorId, { positionIds: ids })
    const deleted = await tx
      .delete(positions)
      .where(inArray(positions.id, ids))
      .returning({ id: positions.id })
    const missing = ids.filter((id) => !deleted.some((d) => d.id === id))
    if (missing.length) throw notFound(`${POSITION_NOT_FOUND}：${missing.join(',')}`)
  })
}

/** Creates the (department, job title) pairs that do not exist yet; answers the new position ids. */
export async function batchInsert(db: Db, body: PositionBatchInsertBody): Promise<number[]> {
  const stationIds = nonEmptyIdList(body.stationIds, 'stationIds', '职位')
  return db.transaction(async (tx) => {
    await requireOrg(tx, body.orgId)
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
  operatorId: number,
) {
  const updated = await guardedChange(db, async (tx) => {
    await requirePosition(tx, positionId)
    await power.require(tx, operatorId, { positionIds: [positionId] })
    return tx
      .update(positions)
      .set({ status: enable ? 1 : 2, updateTime: new Date() })
      .where(eq(positions.id, positionId))
      .returning({ id: positions.id })
  })
  if (updated.length === 0) throw notFound(POSITION_NOT_FOUND)
}

/** The position's links, served by the shared link module (power check and last-super-admin guard included). */
export const linkRoles = (links: Links, body: PositionRoleLinkBody, operatorId: number) =>
  links.link({
    owner: 'position',
    ownerId: body.positionId,
    target: 'role',
    targetIds: nonEmptyIdList(body.roleIds, 'roleIds', '要关联的角色'),
    operatorId,
  })

export const unlinkRoles = (links: Links, body: PositionRoleLinkBody, operatorId: number) =>
  links.unlink({
    owner: 'position',
    ownerId: body.positionId,
    target: 'role',
    targetIds: nonEmptyIdList(body.roleIds, 'roleIds', '要移除的角色'),
    operatorId,
  })

export const linkUsers = (links: Links, body: PositionUserLinkBody, operatorId: number) =>
  links.link({
    owner: 'position',
    ownerId: body.positionId,
    target: 'user',
    targetIds: nonEmptyIdList(body.userIds, 'userIds', '要关联的用户'),
    operatorId,
  })

export const unlinkUsers = (links: Links, body: PositionUserLinkBody, operatorId: number) =>
  links.unlink({
    owner: 'position',
    ownerId: body.positionId,
    target: 'user',
    targetIds: nonEmptyIdList(body.userIds, 'userIds', '要移除的用户'),
    operatorId,
  })

export async function positionRoleList(db: Db, q: PositionRoleListQuery) {
  const { pageSize, offset } = paging(q)
  await requirePosition(db, q.positionId)
  const where = and(
    eq(positionRoles.positionId, q.positionId),
    q.roleName?.trim() ? ilike(roles.roleName, containsPattern(q.roleName.trim())) : undefined,
  )
  const [{ total }] = await db
    .select({ total: count() })
    .from(positionRoles)
    .innerJoin(roles, eq(roles.id, positionRoles.roleId))
    .where(where)
  const list = await db
    .select({ id: roles.id, roleName: roles.roleName, type: roles.type, status: roles.status })
    .from(positionRoles)
    .innerJoin(roles, eq(roles.id, positionRoles.roleId))
    .where(where)
    .orderBy(asc(roles.id))
    .limit(pageSize)
    .offset(offset)
  return { list, total: Number(total) }
}

export async function positionUserList(db: Db, q: PositionUserListQuery) {
  const { pageSize, offset } = paging(q)
  await requirePosition(db, q.id)
  const where = and(
    eq(positionUsers.positionId, q.id),
    q.nickName?.trim() ? ilike(users.nickName, containsPattern(q.nickName.trim())) : undefined,
  )
  const [{ total }] = await db
    .select({ total: count() })
    .from(positionUsers)
    .innerJoin(users, eq(users.id, positionUsers.userId))
    .where(where)
  const list = await db
    .select({ id: users.id, nickName: users.nickName, realName: users.realName, status: users.status })
    .from(positionUsers)
    .innerJoin(users, eq(users.id, positionUsers.userId))
    .where(where)
    .orderBy(asc(users.id))
    .limit(pageSize)
    .offset(offset)
  return { list, total: Number(total) }
}
