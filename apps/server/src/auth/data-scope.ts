import {
  ALL_DATA,
  dataScopeOf,
  formatScopeHeader,
  matchesUrlPattern,
  type DataScope,
  type DeptTree,
  type RoleScope,
  type UrlPattern,
} from '@amg/contract'

/**
 * The data scope of a call (DESIGN.md §13), from what the authorizer holds in memory for a user. Named
 * with "scope" words: "reach" (auth/reach.ts) is which roles a user holds, a different question.
 */

/** One of the user's enabled roles as the scope reads it: its scope and its live back-end patterns per service. */
export interface ScopedRole extends RoleScope {
  id: number
  roleName: string
  /** back-end patterns of the role's enabled nodes, by service key */
  patterns: ReadonlyMap<string, readonly UrlPattern[]>
}

/** What the scope needs of a user's resolved access; kept in the access cache with it and dropped with it. */
export interface ScopeHolding {
  superAdmin: boolean
  /** the user's enabled ordinary and built-in roles (super-admin roles pass everything: all data) */
  scopedRoles: readonly ScopedRole[]
  /** departments of the user's enabled positions */
  ownOrgIds: readonly number[]
  /** the department tree read with the access (the same snapshot the access was resolved against) */
  depts: DeptTree
  /** scopes already computed, by the ids of the roles allowing the call: bounded by the user's role combinations */
  scopeMemo: Map<string, ScopeEntry>
  /** the entry of each call asked lately (service, method, path), so a warm call matches no pattern; bounded */
  callMemo?: Map<string, ScopeEntry>
}

interface ScopeEntry {
  scope: DataScope
  header?: string
}

/** Calls remembered per user before the call memo starts afresh (paths with ids in them are endless). */
const CALLS_REMEMBERED = 512

/** The roles of the user's that allow the call in `service`'s namespace. */
export function rolesAllowing(
  held: ScopeHolding,
  service: string,
  method: string,
  path: string,
): ScopedRole[] {
  return held.scopedRoles.filter((r) =>
    r.patterns.get(service)?.some((p) => matchesUrlPattern(p, method, path)),
  )
}

function memoFor(held: ScopeHolding, roles: readonly ScopedRole[]): ScopeEntry {
  const key = roles.map((r) => r.id).join(',')
  let entry = held.scopeMemo.get(key)
  if (!entry) {
    entry = { scope: dataScopeOf(roles, held.ownOrgIds, held.depts) }
    held.scopeMemo.set(key, entry)
  }
  return entry
}

/** The entry of an allowed call, from the call memo when it was asked lately. */
function entryOf(held: ScopeHolding, service: string, method: string, path: string): ScopeEntry {
  const key = `${service} ${method} ${path}`
  held.callMemo ??= new Map()
  let entry = held.callMemo.get(key)
  if (!entry) {
    entry = memoFor(held, rolesAllowing(held, service, method, path))
    if (held.callMemo.size >= CALLS_REMEMBERED) held.callMemo.clear()
    held.callMemo.set(key, entry)
  }
  return entry
}

/**
 * The scope of an allowed call: all for a super admin, else the union over the roles allowing it.
 * Call it only when the call is allowed (the authorizer decides that first).
 */
export function scopeOfCall(held: ScopeHolding, service: string, method: string, path: string): DataScope {
  if (held.superAdmin) return { ...ALL_DATA, orgIds: [] }
  return entryOf(held, service, method, path).scope
}

/** The X-Auth-Data-Scope value of an allowed call (contract scope-header.ts), kept with its scope. */
export function scopeHeaderOfCall(held: ScopeHolding, service: string, method: string, path: string): string {
  if (held.superAdmin) return 'all'
  const entry = entryOf(held, service, method, path)
  entry.header ??= formatScopeHeader(entry.scope, held.depts)
  return entry.header
}

/** Each allowing role's own part of the scope (explain). */
export function scopePartsOfCall(
  held: ScopeHolding,
  service: string,
  method: string,
  path: string,
): { roleId: number; dataScope: number; scope: DataScope }[] {
  return rolesAllowing(held, service, method, path).map((r) => ({
    roleId: r.id,
    dataScope: r.dataScope,
    scope: dataScopeOf([r], held.ownOrgIds, held.depts),
  }))
}
