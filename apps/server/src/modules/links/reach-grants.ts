import { sql } from 'drizzle-orm'
import { DATA_SCOPE } from '@amg/contract'
import { queryRows, type DbOrTx } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { linkBetween } from '../../db/tables'
import type { ReachGrant } from '../../auth/scope-guard'
import { rolesReached, usersReaching } from '../../auth/reach'
import type { LinkEntity } from './service'
import type { PowerGuard } from '../../auth/power'
import type { EffectiveAccess } from '../../auth/authorizer'

async function column(tx: DbOrTx, query: ReturnType<typeof sql>): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(tx, query)
  return [...new Set(rows.map((r) => Number(r.id)))]
}

/** The ids on the `want` side of the link table between `from` and `want`, linked to these `from` ids. */
function linked(tx: DbOrTx, from: LinkEntity, ids: readonly number[], want: LinkEntity): Promise<number[]> {
  const link = linkBetween(from, want)
  return column(
    tx,
    sql`select ${link.targetColumn} as id from ${link.table} where ${link.ownerColumn} = any(${intArray(ids)})`,
  )
}

/** The carriers of roles (DESIGN.md §6a): a user in one holds its roles. */
const isCarrier = (kind: LinkEntity): kind is 'group' | 'position' => kind === 'group' || kind === 'position'

/**
 * The roles a link gives and the users who get them through it (DESIGN.md §13: their scope must lie
 * within the caller's reach), read after the link is written. A carrier linked to roles gives them to
 * its members or holders; a user linked to a carrier gets its roles. A user who takes a position also
 * has their 本部门 / 本部门及以下 / 仅本人 roles reach the position's department from then on.
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
  if (roles && users) return [{ roleIds: roles, userIds: users }]
  const carrier = isCarrier(a) ? a : isCarrier(b) ? b : null
  if (!carrier) return []
  const carrierIds = side(carrier)!
  if (roles) return [{ roleIds: roles, userIds: await linked(tx, carrier, carrierIds, 'user') }]
  if (!users) return []
  const given = await linked(tx, carrier, carrierIds, 'role')
  if (carrier === 'group') return [{ roleIds: given, userIds: users }]
  const relative = await column(
    tx,
    sql`select id from roles where data_scope in (${DATA_SCOPE.ownOrg}, ${DATA_SCOPE.ownOrgTree}, ${DATA_SCOPE.self})
      and id in (${rolesReached({ users: sql`= any(${intArray(users)})`, carriers: 'every' })})`,
  )
  return [{ roleIds: [...new Set([...given, ...relative])], userIds: users }]
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
  const members = await linked(tx, kind, [id], 'user')
  return members.length ? linkGrants(tx, 'user', members, kind, [id]) : []
}

/**
 * Runs a write that gives roles to users and refuses it (403, nothing kept) unless the caller's
 * reach covers what it gave: the caller's access is read before the write (giving oneself a role
 * cannot widen one's own reach first), the grants after it (a position just taken or enabled is
 * then among the holders' departments). `caller`: the caller's id, or their access when the
 * transaction has read it already before the write (a link's power check did).
 */
export async function writeWithinReach<T>(
  tx: DbOrTx,
  power: PowerGuard,
  caller: number | EffectiveAccess,
  write: () => Promise<T>,
  given: (written: T) => Promise<readonly ReachGrant[]>,
): Promise<T> {
  const before = typeof caller === 'number' ? await power.callerAccess(tx, caller) : caller
  const written = await write()
  await power.requireGrantsReach(tx, before, await given(written))
  return written
}
