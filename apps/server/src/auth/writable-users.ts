import type { DbOrTx } from '../db/connection'
import type { PowerGuard } from './power'
import { writableInScope, type Caller } from './user-scope'

/**
 * The users of `userIds` the caller may change (修改, 删除, 重置密码): the user lies wholly in the
 * caller's scope (DESIGN.md §13, `requireWritableUsers`) and the caller's power covers the user's
 * (§6a, `PowerGuard.require` with the user at stake). The same two rules the writes enforce, asked
 * for a page at once, so the console offers a change only where the server will make it.
 */
export async function writableUsers(
  tx: DbOrTx,
  power: PowerGuard,
  caller: Caller,
  userIds: readonly number[],
): Promise<Set<number>> {
  const inScope = [...(await writableInScope(tx, caller, userIds))]
  return power.usersCovered(tx, caller.id, inScope)
}
