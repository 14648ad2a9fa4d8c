import { sql } from 'drizzle-orm'
import { DATA_SCOPE } from '@amg/contract'
import { queryRows, type DbOrTx } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import type { ReachGrant } from '../../auth/scope-guard'
import { rolesReached, usersReaching } from '../../auth/reach'
import type { LinkEntity } from './service'
import type { PowerGuard } from '../../auth/power'

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
      sql`select user_id as id from user_group_users where group_id = any(${intArray(groups)})`,
    )
    return [{ roleIds: roles, userIds: members }]
  }
  if (roles && positions) {
    const holders = await column(
      tx,
      sql`select user_id as id from position_users where position_id = any(${intArray(positions)})`,
    )
    return [{ roleIds: roles, userIds: holders }]
  }
  if (users && groups) {
    const given = await column(
      tx,
      sql`select role_id as id from user_group_roles where group_id = any(${intArray(groups)})`,
    )
    return [{ roleIds: given, userIds: users }]
  }
  if (users && positions) {
    const given = await column(
      tx,
      sql`select role_id as id from position_roles where position_id = any(${intArray(positions)})`,
    )
    const relative = await column(
      tx,
      sql`select id from roles where data_scope in (${DATA_SCOPE.ownOrg}, ${DATA_SCOPE.ownOrgTree}, ${DATA_SCOPE.self})
        and id in (${rolesReached({ users: sql`= any(${intArray(users)})`, carriers: 'every' })})`,
    )
    return [{ roleIds: [...new Set([...given, ...relative])], userIds: users }]
  }
  return []
}

/**
 * What switching a carrier on gives, and to whom (DESIGN.md §13: enabling is a grant path). A group
 * gives its roles to its members; a position gives its roles to its holders and adds its department
 * to their own, which 本部门 / 本部门及以下 / 仅本人 roles reach from then on (read after the status
 * is written); a role gives itself to everyone who reaches it through any carrier.
 */
export async function enablingGrants(
  tx: DbOrTx,
  kind: 'group' | 'position' | 'role',
  id: number,
): Promise<ReachGrant[]> {
  if (kind === 'role') {
    const holders = await column(
      tx,
      sql`select user_id as id from (${usersReaching({ roles: sql`= ${id}`, carriers: 'every' })}) h`,
    )
    return [{ roleIds: [id], userIds: holders }]
  }
  const members =
    kind === 'group'
      ? await column(tx, sql`select user_id as id from user_group_users where group_id = ${id}`)
      : await column(tx, sql`select user_id as id from position_users where position_id = ${id}`)
  return members.length ? linkGrants(tx, 'user', members, kind, [id]) : []
}

/**
 * Runs a write that gives roles to users and refuses it (403, nothing kept) unless the caller's
 * reach covers what it gave: the caller's access is read before the write (giving oneself a role
 * cannot widen one's own reach first), the grants after it (a position just taken or enabled is
 * then among the holders' departments).
 */
export async function writeWithinReach<T>(
  tx: DbOrTx,
  power: PowerGuard,
  callerId: number,
  write: () => Promise<T>,
  given: (written: T) => Promise<readonly ReachGrant[]>,
): Promise<T> {
  const before = await power.callerAccess(tx, callerId)
  const written = await write()
  await power.requireGrantsReach(tx, before, await given(written))
  return written
}
