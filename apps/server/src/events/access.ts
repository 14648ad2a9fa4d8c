import { sql } from 'drizzle-orm'
import { queryRows, type DbOrTx } from '../db/connection'
import { intArray } from '../db/sql-arrays'
import { usersReaching } from '../auth/reach'
import type { AccessTouch } from './derive'

/**
 * The users whose effective permissions a change may have changed (`user.access.changed`): the users
 * it named, everyone who reaches a touched role — however they reach it, enabled carrier or not, as
 * stored power counts (DESIGN.md §6a) — the members of touched groups and positions, and everyone
 * reaching a role that holds a touched permission node or one below it (a node's status decides its
 * subtree). Read inside the change's transaction, after it: links a change removed were staged with
 * their user ids (events/derive.ts), so the users it cut off are named too. One query.
 */
export async function usersAffected(db: DbOrTx, touch: AccessTouch): Promise<number[]> {
  const ints = (ids: Set<number>) => intArray([...ids].filter(Number.isFinite))
  const texts = JSON.stringify([...touch.authCodes])
  const rows = await queryRows<{ user_id: number }>(
    db,
    sql`
      with recursive subtree(code) as (
        select value from jsonb_array_elements_text(${texts}::jsonb)
        union
        select a.code from auths a join subtree s on a.parent_code = s.code
      ),
      touched_roles(role_id) as (
        select unnest(${ints(touch.roleIds)})
        union
        select ra.role_id from role_auths ra where ra.auth_code in (select code from subtree)
      )
      select user_id from (
        select unnest(${ints(touch.userIds)}) as user_id
        union
        select user_id from user_group_users where group_id = any(${ints(touch.groupIds)})
        union
        select user_id from position_users where position_id = any(${ints(touch.positionIds)})
        union
        ${usersReaching({ roles: sql`in (select role_id from touched_roles)`, carriers: 'every' })}
      ) affected
      order by user_id`,
  )
  return rows.map((r) => Number(r.user_id))
}
