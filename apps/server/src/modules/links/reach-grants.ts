import { sql } from 'drizzle-orm'
import { DATA_SCOPE } from '@amg/contract'
import { queryRows, type DbOrTx } from '../../db/connection'
import type { ReachGrant } from '../../auth/scope-guard'
import { rolesReached } from '../../auth/reach'
import type { LinkEntity } from './service'

const ids = (list: readonly number[]) => sql`${`{${list.join(',')}}`}::int[]`

async function column(tx: DbOrTx, query: ReturnType<typeof sql>): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(tx, query)
  return [...new Set(rows.map((r) => Number(r.id)))]
}

/**
 * The roles a link gives and the users who get them through it (DESIGN.md §13: their scope must lie
 * within the caller's reach), read after the link is written. A user who takes a position gets its
 * roles, and their 本部门 / 本部门及以下 / 仅本人 roles reach the position's department from then on.
 */
export async function linkGrants(
  tx: DbOrTx,
  a: LinkEntity,
  aIds: readonly number[],
  b: LinkEntity,
  bIds: readonly number[],
): Promise<ReachGrant[]> {
  const side = (kind: LinkEntity) => (a === kind ? aIds : b === kind ? bIds : null)
  const users = side('user')
  const roles = side('role')
  const groups = side('group')
  const positions = side('position')
  if (roles && users) return [{ roleIds: roles, userIds: users }]
  if (roles && groups) {
    const members = await column(
      tx,
      sql`select user_id as id from user_group_users where group_id = any(${ids(groups)})`,
    )
    return [{ roleIds: roles, userIds: members }]
  }
  if (roles && positions) {
    const holders = await column(
      tx,
      sql`select user_id as id from position_users where position_id = any(${ids(positions)})`,
    )
    return [{ roleIds: roles, userIds: holders }]
  }
  if (users && groups) {
    const given = await column(
      tx,
      sql`select role_id as id from user_group_roles where group_id = any(${ids(groups)})`,
    )
    return [{ roleIds: given, userIds: users }]
  }
  if (users && positions) {
    const given = await column(
      tx,
      sql`select role_id as id from position_roles where position_id = any(${ids(positions)})`,
    )
    const relative = await column(
      tx,
      sql`select id from roles where data_scope in (${DATA_SCOPE.ownOrg}, ${DATA_SCOPE.ownOrgTree}, ${DATA_SCOPE.self})
        and id in (${rolesReached({ users: sql`= any(${ids(users)})`, carriers: 'every' })})`,
    )
    return [{ roleIds: [...new Set([...given, ...relative])], userIds: users }]
  }
  return []
}
