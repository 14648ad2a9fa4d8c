import { sql, type SQL } from 'drizzle-orm'
import { beyondPowerMessage, coversPower, ROLE_TYPE, SUPER_ADMIN_POWER_NAME, type Power } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { intArray } from '../db/sql-arrays'
import { forbidden } from '../lib/errors'
import type { Authorizer, EffectiveAccess, TreeNode } from './authorizer'
import { rolesReached } from './reach'
import {
  grantsLackingReach,
  requireGrantsReach,
  requireScopeReach,
  type DepartmentGrant,
  type ReachGrant,
  type ScopeStake,
} from './scope-guard'

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
const holds = (caller: EffectiveAccess, node: NodePower) =>
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
interface ResolvedStake {
  allPower: boolean
  nodes: NodePower[]
}

/**
 * The power check of DESIGN.md §6a: a caller who is not a super admin may make a change only when
 * their own power covers all the power the change gives to or takes from anyone. Refusals are 403
 * '不能授予或管理超出自己权限的内容：' with up to five names of what the caller lacks.
 */
export class PowerGuard {
  constructor(private readonly authz: Authorizer) {}

  /**
   * Throws 403 unless the caller's power covers the stake. Run it inside the change's transaction,
   * before the change: both the caller's power and the stake are read as they were, and what the
   * change will add is named in the stake (`authCodes`, `nodes`, the linked ids). `caller`: the
   * caller's access when the transaction has read it already (a link's reach check reads the same).
   */
  async require(tx: DbOrTx, callerId: number, stake: Stake, caller?: EffectiveAccess): Promise<void> {
    const missing = await this.missing(tx, callerId, stake, caller)
    if (missing.length) throw forbidden(beyondPowerMessage(missing))
  }

  /**
   * Throws 403 unless the caller's reach covers the data scope a role's permissions are given with
   * (DESIGN.md §13: no escalation covers reach; auth/scope-guard.ts). Run it beside `require`.
   */
  async requireReach(tx: DbOrTx, callerId: number, stake: ScopeStake): Promise<void> {
    await requireScopeReach(tx, this.authz, callerId, stake)
  }

  /** The caller's access read inside the change's transaction, before it writes (for `requireGrantsReach`). */
  async callerAccess(tx: DbOrTx, callerId: number): Promise<EffectiveAccess> {
    return this.authz.resolve(callerId, tx)
  }

  /** Throws 403 unless the caller's reach covers the scope of every role a link gives (auth/scope-guard.ts). */
  async requireGrantsReach(
    tx: DbOrTx,
    caller: EffectiveAccess,
    grants: readonly ReachGrant[],
  ): Promise<void> {
    await requireGrantsReach(tx, this.authz, caller, grants)
  }

  /**
   * What `requireGrantsReach` would refuse, named (empty: covered), for holders known by their
   * departments: users an import is about to create.
   */
  async grantsLacking(
    tx: DbOrTx,
    caller: EffectiveAccess,
    grants: readonly DepartmentGrant[],
  ): Promise<string[]> {
    return grantsLackingReach(tx, this.authz, caller, grants)
  }

  /**
   * Names of the permissions the caller lacks for this stake (empty: allowed). The caller holds
   * their live power only (effective, enabled: DESIGN.md §6); dormant power is no licence to grant.
   */
  async missing(tx: DbOrTx, callerId: number, stake: Stake, access?: EffectiveAccess): Promise<string[]> {
    const caller = access ?? (await this.authz.resolve(callerId, tx))
    if (caller.superAdmin) return []
    const resolved = await this.resolve(tx, callerId, stake)
    if (resolved.allPower) return [SUPER_ADMIN_POWER_NAME]
    return resolved.nodes.filter((node) => !holds(caller, node)).map((node) => node.chName)
  }

