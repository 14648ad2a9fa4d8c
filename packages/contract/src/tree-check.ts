/**
 * Check rules of the role forms' permission tree (SPEC.md §2): checking a node also checks
 * all its ancestors; unchecking a node unchecks its descendants.
 */
export interface CodeNode {
  code: string
  children?: CodeNode[] | null
}

interface TreeIndex {
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

/** The checked set after the user checks (`checked=true`) or unchecks a node. */
export function toggleCheck(
  tree: readonly CodeNode[] | TreeIndex,
  checkedCodes: readonly string[],
  code: string,
  checked: boolean,
): string[] {
  const index = Array.isArray(tree) ? indexTree(tree as CodeNode[]) : (tree as TreeIndex)
  const result = new Set(checkedCodes)
  if (checked) {
    result.add(code)
    for (const a of ancestorsOf(index, code)) result.add(a)
  } else {
    result.delete(code)
    for (const d of descendantsOf(index, code)) result.delete(d)
  }
  return [...result]
}
