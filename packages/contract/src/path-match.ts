/**
 * The one path-pattern matcher (SPEC.md §5, DESIGN.md §6), used by the server's authorization hook
 * and by the console's menu and tab filters.
 *
 * - a lone `/**` matches every path;
 * - a pattern `P/**` matches `P` itself and every path under `P/`: on a segment boundary, so
 *   `/user/**` matches `/user/list` but never `/user_groups/list`;
 * - any other pattern must equal the path exactly.
 */
export function matchesPattern(pattern: string, path: string): boolean {
  const p = pattern.trim()
  if (p === '/**') return true
  if (p.endsWith('/**')) {
    const prefix = p.slice(0, -3)
    return path === prefix || path.startsWith(`${prefix}/`)
  }
  return p === path
}

/** True when any of the allowed patterns matches the path. */
export function isPathAllowed(allowed: readonly string[], path: string): boolean {
  return allowed.some((pattern) => matchesPattern(pattern, path))
}

export interface UrlPattern {
  method: string
  uri: string
}

/** A back-end pattern matches a call when the method agrees (`*` or `ALL` is any) and the uri matches. */
export function matchesUrlPattern(pattern: UrlPattern, method: string, path: string): boolean {
  const m = pattern.method.toUpperCase()
  const methodOk = m === '*' || m === 'ALL' || m === method.toUpperCase()
  return methodOk && matchesPattern(pattern.uri, path)
}

/** Depth-first search through a tree of nodes with `children` (SPEC.md §5: children are searched recursively). */
export function findInTree<T extends { children?: T[] | null }>(
  nodes: readonly T[],
  predicate: (node: T) => boolean,
): T | undefined {
  for (const node of nodes) {
    if (predicate(node)) return node
    const found = node.children ? findInTree(node.children, predicate) : undefined
    if (found) return found
  }
  return undefined
}
