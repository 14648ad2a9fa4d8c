import type { DataScope, DeptTree } from './data-scope'

/**
 * The `X-Auth-Data-Scope` header forward auth answers with (DESIGN.md §13): `all`, or comma-joined
 * tokens `self` (the user's own records), `tree:<id>` (a department and everything below it) and
 * `org:<id>` (one department alone). A whole subtree is sent as its root's `tree:` token to keep the
 * header short; when it would still be longer than 4 KB it is `too-large`, and the service asks
 * `POST /api/authz/check` with `withScope: true` instead. `none`: the call is allowed but reaches no
 * records (本部门 for a user with no position); spelled out because gateways drop an empty header,
 * and a service must read a missing header as no records too (fail closed).
 */
export const DATA_SCOPE_HEADER = 'X-Auth-Data-Scope'
export const DATA_SCOPE_HEADER_MAX = 4096
export const SCOPE_TOO_LARGE = 'too-large'
export const SCOPE_NONE = 'none'

/** The header's value for a scope, against the department tree the scope was computed from. */
export function formatScopeHeader(scope: DataScope, tree: DeptTree): string {
  if (scope.all) return 'all'
  const inScope = new Set(scope.orgIds)
  // a department's subtree is whole when it and every department below it are in scope (children first)
  const whole = new Map<number, boolean>()
  const isWhole = (root: number): boolean => {
    const known = whole.get(root)
    if (known !== undefined) return known
    // iterative post-order, so a deep tree cannot overflow the stack
    const order: number[] = []
    const stack = [root]
    const seen = new Set<number>()
    while (stack.length) {
      const id = stack.pop()!
      if (seen.has(id) || whole.has(id)) continue
      seen.add(id)
      order.push(id)
      for (const c of tree.children.get(id) ?? []) stack.push(c)
    }
    for (let i = order.length - 1; i >= 0; i--) {
      const id = order[i]
      whole.set(id, inScope.has(id) && (tree.children.get(id) ?? []).every((c) => whole.get(c) === true))
    }
    return whole.get(root)!
  }
  const tokens: string[] = scope.self ? ['self'] : []
  for (const id of scope.orgIds) {
    const parent = tree.parents.get(id) ?? null
    // covered by an ancestor's tree: token already given
    if (parent !== null && inScope.has(parent) && isWhole(parent)) continue
    tokens.push(isWhole(id) ? `tree:${id}` : `org:${id}`)
  }
  const value = tokens.join(',')
  if (value === '') return SCOPE_NONE
  return value.length > DATA_SCOPE_HEADER_MAX ? SCOPE_TOO_LARGE : value
}

/** A header value read back: `all`, or `self` and the departments named one by one and by subtree. */
export interface ParsedScopeHeader {
  all: boolean
  tooLarge: boolean
  self: boolean
  orgIds: number[]
  treeIds: number[]
}

/** Reads a header value (for services written in TypeScript, and for the tests); unknown tokens are ignored. */
export function parseScopeHeader(value: string): ParsedScopeHeader {
  const out: ParsedScopeHeader = { all: false, tooLarge: false, self: false, orgIds: [], treeIds: [] }
  const v = value.trim()
  if (v === 'all') return { ...out, all: true }
  if (v === SCOPE_TOO_LARGE) return { ...out, tooLarge: true }
  for (const raw of v.split(',')) {
    const token = raw.trim()
    if (token === 'self') out.self = true
    const m = /^(org|tree):(\d{1,10})$/.exec(token)
    if (m) (m[1] === 'org' ? out.orgIds : out.treeIds).push(Number(m[2]))
  }
  return out
}
