import type { DbOrTx } from '../../db/connection'
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
