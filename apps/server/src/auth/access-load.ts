import { sql } from 'drizzle-orm'
import {
  AMS_SERVICE_KEY,
  DATA_SCOPE,
  ROLE_TYPE,
  type DeptTree,
  type Power,
  type UrlPattern,
} from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { liveLink, rolesReached } from './reach'
import type { ScopedRole, ScopeHolding } from './data-scope'
import type { TreeNode, TreeSnapshot } from './permission-tree'
import { NO_DEPARTMENTS } from './dept-tree-cache'

export interface EffectiveAccess extends ScopeHolding {
  roles: { id: number; roleName: string; type: number }[]
  superAdmin: boolean
  /** codes of enabled nodes (every ancestor enabled too) held by the user's enabled roles, every service's */
  authCodes: string[]
  /** this server's own (ams) front-end path patterns, for the console's menu and tabs */
  auths: string[]
  /** this server's own (ams) back-end patterns: what the auth hook matches */
  backEnd: UrlPattern[]
  /** each service's power by key, ams's included: a node authorizes only in its own service (DESIGN.md §10a) */
  power: ReadonlyMap<string, Power>
  /**
   * When the earliest of the user's time-bound links runs out (ms since the epoch; null: none): the
   * access is true until then and re-resolved after (DESIGN.md §20), with no sweep lag.
   */
  expiresAt: number | null
}

const NO_POWER: Power = { frontEnd: [], backEnd: [] }

type RoleRow = { id: number; role_name: string; type: number; data_scope: number }
type CodeRow = { role_id: number; auth_code: string }

/**
 * What a user may do (DESIGN.md §6), read from `db` against the permission tree `snapshot`. `depts`
 * gives the department tree, asked only when a scope may read it (see `loadScopeHolding`).
 */
export async function loadAccess(
  db: DbOrTx,
  userId: number,
  snapshot: TreeSnapshot,
  depts: () => Promise<DeptTree>,
): Promise<EffectiveAccess> {
  const roleRows = await queryRows<RoleRow>(
    db,
    sql`select r.id, r.role_name, r.type, r.data_scope from roles r
      where r.status = 1 and r.id in (${rolesReached({ users: sql`= ${userId}` })})
      order by r.id`,
  )
  const expiresAt = await earliestExpiry(db, userId)
  const roles = roleRows.map((r) => ({ id: Number(r.id), roleName: r.role_name, type: Number(r.type) }))
  const roleIds = roles.map((r) => r.id)
  const inRoles = sql.join(roleIds, sql`, `)
  const codeRows = roleIds.length
    ? await queryRows<CodeRow>(
        db,
        sql`select role_id, auth_code from role_auths where role_id in (${inRoles})`,
      )
    : []
  const tree = snapshot.enabled
  const nodes = [...new Set(codeRows.map((r) => r.auth_code))]
    .map((code) => tree.get(code))
    .filter((n): n is TreeNode => !!n)
  const power = new Map<string, { frontEnd: Set<string>; backEnd: UrlPattern[] }>()
  for (const n of nodes) {
    const held = power.get(n.service) ?? { frontEnd: new Set<string>(), backEnd: [] }
    n.frontEndAccess.forEach((p) => held.frontEnd.add(p))
    held.backEnd.push(...n.urlPatternInfos)
    power.set(n.service, held)
  }
  const byService = new Map<string, Power>(
    [...power].map(([key, held]) => [key, { frontEnd: [...held.frontEnd], backEnd: held.backEnd }]),
  )
  const ams = byService.get(AMS_SERVICE_KEY) ?? NO_POWER
  const superAdmin = roles.some((r) => r.type === ROLE_TYPE.superAdmin)
  return {
    roles,
    superAdmin,
    authCodes: nodes.map((n) => n.code).sort(),
    auths: [...ams.frontEnd],
    backEnd: [...ams.backEnd],
    power: byService,
    expiresAt,
    ...(await loadScopeHolding(db, userId, superAdmin, roleRows, codeRows, snapshot, depts)),
  }
}

