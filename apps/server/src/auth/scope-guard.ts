import { sql } from 'drizzle-orm'
import {
  beyondPowerMessage,
  coversScopeGrant,
  coversUrlPattern,
  DATA_SCOPE,
  dataScopeLabel,
  dataScopeOf,
  ROLE_TYPE,
  type RoleScope,
} from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { intArray } from '../db/sql-arrays'
import { forbidden } from '../lib/errors'
import type { Authorizer, EffectiveAccess, TreeNode } from './authorizer'
import { liveLink, usersReaching } from './reach'

/**
 * No escalation covers reach (DESIGN.md §13, extending §6a): a caller gives a role's permissions
 * only with no more reach than their own for each of them. The caller's reach for a permission is
 * the scope of their roles whose live back-end patterns cover one of its patterns (as a call the
 * permission allows would be scoped); each holder of the role is a target of the grant (their
 * departments decide what 本部门, 本部门及以下 and 仅本人 reach). The rule itself is the contract's
 * `coversScopeGrant`; this only gathers what it reads.
 */
export interface ScopeStake {
  /** the role changed; null for a role being created (no holders yet) */
  roleId: number | null
  /** the role's scope after the change */
  scope: RoleScope
  /** codes of the permissions given with that scope: every code the role will hold when its scope changes, else those added */
  codes: readonly string[]
}

/** Each holder's departments (enabled positions), holders counted through every carrier, enabled or not (stored power). */
async function holdersDepartments(tx: DbOrTx, roleId: number): Promise<number[][]> {
  const rows = await queryRows<{ user_id: number; org_id: number | null }>(
    tx,
    sql`select h.user_id, p.org_id
      from (select distinct user_id from (${usersReaching({ roles: sql`= ${roleId}`, carriers: 'every' })}) x) h
      left join position_users pu on pu.user_id = h.user_id and ${liveLink('pu')}
      left join positions p on p.id = pu.position_id and p.status = 1`,
  )
  const byUser = new Map<number, number[]>()
  for (const r of rows) {
    const list = byUser.get(Number(r.user_id)) ?? []
    if (r.org_id !== null) list.push(Number(r.org_id))
    byUser.set(Number(r.user_id), list)
  }
  return [...byUser.values()]
}

const RELATIVE = new Set<number>([DATA_SCOPE.ownOrg, DATA_SCOPE.ownOrgTree, DATA_SCOPE.self])

/**
 * The permissions of `codes` whose reach the caller lacks when they are given with `scope` to holders
 * whose departments are `targets`, each named with the scope asked (empty: covered).
 */
function lackingReach(
  caller: EffectiveAccess,
  tree: ReadonlyMap<string, TreeNode>,
  scope: RoleScope,
  codes: readonly string[],
  targets: readonly (readonly number[])[],
): string[] {
  const lacking: string[] = []
  for (const code of codes) {
    const node = tree.get(code)
    if (!node || node.urlPatternInfos.length === 0) continue // front-end only: no call, no data
    const mine = caller.scopedRoles.filter((r) =>
      (r.patterns.get(node.service) ?? []).some((q) =>
        node.urlPatternInfos.some((p) => coversUrlPattern(q, p)),
      ),
    )
    const held = dataScopeOf(mine, caller.ownOrgIds, caller.depts)
    // 本部门, 本部门及以下 and 仅本人 reach what each holder's departments decide (no holder yet: nothing);
    // 全部数据 and 自定义部门 reach the same for everyone
    const covered = RELATIVE.has(scope.dataScope)
      ? targets.every((orgIds) => coversScopeGrant(held, scope, orgIds, caller.depts))
      : coversScopeGrant(held, scope, [], caller.depts)
    if (!covered) lacking.push(`${node.chName}（${dataScopeLabel(scope.dataScope)}）`)
  }
  return lacking
}

/** Throws 403 (the power message, each permission named with the scope asked) unless the caller's reach covers the stake. */
export async function requireScopeReach(
  tx: DbOrTx,
  authz: Authorizer,
  callerId: number,
  stake: ScopeStake,
): Promise<void> {
  if (!stake.codes.length) return
  const caller = await authz.resolve(callerId, tx)
  if (caller.superAdmin) return
  const tree = await authz.loadStoredTree(tx)
  const targets = stake.roleId === null ? [] : await holdersDepartments(tx, stake.roleId)
  const lacking = lackingReach(caller, tree, stake.scope, stake.codes, targets)
  if (lacking.length) throw forbidden(beyondPowerMessage(lacking))
}

/** Roles given to users by a link: each role with the users who hold it through the change. */
export interface ReachGrant {
  roleIds: readonly number[]
  userIds: readonly number[]
}