  /**
   * For pickers: per owner (a role, a group or a position) the names of what the caller lacks to
   * grant the roles it carries, stored power counted as `require` counts it; owners the caller may
   * grant map to an empty list.
   */
  async missingPerOwner(
    tx: DbOrTx,
    callerId: number,
    rolesByOwner: ReadonlyMap<number, readonly number[]>,
  ): Promise<Map<number, string[]>> {
    const answer = new Map<number, string[]>()
    const caller = await this.authz.resolve(callerId, tx)
    const allRoleIds = [...new Set([...rolesByOwner.values()].flat())]
    if (caller.superAdmin || allRoleIds.length === 0) {
      for (const owner of rolesByOwner.keys()) answer.set(owner, [])
      return answer
    }
    const superRoles = new Set(
      (
        await queryRows<{ id: number }>(
          tx,
          sql`select id from roles where type = ${ROLE_TYPE.superAdmin} and id = any(${intArray(allRoleIds)})`,
        )
      ).map((r) => Number(r.id)),
    )
    const codeRows = await queryRows<{ role_id: number; auth_code: string }>(
      tx,
      sql`select role_id, auth_code from role_auths where role_id = any(${intArray(allRoleIds)})`,
    )
    const tree = await this.authz.loadStoredTree(tx)
    const coveredByCode = new Map<string, boolean>()
    const lackedPerRole = new Map<number, string[]>()
    for (const row of codeRows) {
      const node = tree.get(row.auth_code)
      if (!node) continue
      let covered = coveredByCode.get(node.code)
      if (covered === undefined) {
        covered = holds(caller, nodePower(node))
        coveredByCode.set(node.code, covered)
      }
      if (!covered) {
        const list = lackedPerRole.get(Number(row.role_id)) ?? []
        list.push(node.chName)
        lackedPerRole.set(Number(row.role_id), list)
      }
    }
    for (const [owner, roleIds] of rolesByOwner) {
      const lacked = roleIds.some((id) => superRoles.has(id))
        ? [SUPER_ADMIN_POWER_NAME]
        : roleIds.flatMap((id) => lackedPerRole.get(id) ?? [])
      answer.set(owner, [...new Set(lacked)])
    }
    return answer
  }

  /**
   * For the role forms' permission tree: each stored node the caller may not put in a role, with
   * the name `require` would give for it. A super admin may grant every node.
   */
  async lackedNodes(tx: DbOrTx, callerId: number): Promise<Map<string, string>> {
    const lacked = new Map<string, string>()
    const caller = await this.authz.resolve(callerId, tx)
    if (caller.superAdmin) return lacked
    for (const node of (await this.authz.loadStoredTree(tx)).values())
      if (!holds(caller, nodePower(node))) lacked.set(node.code, node.chName)
    return lacked
  }

  private async resolve(tx: DbOrTx, callerId: number, stake: Stake): Promise<ResolvedStake> {
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
    const tree = codes.size ? await this.authz.loadStoredTree(tx) : new Map<string, TreeNode>()
    const nodes: NodePower[] = []
    for (const code of [...codes].sort()) {
      const node = tree.get(code)
      if (node) nodes.push(nodePower(node))
    }
    nodes.push(...(stake.nodes ?? []))
    return { allPower: false, nodes }
  }
}

function nodePower(node: TreeNode): NodePower {
  return {
    chName: node.chName,
    frontEnd: node.frontEndAccess,
    backEnd: node.urlPatternInfos,
    service: node.service,
  }
}

/**
 * Marks link-picker candidates (roles, groups or positions) with whether the caller may grant
 * them and, when not, the refusal the link call would answer.
 */
export async function markGrantable<T extends { id: number }>(
  db: DbOrTx,
  power: PowerGuard,
  callerId: number,
  candidates: T[],
  rolesOf: (ids: number[]) => Promise<Map<number, number[]>>,
): Promise<(T & { grantable: boolean; denyReason: string | null })[]> {
  const rolesByOwner = candidates.length ? await rolesOf(candidates.map((c) => c.id)) : new Map()
  const lacked = await power.missingPerOwner(db, callerId, rolesByOwner)
  return candidates.map((c) => {
    const missing = lacked.get(c.id) ?? []
    return {
      ...c,
      grantable: missing.length === 0,
      denyReason: missing.length ? beyondPowerMessage(missing) : null,
    }
  })
}

/** The roles each owner carries, from one of the link tables (`user_group_roles`, `position_roles`). */
export async function rolesCarried(
  db: DbOrTx,
  table: 'user_group_roles' | 'position_roles',
  ownerIds: number[],
): Promise<Map<number, number[]>> {
  const ownerColumn = table === 'user_group_roles' ? 'group_id' : 'position_id'
  const rows = await queryRows<{ owner: number; role_id: number }>(
    db,
    sql`select ${sql.identifier(ownerColumn)} as owner, role_id from ${sql.identifier(table)}
      where ${sql.identifier(ownerColumn)} = any(${intArray(ownerIds)})`,
  )
  const byOwner = new Map<number, number[]>(ownerIds.map((id) => [id, []]))
  for (const r of rows) byOwner.get(Number(r.owner))?.push(Number(r.role_id))
  return byOwner
}
