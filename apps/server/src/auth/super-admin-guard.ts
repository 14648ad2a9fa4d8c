import { sql, type SQL } from 'drizzle-orm'
import { ROLE_TYPE } from '@amg/contract'
import { queryRows, type DbOrTx, type Transactable, type Tx } from '../db/connection'
import { conflict } from '../lib/errors'
import { usersReaching } from './reach'

export const LAST_SUPER_ADMIN_MSG = '不能删除、冻结或移除最后一个超级管理员'

/**
 * Active users who are super admins (DESIGN.md §6): an enabled type-1 role reached directly,
 * through an enabled group or through an enabled position. Starts from the few super roles, so it
 * stays cheap with many users. `among`: a further condition on `u.id` (the users a caller may read).
 */
export async function countActiveSuperAdmins(tx: DbOrTx, among?: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    tx,
    sql`select count(*) as n from users u where u.status = 1 and u.id in (${usersReaching({
      roles: sql`in (select id from roles where type = ${ROLE_TYPE.superAdmin} and status = 1)`,
    })}) ${among ? sql`and ${among}` : sql``}`,
  )
  return Number(row?.n ?? 0)
}

/** Serialises changes that could remove a super admin, so two concurrent ones cannot both pass the guard. */
const SUPER_ADMIN_LOCK = 7_301_001

/**
 * Runs a change in one transaction and refuses it (rolling it back) when it would leave no active
 * super admin where there was one. Every change that can take super-admin rights away goes through
 * here: freezing, deleting or unlinking users, disabling, deleting or unlinking groups and positions.
 */
export async function guardedChange<T>(db: Transactable, change: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SUPER_ADMIN_LOCK})`)
    const before = await countActiveSuperAdmins(tx)
    const result = await change(tx)
    if (before > 0 && (await countActiveSuperAdmins(tx)) === 0) throw conflict(LAST_SUPER_ADMIN_MSG)
    return result
  })
}
