import { sql } from 'drizzle-orm'
import {
  beyondPowerMessage,
  coversScopeGrant,
  coversUrlPattern,
  DATA_SCOPE,
  dataScopeLabel,
  dataScopeOf,
  type RoleScope,
} from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { forbidden } from '../lib/errors'
import type { Authorizer } from './authorizer'
import { usersReaching } from './reach'

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
      left join position_users pu on pu.user_id = h.user_id
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
  const lacking: string[] = []
  for (const code of stake.codes) {
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
    const relative = RELATIVE.has(stake.scope.dataScope)
    const covered = relative
      ? targets.every((orgIds) => coversScopeGrant(held, stake.scope, orgIds, caller.depts))
      : coversScopeGrant(held, stake.scope, [], caller.depts)
    if (!covered) lacking.push(`${node.chName}（${dataScopeLabel(stake.scope.dataScope)}）`)
  }
  if (lacking.length) throw forbidden(beyondPowerMessage(lacking))
}
