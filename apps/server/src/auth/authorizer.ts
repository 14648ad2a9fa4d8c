import { sql } from 'drizzle-orm'
import {
  AMS_SERVICE_KEY,
  deptTree,
  matchesUrlPattern,
  ROLE_TYPE,
  type DataScope,
  type DeptTree,
  type Power,
  type UrlPattern,
} from '@amg/contract'
import { queryRows, type Database, type Db, type DbOrTx } from '../db/connection'
import { auths, organizations, services } from '../db/schema'
import { rolesReached } from './reach'
import {
  scopeHeaderOfCall,
  scopeOfCall,
  scopePartsOfCall,
  type ScopedRole,
  type ScopeHolding,
} from './data-scope'
import { AccessCache } from '../cache/access-cache'
import type { CacheHost } from '../cache/watched-cache'

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
}

export interface TreeNode {
  code: string
  chName: string
  parentCode: string | null
  status: number
  frontEndAccess: string[]
  urlPatternInfos: UrlPattern[]
  /** the key of the service whose subtree holds the node */
  service: string
}

/**
 * The permission tree as decisions read it: which service owns each node, and the enabled nodes. A
 * service owns the subtree of its root (a top-level node); ams owns every node in no other service's
 * subtree, so today's whole tree is ams's without being moved (docs/decisions.md).
 */
export interface TreeSnapshot {
  /**
   * every stored node by code, whatever its status: the power check counts stored power (DESIGN.md
   * §6a), since a disabled node gives its power the moment someone enables it
   */
  stored: Map<string, TreeNode>
  /** enabled nodes only: a disabled node disables its whole subtree */
  enabled: Map<string, TreeNode>
  /** every node's service, enabled or not */
  serviceOf: ReadonlyMap<string, string>
  /** every service's key and root code (null for ams) */
  services: ReadonlyMap<string, string | null>
  /** the department tree, for data scopes (DESIGN.md §13) */
  depts: DeptTree
}

const NO_POWER: Power = { frontEnd: [], backEnd: [] }

/** The service a node would belong to under `parentCode` (ams at the top, unless it is a service's root). */
export function serviceUnder(tree: TreeSnapshot, parentCode: string | null): string {
  return parentCode === null ? AMS_SERVICE_KEY : (tree.serviceOf.get(parentCode) ?? AMS_SERVICE_KEY)
}

const allows = (access: EffectiveAccess, service: string, method: string, path: string) => {
  if (access.superAdmin) return true
  const patterns = service === AMS_SERVICE_KEY ? access.backEnd : access.power.get(service)?.backEnd
  return patterns !== undefined && patterns.some((p) => matchesUrlPattern(p, method, path))
}

/**
 * Resolves what a user may do (DESIGN.md §6), and keeps each user's answer and the tree in the access
 * cache (cache/access-cache.ts) until a table that decides access changes, whatever route or script
 * changed it; a read that happens to be a POST clears nothing.
 */
export class Authorizer {
  private readonly cache: AccessCache<EffectiveAccess, TreeSnapshot>

  constructor(
    private readonly db: Db,
    private readonly database: Pick<Database, 'notify'> & CacheHost['database'],
    changes?: CacheHost['changes'],
  ) {
    this.cache = new AccessCache({ database, changes })
  }

  /** Drop every cached answer here at once, then tell the other instances (scripts and tests that bypass the triggers). */
  async invalidate(): Promise<void> {
    this.cache.clear()
    await this.database.notify('authz')
  }

  /** Whether this user's answer is cached here (tests show what clears it and what does not). */
  isCached(userId: number): boolean {
    return this.cache.access(userId) !== undefined
  }

  /**
   * What the user may do. `tx`: resolve inside an open transaction (a power check), reading what it
   * sees without storing the answer, since that transaction may still roll back.
   */
  async resolve(userId: number, tx?: DbOrTx): Promise<EffectiveAccess> {
    const cached = this.cache.access(userId)
    if (cached) return cached
    if (tx) return this.load(userId, tx)
    const token = this.cache.token()
    const access = await this.load(userId, this.db)
    this.cache.keepAccess(token, userId, access)
    return access
  }

