import { sql } from 'drizzle-orm'
import { beyondPowerMessage, ROLE_TYPE, SUPER_ADMIN_POWER_NAME } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { intArray } from '../db/sql-arrays'
import { forbidden } from '../lib/errors'
import type { Authorizer, EffectiveAccess } from './authorizer'
import { reach } from './reach'
import { holds, nodePower, resolveStake, type Stake } from './power-stake'
import {
  grantsLackingReach,
  lackingReachPerRole,
  requireGrantsReach,
  requireScopeReach,
  type DepartmentGrant,
  type ReachGrant,
  type ScopeStake,
} from './scope-guard'

// what a change puts at stake lives in power-stake.ts, the pickers' marks in grantable.ts; named here
// too for the modules that take them with the guard
export type { NodePower, Stake } from './power-stake'
export { markGrantable, rolesCarried } from './grantable'

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

  /** `grantsLacking` per role, for pick lists (roles whose reach the caller covers are absent). */
  async lackingReachPerRole(
    tx: DbOrTx,
    caller: EffectiveAccess,
    grants: readonly DepartmentGrant[],
  ): Promise<Map<number, string[]>> {
    return lackingReachPerRole(tx, this.authz, caller, grants)
  }

  /**
   * Names of the permissions the caller lacks for this stake (empty: allowed). The caller holds
   * their live power only (effective, enabled: DESIGN.md §6); dormant power is no licence to grant.
   */
  async missing(tx: DbOrTx, callerId: number, stake: Stake, access?: EffectiveAccess): Promise<string[]> {
    const caller = access ?? (await this.authz.resolve(callerId, tx))
    if (caller.superAdmin) return []
    const resolved = await resolveStake(tx, this.authz, callerId, stake)
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
   * The users of `userIds` whose whole power the caller covers (§6a: any change to a user), stored
   * power counted as `require` counts it; the caller themselves always (changing oneself within
   * one's live power). For marking which users the console may offer to change.
   */
  async usersCovered(tx: DbOrTx, callerId: number, userIds: readonly number[]): Promise<Set<number>> {
    const others = userIds.filter((id) => id !== callerId)
    const rolesByUser = new Map<number, number[]>(others.map((id) => [id, []]))
    if (others.length) {
      const rows = await queryRows<{ user_id: number; role_id: number }>(
        tx,
        sql`select distinct user_id, role_id from (${reach({ users: sql`= any(${intArray(others)})`, carriers: 'every' })}) r`,
      )
      for (const r of rows) rolesByUser.get(Number(r.user_id))?.push(Number(r.role_id))
    }
    const lacked = await this.missingPerOwner(tx, callerId, rolesByUser)
    return new Set(userIds.filter((id) => id === callerId || !lacked.get(id)?.length))
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
}
