import { AMS_SERVICE_KEY, matchesUrlPattern, type DataScope } from '@amg/contract'
import type { Database, Db, DbOrTx } from '../db/connection'
import { scopeHeaderOfCall, scopeOfCall, scopePartsOfCall } from './data-scope'
import { AccessCache } from '../cache/access-cache'
import type { CacheHost } from '../cache/watched-cache'
import { readPermissionTree, type TreeNode, type TreeSnapshot } from './permission-tree'
import { loadAccess, type EffectiveAccess } from './access-load'
import { DeptTreeCache, NO_DEPARTMENTS } from './dept-tree-cache'
import { nodesAllowing } from './allowing-nodes'

export { serviceUnder, type TreeNode, type TreeSnapshot } from './permission-tree'
export type { EffectiveAccess } from './access-load'

/** Whether an access lets its holder make a call on `service` (the one rule every check here uses). */
export const accessAllows = (access: EffectiveAccess, service: string, method: string, path: string) => {
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
  private readonly depts: DeptTreeCache

  constructor(
    private readonly db: Db,
    private readonly database: Pick<Database, 'notify'> & CacheHost['database'],
    changes?: CacheHost['changes'],
  ) {
    this.cache = new AccessCache({ database, changes })
    this.depts = new DeptTreeCache(db, { database, changes })
  }

  /** Drop every cached answer here at once, then tell the other instances (scripts and tests that bypass the triggers). */
  async invalidate(): Promise<void> {
    this.cache.clear()
    this.depts.clear()
    await this.database.notify('authz')
  }

  /**
   * The user's access when it is held here and still true: an access whose scopes were worked out on
   * the department tree holds that tree, and a change of departments (the 'org' family) drops the
   * tree, so such an access goes with it; the rest (a super admin's, say) stays. An access holding a
   * time-bound link is held until the link's expiry only. Departments change
   * often and alone, and they no longer drop every access and the permission tree with them.
   */
  private held(userId: number): EffectiveAccess | undefined {
    const access = this.cache.access(userId)
    if (access === undefined) return undefined
    // a time-bound link ran out (DESIGN.md §20): the access is re-resolved from this instant on
    if (access.expiresAt !== null && Date.now() >= access.expiresAt) return undefined
    if (access.depts === NO_DEPARTMENTS) return access
    return access.depts === this.depts.held() ? access : undefined
  }

  /** Whether this user's answer is cached here (tests show what clears it and what does not). */
  isCached(userId: number): boolean {
    return this.held(userId) !== undefined
  }

  /** `resolve` answered at once from what is held here; undefined when only a load can tell. */
  accessFromMemory(userId: number): EffectiveAccess | undefined {
    return this.held(userId)
  }

  /**
   * What the user may do. `tx`: resolve inside an open transaction (a power check), reading what it
   * sees without storing the answer, since that transaction may still roll back.
   */
  async resolve(userId: number, tx?: DbOrTx): Promise<EffectiveAccess> {
    const cached = this.held(userId)
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
    return accessAllows(await this.resolve(userId), service, method, path)
  }

  /** `can` answered at once from what is held here; undefined when the user's access is not held. */
  canFromMemory(
    userId: number,
    method: string,
    path: string,
    service: string = AMS_SERVICE_KEY,
  ): boolean | undefined {
    const access = this.held(userId)
    return access === undefined ? undefined : accessAllows(access, service, method, path)
  }

  /**
   * `scopeOf` answered at once from what is held here: undefined when the user's access is not held,
   * null when the call is refused.
   */
  scopeFromMemory(
    userId: number,
    method: string,
    path: string,
    service: string = AMS_SERVICE_KEY,
  ): DataScope | null | undefined {
    const access = this.held(userId)
    if (access === undefined) return undefined
    return accessAllows(access, service, method, path) ? scopeOfCall(access, service, method, path) : null
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
    return accessAllows(access, service, method, path) ? scopeOfCall(access, service, method, path) : null
  }

  /** The X-Auth-Data-Scope value of a call (contract scope-header.ts); null when the call is refused. */
  async scopeHeaderOf(
    userId: number,
    method: string,
    path: string,
    service: string = AMS_SERVICE_KEY,
  ): Promise<string | null> {
    const access = await this.resolve(userId)
    return accessAllows(access, service, method, path)
      ? scopeHeaderOfCall(access, service, method, path)
      : null
  }

  /** `scopeHeaderOf` answered at once: undefined when the user's access is not held, null when refused. */
  scopeHeaderFromMemory(
    userId: number,
    method: string,
    path: string,
    service: string = AMS_SERVICE_KEY,
  ): string | null | undefined {
    const access = this.held(userId)
    if (access === undefined) return undefined
    return accessAllows(access, service, method, path)
      ? scopeHeaderOfCall(access, service, method, path)
      : null
  }

  /** Each allowing role's own part of a call's scope (explain); empty for a super admin or a refused call. */
  async scopeParts(userId: number, method: string, path: string, service: string = AMS_SERVICE_KEY) {
    const access = await this.resolve(userId)
    return accessAllows(access, service, method, path) ? scopePartsOfCall(access, service, method, path) : []
  }

  /** Whether a service with this key exists. */
  async hasService(key: string): Promise<boolean> {
    return (await this.loadTree()).services.has(key)
  }

  /** `hasService` answered at once from what is held here; undefined when the tree is not held. */
  hasServiceFromMemory(key: string): boolean | undefined {
    return this.cache.tree()?.services.has(key)
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
    const snapshot = await readPermissionTree(tx ?? this.db)
    if (!tx) this.cache.keepTree(token, snapshot)
    return snapshot
  }

  /** Where allowed decisions of users' own calls are recorded as use (DESIGN.md §21: auth/usage.ts). */
  usage: { record(userId: number, service: string, method: string, path: string): void } | undefined

  /** An allowed decision made for the user's own call: the nodes that allowed it count as used. */
  used(userId: number, method: string, path: string, service: string = AMS_SERVICE_KEY): void {
    this.usage?.record(userId, service, method, path)
  }

  /** The codes of the nodes allowing an allowed call, from memory; undefined when the access is not held. */
  nodesAllowingFromMemory(userId: number, service: string, method: string, path: string) {
    const access = this.held(userId)
    const tree = this.cache.tree()
    return access && tree ? nodesAllowing(access, tree, service, method, path) : undefined
  }

  /** What the user may do, read from `db` (the app's, or a transaction's). */
  private async load(userId: number, db: DbOrTx): Promise<EffectiveAccess> {
    const inTx = db === this.db ? undefined : db
    const snapshot = await this.loadTree(inTx)
    return loadAccess(db, userId, snapshot, () => this.depts.get(inTx))
  }
}
