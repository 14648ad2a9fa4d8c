import { sql } from 'drizzle-orm'
import { queryRows, type DbOrTx } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { requireWritableUsers, type Caller } from '../../auth/user-scope'

/**
 * Positions that go (deleted, or with their department) take their holders' links: every holder must
 * lie wholly in the caller's scope, since a straddler's other departments are beyond the caller.
 */
export async function requireHoldersWritable(tx: DbOrTx, caller: Caller, positionIds: number[]) {
  if (caller.scope.all || positionIds.length === 0) return
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
