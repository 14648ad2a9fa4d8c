import { sql } from 'drizzle-orm'
import { queryRows, type Db, type DbOrTx, type Tx } from '../db/connection'
import { conflict } from '../lib/errors'

export const LAST_SUPER_ADMIN_MSG = '不能删除、冻结或移除最后一个超级管理员'

/**
 * Active users who are super admins (DESIGN.md §6): an enabled type-1 role reached directly,
 * through an enabled group or through an enabled position. Starts from the few super roles, so it
 * stays cheap with many users.
 */
export async function countActiveSuperAdmins(tx: DbOrTx): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    tx,
    sql`with super_roles as (select id from roles where type = 1 and status = 1),
      holders as (
        select ur.user_id from user_roles ur join super_roles s on s.id = ur.role_id
        union
        select gu.user_id from user_group_roles gr
          join super_roles s on s.id = gr.role_id
          join user_groups g on g.id = gr.group_id and g.status = 1
          join user_group_users gu on gu.group_id = g.id
        union
        select pu.user_id from position_roles pr
          join super_roles s on s.id = pr.role_id
          join positions p on p.id = pr.position_id and p.status = 1
          join position_users pu on pu.position_id = p.id
      )
      select count(*) as n from holders h join users u on u.id = h.user_id and u.status = 1`,
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
export async function guardedChange<T>(db: Db, change: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SUPER_ADMIN_LOCK})`)
    const before = await countActiveSuperAdmins(tx)
    const result = await change(tx)
    if (before > 0 && (await countActiveSuperAdmins(tx)) === 0) throw conflict(LAST_SUPER_ADMIN_MSG)
    return result
  })
}
