import { sql, type SQL } from 'drizzle-orm'
import { coversPower, ROLE_TYPE, type Power } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { intArray } from '../db/sql-arrays'
import type { Authorizer, EffectiveAccess, TreeNode } from './authorizer'
import { rolesReached } from './reach'

/** What a change puts at stake (DESIGN.md §6a), resolved to the permission nodes the power check weighs. */

/**
 * A permission node's power as it will be after a change (not yet stored), in the service whose
 * subtree holds it: power in one service's namespace is covered only by power in the same one
 * (DESIGN.md §10a), so `GET /**` held for another service never covers this server's own calls.
 */
export interface NodePower extends Power {
  chName: string
  service: string
}

const NO_POWER: Power = { frontEnd: [], backEnd: [] }

/** Whether the caller's own power in the node's service covers the node. */
export const holds = (caller: EffectiveAccess, node: NodePower) =>
  coversPower(caller.power.get(node.service) ?? NO_POWER, node)

/**
 * What a change gives to or takes from anyone (DESIGN.md §6a). Every grant path names its stake
 * and calls `PowerGuard.require`; nothing else decides.
 *
 * The stake is stored power, whatever its status: a user's power counts every role they reach
 * directly or through any group or position, enabled or not, and a role's power counts every node
 * it holds, enabled or not. A disabled node, role, group or position gives its power the moment
 * someone enables it; were it left out here, a weaker administrator could plant power that a
 * stronger one later switches on without seeing it. Enabling something names what it switches on
 * (the role, the group, the position, the node's subtree), so that is checked the same way.
 */
export interface Stake {
  /** roles whose power moves: linked, unlinked, created, changed or deleted (type 1: all power) */
  roleIds?: readonly number[]
  /**
   * users changed in any way: their whole power. The caller is left out: changing oneself moves
   * only the power the change names besides (a role, a group, a position), never the caller's own,
   * which their live power covers and which dormant parts of it no change to a user wakes.
   */
  userIds?: readonly number[]
  /** groups joined, left, enabled, disabled or deleted: the roles they carry */
  groupIds?: readonly number[]
  /** positions held, left, enabled, disabled or deleted: the roles they carry */
  positionIds?: readonly number[]
  /** permission nodes by code, as stored whatever their status (a role's contents, a subtree) */
  authCodes?: readonly string[]
  /** permission nodes as they will be */
  nodes?: readonly NodePower[]
  /** the change creates, promotes or changes a super-admin role: all power */
  allPower?: boolean
}

/** The power at stake, resolved: all power, or a list of nodes. */
export interface ResolvedStake {
  allPower: boolean
  nodes: NodePower[]
}

/** The stake's roles and nodes read as stored, whatever their status: all power, or the nodes. */
export async function resolveStake(
  tx: DbOrTx,
  authz: Authorizer,
  callerId: number,
  stake: Stake,
): Promise<ResolvedStake> {
  if (stake.allPower) return { allPower: true, nodes: [] }
  const roleSources: SQL[] = []
  if (stake.roleIds?.length)
    roleSources.push(sql`select id as role_id from roles where id = any(${intArray(stake.roleIds)})`)
  if (stake.groupIds?.length)
    roleSources.push(
      sql`select role_id from user_group_roles where group_id = any(${intArray(stake.groupIds)})`,
    )
  if (stake.positionIds?.length)
    roleSources.push(
      sql`select role_id from position_roles where position_id = any(${intArray(stake.positionIds)})`,
    )
  const userIds = (stake.userIds ?? []).filter((id) => id !== callerId)
  if (userIds.length) {
    // every group and position counts, enabled or not: stored power
    roleSources.push(rolesReached({ users: sql`= any(${intArray(userIds)})`, carriers: 'every' }))
  }
  const codes = new Set(stake.authCodes ?? [])
  if (roleSources.length) {
    const rows = await queryRows<{ auth_code: string | null; type: number }>(
      tx,
      sql`with stake_roles as (${sql.join(roleSources, sql` union `)})
        select r.type, ra.auth_code from roles r
        join stake_roles s on s.role_id = r.id
        left join role_auths ra on ra.role_id = r.id`,
    )
    if (rows.some((r) => Number(r.type) === ROLE_TYPE.superAdmin)) return { allPower: true, nodes: [] }
    for (const r of rows) if (r.auth_code) codes.add(r.auth_code)
  }
  const tree = codes.size ? await authz.loadStoredTree(tx) : new Map<string, TreeNode>()
  const nodes: NodePower[] = []
  for (const code of [...codes].sort()) {
    const node = tree.get(code)
    if (node) nodes.push(nodePower(node))
  }
  nodes.push(...(stake.nodes ?? []))
  return { allPower: false, nodes }
}

/** A stored node's power, as the check weighs it. */
export function nodePower(node: TreeNode): NodePower {
  return {
    chName: node.chName,
    frontEnd: node.frontEndAccess,
    backEnd: node.urlPatternInfos,
    service: node.service,
  }
}
