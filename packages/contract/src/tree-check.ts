/**
 * Check rules of the role forms' permission tree (SPEC.md §2): checking a node also checks
 * all its ancestors; unchecking a node unchecks its descendants. On top of SPEC's rules the
 * administrator may choose that checking a node checks its whole subtree too (`withSubtree`), and
 * nodes the caller may not grant (`locked`) are never changed by a check, a cascade or 全选/全不选.
 * Whatever the sequence, a checked node's ancestors stay checked (the tree property).
 */
export interface CodeNode {
  code: string
  children?: CodeNode[] | null
}

export interface TreeIndex {
  parentOf: Map<string, string | null>
  childrenOf: Map<string, string[]>
}

export function indexTree(nodes: readonly CodeNode[]): TreeIndex {
  const parentOf = new Map<string, string | null>()
  const childrenOf = new Map<string, string[]>()
  const walk = (list: readonly CodeNode[], parent: string | null) => {
    for (const node of list) {
      parentOf.set(node.code, parent)
      childrenOf.set(
        node.code,
        (node.children ?? []).map((c) => c.code),
      )
      walk(node.children ?? [], node.code)
    }
  }
  walk(nodes, null)
  return { parentOf, childrenOf }
}

export function ancestorsOf(index: TreeIndex, code: string): string[] {
  const out: string[] = []
  let parent = index.parentOf.get(code) ?? null
  while (parent !== null) {
    out.push(parent)
    parent = index.parentOf.get(parent) ?? null
  }
  return out
}

export function descendantsOf(index: TreeIndex, code: string): string[] {
  const out: string[] = []
  const stack = [...(index.childrenOf.get(code) ?? [])]
  while (stack.length) {
    const next = stack.pop()!
    out.push(next)
    stack.push(...(index.childrenOf.get(next) ?? []))
  }
  return out
}

export interface ToggleOptions {
  /** Checking a node checks its whole subtree too (its locked nodes excepted). */
  withSubtree?: boolean
  /** Nodes that no toggle may change: see lockedCodes. */
  locked?: ReadonlySet<string>
}

const toIndex = (tree: readonly CodeNode[] | TreeIndex): TreeIndex =>
  Array.isArray(tree) ? indexTree(tree as CodeNode[]) : (tree as TreeIndex)

/**
 * The nodes a caller cannot check or uncheck: those they may not grant, and every node below one
 * (checking it would check that ancestor too, by SPEC's rule, so it cannot be granted either).
 */
export function lockedCodes(
  tree: readonly CodeNode[] | TreeIndex,
  notGrantable: Iterable<string>,
): Set<string> {
  const index = toIndex(tree)
  const locked = new Set<string>()
  for (const code of notGrantable) {
    if (!index.parentOf.has(code) || locked.has(code)) continue
    locked.add(code)
    for (const d of descendantsOf(index, code)) locked.add(d)
  }
  return locked
}

/**
 * The checked set after the user checks (`checked=true`) or unchecks a node. A locked node does
 * not change. Unchecking takes the whole subtree, locked nodes included, so that no checked node
 * is left under an unchecked one (the server then refuses the save if that took what the caller
 * may not grant).
 */
export function toggleCheck(
  tree: readonly CodeNode[] | TreeIndex,
  checkedCodes: readonly string[],
  code: string,
  checked: boolean,
  options: ToggleOptions = {},
): string[] {
  const index = toIndex(tree)
  const locked = options.locked ?? new Set<string>()
  if (locked.has(code)) return [...checkedCodes]
  const result = new Set(checkedCodes)
  if (checked) {
    result.add(code)
    // a node's ancestors are never locked when it is not (lockedCodes locks whole subtrees)
    for (const a of ancestorsOf(index, code)) result.add(a)
    if (options.withSubtree) for (const d of descendantsOf(index, code)) if (!locked.has(d)) result.add(d)
  } else {
    result.delete(code)
    for (const d of descendantsOf(index, code)) result.delete(d)
  }
  return [...result]
}

/** 全选: every node the caller may grant is checked; locked nodes keep their state. */
export function checkAll(
  tree: readonly CodeNode[] | TreeIndex,
  checkedCodes: readonly string[],
  locked: ReadonlySet<string> = new Set(),
): string[] {
  const index = toIndex(tree)
  const result = new Set(checkedCodes)
  for (const code of index.parentOf.keys()) if (!locked.has(code)) result.add(code)
  return [...result]
}

/**
 * 全不选: every node the caller may grant is unchecked, except the ancestors of a locked node
 * that stays checked (a checked node keeps its ancestors checked).
 */
export function uncheckAll(
  tree: readonly CodeNode[] | TreeIndex,
  checkedCodes: readonly string[],
  locked: ReadonlySet<string> = new Set(),
): string[] {
  const index = toIndex(tree)
  const result = new Set<string>()
  for (const code of checkedCodes) {
    if (!locked.has(code) || !index.parentOf.has(code)) continue
    result.add(code)
    for (const a of ancestorsOf(index, code)) result.add(a)
  }
  return [...result]
}