/**
 * The earliest expiry among the user's live links to roles, groups and positions, whatever they carry:
 * any of them running out may change the roles reached or the departments held. Read before the
 * roles, so a link running out between the two reads ends the access no later than it should.
 */
async function earliestExpiry(db: DbOrTx, userId: number): Promise<number | null> {
  const [row] = await queryRows<{ at: string | Date | null }>(
    db,
    sql`select min(expires_at) as at from (
      select expires_at from user_roles where user_id = ${userId} and expires_at > now()
      union all select expires_at from user_group_users where user_id = ${userId} and expires_at > now()
      union all select expires_at from position_users where user_id = ${userId} and expires_at > now()) e`,
  )
  return row?.at ? new Date(row.at).getTime() : null
}

/**
 * What the data scope of the user's calls is computed from (DESIGN.md §13): each enabled role's
 * scope and live patterns, the departments of the user's enabled positions, and the department tree.
 * A super admin holding no other role never reads the tree (every call of theirs reaches all data:
 * data-scope.ts, and the power and scope checks pass them first), so it is not read for them: a
 * department change, which drops every user's access, then costs them no read of the whole tree.
 */
const TREE_SCOPES = new Set<number>([DATA_SCOPE.custom, DATA_SCOPE.ownOrg, DATA_SCOPE.ownOrgTree])

async function loadScopeHolding(
  db: DbOrTx,
  userId: number,
  superAdmin: boolean,
  roleRows: readonly RoleRow[],
  codeRows: readonly CodeRow[],
  snapshot: TreeSnapshot,
  depts: () => Promise<DeptTree>,
): Promise<Omit<ScopeHolding, 'superAdmin'>> {
  const scoped = roleRows.filter((r) => Number(r.type) !== ROLE_TYPE.superAdmin).map((r) => Number(r.id))
  const orgRows = scoped.length
    ? await queryRows<{ role_id: number; org_id: number }>(
        db,
        sql`select role_id, org_id from role_scope_orgs where role_id in (${sql.join(scoped, sql`, `)})`,
      )
    : []
  const ownRows = await queryRows<{ org_id: number }>(
    db,
    sql`select distinct p.org_id from position_users pu
      join positions p on p.id = pu.position_id and p.status = 1
      where pu.user_id = ${userId} and ${liveLink('pu')}`,
  )
  const patternsOf = new Map<number, Map<string, UrlPattern[]>>()
  for (const c of codeRows) {
    const node = snapshot.enabled.get(c.auth_code)
    if (!node) continue
    const byService = patternsOf.get(Number(c.role_id)) ?? new Map<string, UrlPattern[]>()
    byService.set(node.service, [...(byService.get(node.service) ?? []), ...node.urlPatternInfos])
    patternsOf.set(Number(c.role_id), byService)
  }
  const scopedRoles: ScopedRole[] = roleRows
    .filter((r) => Number(r.type) !== ROLE_TYPE.superAdmin)
    .map((r) => {
      const id = Number(r.id)
      const patterns = patternsOf.get(id) ?? new Map<string, UrlPattern[]>()
      return {
        id,
        roleName: r.role_name,
        dataScope: Number(r.data_scope),
        scopeOrgIds: orgRows.filter((o) => Number(o.role_id) === id).map((o) => Number(o.org_id)),
        patterns,
      }
    })
  return {
    scopedRoles,
    ownOrgIds: ownRows.map((o) => Number(o.org_id)).sort((a, b) => a - b),
    // only departments-based scopes (自定义部门, 本部门, 本部门及以下) are worked out on the tree
    depts: scopedRoles.some((r) => TREE_SCOPES.has(r.dataScope)) ? await depts() : NO_DEPARTMENTS,
    scopeMemo: new Map(),
  }
}