/**
 * No escalation covers reach on the link paths (DESIGN.md §13): every role a link gives (a role
 * linked to users, a group or position joined, a role given to a group's members or a position's
 * holders) is given with its scope to those users, which the caller's reach must cover, as on the
 * role calls. `caller`: the caller's access read before the change (linking a role to oneself
 * cannot widen one's own reach first); read after the change, the targets' departments include a
 * position just taken.
 */
export async function requireGrantsReach(
  tx: DbOrTx,
  authz: Authorizer,
  caller: EffectiveAccess,
  grants: readonly ReachGrant[],
): Promise<void> {
  if (caller.superAdmin) return
  const roleIds = [...new Set(grants.flatMap((g) => g.roleIds))]
  const userIds = [...new Set(grants.flatMap((g) => g.userIds))]
  if (!roleIds.length || !userIds.length) return
  const deptRows = await queryRows<{ user_id: number; org_id: number }>(
    tx,
    sql`select pu.user_id, p.org_id from position_users pu join positions p on p.id = pu.position_id
      where p.status = 1 and pu.user_id = any(${intArray(userIds)}) and ${liveLink('pu')}`,
  )
  const deptsOf = group(deptRows.map((r) => ({ k: Number(r.user_id), v: Number(r.org_id) })))
  const lacking = await grantsLackingReach(
    tx,
    authz,
    caller,
    grants.map((g) => ({ roleIds: g.roleIds, targets: g.userIds.map((id) => deptsOf.get(id) ?? []) })),
  )
  if (lacking.length) throw forbidden(beyondPowerMessage(lacking))
}

/**
 * Roles given to holders known by their departments (each holder's enabled positions' departments):
 * what `requireGrantsReach` weighs once it has read the users' departments, and what an import weighs
 * for users it is about to create (modules/import: they have no rows yet).
 */
export interface DepartmentGrant {
  roleIds: readonly number[]
  targets: readonly (readonly number[])[]
}

const group = <K, V>(rows: readonly { k: K; v: V }[]) => {
  const out = new Map<K, V[]>()
  for (const { k, v } of rows) out.set(k, [...(out.get(k) ?? []), v])
  return out
}

/**
 * The permissions (named with the scope asked) whose reach the caller lacks for these grants (empty:
 * covered). `caller`: the caller's access read before the change. The one place the link paths'
 * reach rule is decided.
 */
export async function grantsLackingReach(
  tx: DbOrTx,
  authz: Authorizer,
  caller: EffectiveAccess,
  grants: readonly DepartmentGrant[],
): Promise<string[]> {
  return [...new Set([...(await lackingReachPerRole(tx, authz, caller, grants)).values()].flat())]
}

/**
 * `grantsLackingReach` per role: each role of the grants whose reach the caller lacks, with the
 * permissions named (roles covered are absent). For pick lists that offer only what can be given.
 */
export async function lackingReachPerRole(
  tx: DbOrTx,
  authz: Authorizer,
  caller: EffectiveAccess,
  grants: readonly DepartmentGrant[],
): Promise<Map<number, string[]>> {
  const lacking = new Map<number, string[]>()
  if (caller.superAdmin) return lacking
  // no holder anywhere: nothing is given to anyone
  const roleIds = [...new Set(grants.flatMap((g) => g.roleIds))]
  if (!roleIds.length || !grants.some((g) => g.targets.length)) return lacking
  const [roleRows, codeRows, scopeRows] = await Promise.all([
    queryRows<{ id: number; data_scope: number; type: number }>(
      tx,
      sql`select id, data_scope, type from roles where id = any(${intArray(roleIds)})`,
    ),
    queryRows<{ role_id: number; auth_code: string }>(
      tx,
      sql`select role_id, auth_code from role_auths where role_id = any(${intArray(roleIds)})`,
    ),
    queryRows<{ role_id: number; org_id: number }>(
      tx,
      sql`select role_id, org_id from role_scope_orgs where role_id = any(${intArray(roleIds)})`,
    ),
  ])
  const codesOf = group(codeRows.map((r) => ({ k: Number(r.role_id), v: r.auth_code })))
  const orgsOf = group(scopeRows.map((r) => ({ k: Number(r.role_id), v: Number(r.org_id) })))
  const tree = await authz.loadStoredTree(tx)
  for (const grant of grants) {
    for (const roleId of grant.roleIds) {
      const role = roleRows.find((r) => Number(r.id) === roleId)
      // a super-admin role is all power, which the power check already refuses to anyone but a super admin
      if (!role || Number(role.type) === ROLE_TYPE.superAdmin) continue
      const scope = { dataScope: Number(role.data_scope), scopeOrgIds: orgsOf.get(roleId) ?? [] }
      const names = lackingReach(caller, tree, scope, codesOf.get(roleId) ?? [], grant.targets)
      if (names.length) lacking.set(roleId, [...new Set([...(lacking.get(roleId) ?? []), ...names])])
    }
  }
  return lacking
}
