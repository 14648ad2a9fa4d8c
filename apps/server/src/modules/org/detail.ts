import { asc, eq } from 'drizzle-orm'
import { MSG, type OrgDetail } from '@amg/contract'
import type { Db } from '../../db/connection'
import { organizations, positions, stations } from '../../db/schema'
import { forbidden, notFound } from '../../lib/errors'
import { orgInScope, type Caller } from '../../auth/user-scope'
import { orgCompleteNames } from '../position/org-paths'
import { ORG_MSG } from './messages'

/** A department outside the caller's scope is named in trees (a greyed ancestor) but not opened (DESIGN.md §13). */
export async function orgDetail(db: Db, orgId: number, caller: Caller): Promise<OrgDetail> {
  const [org] = await db
    .select({
      id: organizations.id,
      organizationName: organizations.organizationName,
      description: organizations.description,
      parent: organizations.parent,
    })
    .from(organizations)
    .where(eq(organizations.id, orgId))
  if (!org) throw notFound(ORG_MSG.notFound)
  if (!orgInScope(caller, orgId)) throw forbidden(MSG.orgOutOfScope)
  const names = await orgCompleteNames(db, [orgId])
  const held = await db
    .select({ positionId: positions.id, stationId: positions.stationId, stationName: stations.stationName })
    .from(positions)
    .innerJoin(stations, eq(stations.id, positions.stationId))
    .where(eq(positions.orgId, orgId))
    .orderBy(asc(positions.stationId))
  return {
    ...org,
    organizationCompleteName: names.get(orgId) ?? org.organizationName,
    stationIds: held.map((p) => p.stationId),
    positionSimpleDTOS: held,
  }
}