  /** Whether the user may make the call on `service` (default ams: this server's own API). */
  async can(
    userId: number,
    method: string,
    path: string,
    service: string = AMS_SERVICE_KEY,
  ): Promise<boolean> {
    return allows(await this.resolve(userId), service, method, path)
  }

  /** `can` answered at once from what is held here; undefined when the user's access is not held. */
  canFromMemory(
    userId: number,
    method: string,
    path: string,
    service: string = AMS_SERVICE_KEY,
  ): boolean | undefined {
    const access = this.cache.access(userId)
    return access === undefined ? undefined : allows(access, service, method, path)
  }

  /**
   * The data scope of a call (DESIGN.md §13) for the product's own enforcement and for other systems:
   * null when the user may not make the call, else `{ all, self, orgIds }`, the union over the user's
   * enabled roles that allow it (super admin: all). From memory once warm, cached per (user, allowing
   * roles) with the user's access and dropped with it.
   */
  async scopeOf(
    userId: number,
    method: string,
    path: string,
    service: string = AMS_SERVICE_KEY,
  ): Promise<DataScope | null> {
    const access = await this.resolve(userId)
    return allows(access, service, method, path) ? scopeOfCall(access, service, method, path) : null
  }

  /** The X-Auth-Data-Scope value of a call (contract scope-header.ts); null when the call is refused. */
  async scopeHeaderOf(
    userId: number,
    method: string,
    path: string,
    service: string = AMS_SERVICE_KEY,
  ): Promise<string | null> {
    const access = await this.resolve(userId)
    return allows(access, service, method, path) ? scopeHeaderOfCall(access, service, method, path) : null
  }

  /** Each allowing role's own part of a call's scope (explain); empty for a super admin or a refused call. */
  async scopeParts(userId: number, method: string, path: string, service: string = AMS_SERVICE_KEY) {
    const access = await this.resolve(userId)
    return allows(access, service, method, path) ? scopePartsOfCall(access, service, method, path) : []
  }

  /** Whether a service with this key exists. */
  async hasService(key: string): Promise<boolean> {
    return (await this.loadTree()).services.has(key)
  }

  /** `hasService` answered at once from what is held here; undefined when the tree is not held. */
  hasServiceFromMemory(key: string): boolean | undefined {
    return this.cache.tree()?.services.has(key)
  }

  private async load(userId: number, db: DbOrTx): Promise<EffectiveAccess> {
    const roleRows = await queryRows<{ id: number; role_name: string; type: number; data_scope: number }>(
      db,
      sql`select r.id, r.role_name, r.type, r.data_scope from roles r
        where r.status = 1 and r.id in (${rolesReached({ users: sql`= ${userId}` })})
        order by r.id`,
    )
    const roles = roleRows.map((r) => ({ id: Number(r.id), roleName: r.role_name, type: Number(r.type) }))
    const roleIds = roles.map((r) => r.id)
    const inRoles = sql.join(roleIds, sql`, `)
    const codeRows = roleIds.length
      ? await queryRows<{ role_id: number; auth_code: string }>(
          db,
          sql`select role_id, auth_code from role_auths where role_id in (${inRoles})`,
        )
      : []
    const snapshot = await this.loadTree(db === this.db ? undefined : db)
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
    return {
      roles,
      superAdmin: roles.some((r) => r.type === ROLE_TYPE.superAdmin),
      authCodes: nodes.map((n) => n.code).sort(),
      auths: [...ams.frontEnd],
      backEnd: [...ams.backEnd],
      power: byService,
      ...(await this.loadScopeHolding(db, userId, roleRows, codeRows, snapshot)),
    }
  }

