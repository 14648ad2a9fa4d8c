import { eq, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../db/connection'
import { organizations, positions, positionUsers, stations } from '../db/schema'

/**
 * The positions users hold, each with the names a position is known by: its department's and its
 * job title's (a position has no name of its own; lists show '部门-职位'), and when the holding
 * expires (null: never). `where` picks the holders, `orderBy` the order.
 */
export const heldPositions = (db: DbOrTx, where: SQL | undefined, ...orderBy: SQL[]) =>
  db
    .select({
      userId: positionUsers.userId,
      positionId: positions.id,
      orgId: positions.orgId,
      orgName: organizations.organizationName,
      stationName: stations.stationName,
      expiresAt: positionUsers.expiresAt,
    })
    .from(positionUsers)
    .innerJoin(positions, eq(positions.id, positionUsers.positionId))
    .innerJoin(organizations, eq(organizations.id, positions.orgId))
    .innerJoin(stations, eq(stations.id, positions.stationId))
    .where(where)
    .orderBy(...orderBy)
