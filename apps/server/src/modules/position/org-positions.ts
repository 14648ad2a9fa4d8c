import { and, asc, count, eq, ilike } from 'drizzle-orm'
import { MSG, type PositionForOrgBody } from '@amg/contract'
import type { Db, DbOrTx } from '../../db/connection'
import { organizations, positions, stations } from '../../db/schema'
import { orgInScope, type Caller } from '../../auth/user-scope'
import { forbidden, notFound } from '../../lib/errors'
import { containsPattern } from '../../lib/like'
import { pagedList } from '../../lib/paged'
import { paging } from '../../lib/paged'

const ORG_NOT_FOUND = '部门不存在'

/** 404 for an unknown department; 403 for one outside the caller's scope (DESIGN.md §13). */
export async function requireOrg(db: DbOrTx, orgId: number, caller: Caller) {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, orgId))
  if (!org) throw notFound(ORG_NOT_FOUND)
  if (!orgInScope(caller, orgId)) throw forbidden(MSG.orgOutOfScope)
}

/** The positions of exactly one department, searchable by job title. */
export async function listForOrg(db: Db, body: PositionForOrgBody, caller: Caller) {
  await requireOrg(db, body.orgId, caller)
  const where = and(
    eq(positions.orgId, body.orgId),
    body.stationName?.trim()
      ? ilike(stations.stationName, containsPattern(body.stationName.trim()))
      : undefined,
  )
  return pagedList(
    paging(body),
    (limit, offset) =>
      db
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
        .limit(limit)
        .offset(offset),
    () =>
      db
        .select({ total: count() })
        .from(positions)
        .innerJoin(stations, eq(stations.id, positions.stationId))
        .where(where),
  )
}