  /**
   * What the data scope of the user's calls is computed from (DESIGN.md §13): each enabled role's
   * scope and live patterns, the departments of the user's enabled positions, and the department tree.
   */
  private async loadScopeHolding(
    db: DbOrTx,
    userId: number,
    roleRows: readonly { id: number; role_name: string; type: number; data_scope: number }[],
    codeRows: readonly { role_id: number; auth_code: string }[],
    snapshot: TreeSnapshot,
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
        where pu.user_id = ${userId}`,
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
      depts: snapshot.depts,
      scopeMemo: new Map(),
    }
  }

  /**
   * Every stored node by code, whatever its status: the power check counts stored power (DESIGN.md
   * §6a), since a disabled node gives its power the moment someone enables it. Shared by every user.
   */
  async loadStoredTree(tx?: DbOrTx): Promise<Map<string, TreeNode>> {
    return (await this.loadTree(tx)).stored
  }

  /** Enabled nodes only: a disabled node disables its whole subtree. Shared by every user. */
  async loadEnabledTree(tx?: DbOrTx): Promise<Map<string, TreeNode>> {
    return (await this.loadTree(tx)).enabled
  }

  /** The tree with each node's service, and the services (read inside `tx` without keeping it). */
  async loadTree(tx?: DbOrTx): Promise<TreeSnapshot> {
    const held = this.cache.tree()
    if (held) return held
    const token = this.cache.token()
    const db = tx ?? this.db
    const rows = await db
      .select({
        code: auths.code,
        chName: auths.chName,
        parentCode: auths.parentCode,
        status: auths.status,
        frontEndAccess: auths.frontEndAccess,
        urlPatternInfos: auths.urlPatternInfos,
      })
      .from(auths)
    const serviceRows = await db.select({ key: services.key, rootCode: services.rootCode }).from(services)
    const orgRows = await db
      .select({ id: organizations.id, parent: organizations.parent })
      .from(organizations)
    const snapshot = {
      ...buildSnapshot(rows, serviceRows),
      depts: deptTree(orgRows.map((o) => [o.id, o.parent] as const)),
    }
    if (!tx) this.cache.keepTree(token, snapshot)
    return snapshot
  }
}

type NodeRow = Omit<TreeNode, 'service'>

/** Each node's service (by its top-level ancestor) and the enabled nodes, from the rows as read. */
function buildSnapshot(
  rows: readonly NodeRow[],
  serviceRows: readonly { key: string; rootCode: string | null }[],
): Omit<TreeSnapshot, 'depts'> {
  const byCode = new Map(rows.map((r) => [r.code, r]))
  const ownerOfRoot = new Map<string, string>()
  for (const s of serviceRows) if (s.rootCode !== null) ownerOfRoot.set(s.rootCode, s.key)
  const serviceOf = new Map<string, string>()
  const serviceFor = (node: NodeRow): string => {
    const known = serviceOf.get(node.code)
    if (known !== undefined) return known
    // up to the top (a cycle, which the tree calls refuse, stops where it closes)
    const path: NodeRow[] = []
    const seen = new Set<string>()
    let top: NodeRow = node
    for (;;) {
      path.push(top)
      seen.add(top.code)
      const parent = top.parentCode ? byCode.get(top.parentCode) : undefined
      if (!parent || seen.has(parent.code)) break
      const cached = serviceOf.get(parent.code)
      if (cached !== undefined) {
        for (const n of path) serviceOf.set(n.code, cached)
        return cached
      }
      top = parent
    }
    const service = ownerOfRoot.get(top.code) ?? AMS_SERVICE_KEY
    for (const n of path) serviceOf.set(n.code, service)
    return service
  }
  const stored = new Map<string, TreeNode>()
  const enabled = new Map<string, TreeNode>()
  const isEnabled = (node: NodeRow, seen = new Set<string>()): boolean => {
    if (node.status !== 1 || seen.has(node.code)) return false
    if (!node.parentCode) return true
    const parent = byCode.get(node.parentCode)
    seen.add(node.code)
    return !!parent && isEnabled(parent, seen)
  }
  for (const row of rows) {
    const node = { ...row, service: serviceFor(row) }
    stored.set(node.code, node)
    if (isEnabled(row)) enabled.set(node.code, node)
  }
  return {
    stored,
    enabled,
    serviceOf,
    services: new Map(serviceRows.map((s) => [s.key, s.rootCode])),
  }
}
