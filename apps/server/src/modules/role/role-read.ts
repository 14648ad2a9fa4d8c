import { and, asc, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm'
import type { PageResult, RoleDetail, RoleListBody, RoleRow } from '@amg/contract'
import type { Db, DbOrTx } from '../../db/connection'
import { roleAuths, roles, roleScopeOrgs } from '../../db/schema'
import { creatorJoin, OPERATOR_FIELDS, operatorVos, updaterJoin } from '../../lib/operators'
import { notFound } from '../../lib/errors'
import { containsPattern } from '../../lib/like'
import type { VersionedCache } from '../../cache/versioned-cache'
import { paging } from '../../lib/paged'
import { ROLE_MSG, trimmedOrNull } from './role-rules'

/** Reading roles: the list (POST /role/listall, its filters shared with the export) and one role's detail. */

/** Each role's chosen departments (自定义部门, DESIGN.md §13), ascending. */
export async function scopeOrgsOf(db: DbOrTx, roleIds: readonly number[]): Promise<Map<number, number[]>> {
  const byRole = new Map<number, number[]>()
  if (!roleIds.length) return byRole
  const rows = await db
    .select({ roleId: roleScopeOrgs.roleId, orgId: roleScopeOrgs.orgId })
    .from(roleScopeOrgs)
    .where(inArray(roleScopeOrgs.roleId, [...roleIds]))
    .orderBy(asc(roleScopeOrgs.orgId))
  for (const r of rows) byRole.set(r.roleId, [...(byRole.get(r.roleId) ?? []), r.orgId])
  return byRole
}

/** Role rows with their creator and updater, joined once. */
function selectRoleRows(db: DbOrTx, extra: { total?: SQL<number> } = {}) {
  return db
    .select({
      ...extra,
      id: roles.id,
      roleName: roles.roleName,
      type: roles.type,
      status: roles.status,
      description: roles.description,
      dataScope: roles.dataScope,
      requestable: roles.requestable,
      requestApprovals: roles.requestApprovals,
      approverRoleIds: roles.approverRoleIds,
      createTime: roles.createTime,
      updateTime: roles.updateTime,
      ...OPERATOR_FIELDS,
    })
    .from(roles)
    .leftJoin(...creatorJoin(roles.createUserId))
    .leftJoin(...updaterJoin(roles.updateUserId))
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectRoleRows>['execute']>>[number]

function toRoleRow(r: JoinedRow, scopeOrgIds: ReadonlyMap<number, number[]>): RoleRow {
  return {
    id: r.id,
    roleName: r.roleName,
    type: r.type,
    status: r.status,
    description: r.description,
    dataScope: r.dataScope,
    scopeOrgIds: scopeOrgIds.get(r.id) ?? [],
    requestable: r.requestable,
    requestApprovals: r.requestApprovals,
    approverRoleIds: r.approverRoleIds ?? [],
    createTime: r.createTime,
    updateTime: r.updateTime,
    ...operatorVos(r),
  } as unknown as RoleRow
}

/**
 * The role list's filters (POST /role/listall), the one builder its export shares; `key` names them
 * (the types in order, so the same choice is one cache entry).
 */
export function roleListFilters(q: Pick<RoleListBody, 'roleName' | 'status' | 'types'>) {
  const name = trimmedOrNull(q.roleName)
  const types = q.types?.length ? [...new Set(q.types)].sort((a, b) => a - b) : null
  const where: SQL[] = []
  if (name) where.push(ilike(roles.roleName, containsPattern(name)))
  if (q.status) where.push(eq(roles.status, q.status))
  if (types) where.push(inArray(roles.type, types))
  return { where: and(...where), key: JSON.stringify([name, q.status ?? null, types]) }
}

/**
 * POST /role/listall: a page of roles; empty or absent `types` means every type. Each page asked for is
 * kept until a role (or a creator's name) changes: the console and other systems ask for the same few
 * pages over and over.
 */
export async function listRoles(
  db: Db,
  cache: VersionedCache,
  q: RoleListBody,
): Promise<PageResult<RoleRow>> {
  const { pageNum, pageSize, offset } = paging(q)
  const { where: condition, key: filters } = roleListFilters(q)
  const key = `roles:${JSON.stringify([filters, pageNum, pageSize])}`
  return cache.get(key, async () => {
    // the page and the total in one round trip; only a page past the end needs a count of its own
    const rows = await selectRoleRows(db, { total: sql<number>`count(*) over ()` })
      .where(condition)
      .orderBy(asc(roles.id))
      .limit(pageSize)
      .offset(offset)
    const total = rows.length
      ? Number(rows[0].total)
      : Number((await db.select({ total: count() }).from(roles).where(condition))[0].total)
    const orgs = await scopeOrgsOf(
      db,
      rows.map((r) => r.id),
    )
    return { list: rows.map((r) => toRoleRow(r, orgs)), total }
  })
}

export async function roleDetail(db: Db, id: number): Promise<RoleDetail> {
  const [row] = await selectRoleRows(db).where(eq(roles.id, id))
  if (!row) throw notFound(ROLE_MSG.notFound)
  const codes = await db
    .select({ code: roleAuths.authCode })
    .from(roleAuths)
    .where(eq(roleAuths.roleId, id))
    .orderBy(asc(roleAuths.authCode))
  return { ...toRoleRow(row, await scopeOrgsOf(db, [id])), authCodes: codes.map((c) => c.code) }
}
