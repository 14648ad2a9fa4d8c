import { eq, inArray } from 'drizzle-orm'
import type { DbOrTx } from '../../db/connection'
import { positions } from '../../db/schema'

/** The side of a position held fixed: a department's positions, or a job title's. */
type Side = 'orgId' | 'stationId'

const OTHER: Record<Side, Side> = { orgId: 'stationId', stationId: 'orgId' }

/**
 * The positions of one department (`fixed` 'orgId') or of one job title ('stationId') become exactly
 * those pairing it with `wanted`: removed ones go with their links (FK cascade), after
 * `beforeRemoving` accepted them (the power check: their holders lose the positions' roles).
 */
export async function syncPositions(
  tx: DbOrTx,
  fixed: Side,
  id: number,
  wanted: number[],
  beforeRemoving: (positionIds: number[]) => Promise<void>,
) {
  const other = OTHER[fixed]
  const current = await tx
    .select({ id: positions.id, other: positions[other] })
    .from(positions)
    .where(eq(positions[fixed], id))
  const keep = new Set(wanted)
  const gone = current.filter((p) => !keep.has(p.other)).map((p) => p.id)
  if (gone.length) {
    await beforeRemoving(gone)
    await tx.delete(positions).where(inArray(positions.id, gone))
  }
  const have = new Set(current.map((p) => p.other))
  const added = wanted.filter((otherId) => !have.has(otherId))
  if (added.length) {
    await tx
      .insert(positions)
      .values(
        added.map((otherId) => ({ [fixed]: id, [other]: otherId }) as { orgId: number; stationId: number }),
      )
      .onConflictDoNothing()
  }
}
