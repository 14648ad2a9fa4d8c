import type { DataScope, DeptTree } from './data-scope'

/** A top department of a scope: in the scope while its parent is not; `withSubtree` when all below it is in too. */
export interface ScopeRoot {
  id: number
  withSubtree: boolean
}

/**
 * The tops of a scope's departments, as a scoped administrator's 管理范围 line names them
 * (研发中心（含下级）), in ascending id order. A department counts as a top when its parent is outside
 * the scope; `withSubtree` says whether everything below it is in the scope as well.
 */
export function scopeRoots(scope: DataScope, tree: DeptTree): ScopeRoot[] {
  const inScope = new Set(scope.orgIds)
  const wholeBelow = (root: number): boolean => {
    const stack = [...(tree.children.get(root) ?? [])]
    while (stack.length) {
      const id = stack.pop()!
      if (!inScope.has(id)) return false
      stack.push(...(tree.children.get(id) ?? []))
    }
    return true
  }
  return scope.orgIds
    .filter((id) => {
      const parent = tree.parents.get(id)
      return parent === null || parent === undefined || !inScope.has(parent)
    })
    .map((id) => ({ id, withSubtree: (tree.children.get(id)?.length ?? 0) > 0 && wholeBelow(id) }))
}

/** The 管理范围 line's text: 研发中心（含下级）、销售部 … and 本人 for a scope of one's own records. */
export function scopeLineText(
  roots: readonly { name: string; withSubtree: boolean }[],
  self: boolean,
): string {
  const parts = roots.map((r) => (r.withSubtree ? `${r.name}（含下级）` : r.name))
  if (self) parts.push('本人')
  return parts.length ? parts.join('、') : '无'
}
