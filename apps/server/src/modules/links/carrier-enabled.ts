import type { Db, DbOrTx } from '../../db/connection'
import { RECORDS } from '../../db/tables'
import { guardedChange } from '../../auth/super-admin-guard'
import { notFound } from '../../lib/errors'
import { requireExisting } from './existing'
import type { PowerGuard } from '../../auth/power'
import { enablingGrants, writeWithinReach } from './reach-grants'

/**
 * Enabling or disabling a carrier of roles (a user group or a position) gives or takes the power of
 * the roles it carries (DESIGN.md §6a). The caller's access is read once, before the write: the power
 * check and, when enabling, the reach check judge it. `write` changes the status and answers the rows.
 */
export async function writeCarrierStatus<T>(
  tx: DbOrTx,
  power: PowerGuard,
  callerId: number,
  carrier: { kind: 'group' | 'position'; id: number; enable: boolean },
  write: () => Promise<T>,
): Promise<T> {
  const { kind, id, enable } = carrier
  const access = await power.callerAccess(tx, callerId)
  await power.require(tx, callerId, kind === 'group' ? { groupIds: [id] } : { positionIds: [id] }, access)
  return enable ? writeWithinReach(tx, power, access, write, () => enablingGrants(tx, kind, id)) : write()
}

/**
 * The enable or disable call of a carrier: in one transaction guarded for the last super admin, the
 * carrier must exist and pass `check` (such as the caller's scope), then writeCarrierStatus runs
 * `write` with the status to store (1 enabled, 2 disabled). 404 when the carrier went meanwhile.
 */
export async function setCarrierEnabled(
  db: Db,
  power: PowerGuard,
  callerId: number,
  carrier: { kind: 'group' | 'position'; id: number; enable: boolean },
  write: (tx: DbOrTx, status: 1 | 2) => Promise<unknown[]>,
  check?: (tx: DbOrTx) => Promise<void>,
): Promise<void> {
  const updated = await guardedChange(db, async (tx) => {
    await requireExisting(tx, carrier.kind, [carrier.id])
    await check?.(tx)
    return writeCarrierStatus(tx, power, callerId, carrier, () => write(tx, carrier.enable ? 1 : 2))
  })
  if (updated.length === 0) throw notFound(`${RECORDS[carrier.kind].label}不存在`)
}
