import { eq, inArray } from 'drizzle-orm'
import type { PositionBatchInsertBody } from '@amg/contract'
import type { Db, DbOrTx, Transactable } from '../../db/connection'
import { positions, stations } from '../../db/schema'
import { guardedChange } from '../../auth/super-admin-guard'
import type { PowerGuard } from '../../auth/power'
import { requirePositionsInScope, type Caller } from '../../auth/user-scope'
import { setCarrierEnabled } from '../links/carrier-enabled'
import { notFound } from '../../lib/errors'
import { nonEmptyIdList } from '../links/ids'
import { requireOrg } from './org-positions'
import { requireHoldersWritable } from './holders'

/** Creating, deleting, enabling and disabling positions. */

const POSITION_NOT_FOUND = '岗位不存在'

/** Deleting positions takes them from their holders: the positions and every holder must lie in scope. */
async function requireRemovableInScope(tx: DbOrTx, caller: Caller, positionIds: number[]) {
  if (caller.scope.all || positionIds.length === 0) return
  await requirePositionsInScope(tx, caller, positionIds)
  await requireHoldersWritable(tx, caller, positionIds)
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
  await setCarrierEnabled(
    db,
    power,
    caller.id,
    { kind: 'position', id: positionId, enable },
    (tx, status) =>
      tx
        .update(positions)
        .set({ status, updateTime: new Date() })
        .where(eq(positions.id, positionId))
        .returning({ id: positions.id }),
    (tx) => requirePositionsInScope(tx, caller, [positionId]),
  )
}
