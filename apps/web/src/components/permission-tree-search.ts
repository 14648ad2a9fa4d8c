/**
 * The role forms' permission tree search: a node matches when the text is part of its Chinese
 * name or of its code, without regard to case (codes are typed as `user:add` or `AUTH000012`).
 * The tree is cut down to the matches, each with its ancestors and its whole subtree (a match's
 * children are what an administrator checks next).
 */
export interface SearchableNode {
  code: string
  chName: string
  children?: SearchableNode[] | null
}

export type MatchField = 'chName' | 'code'

export function matchOf(node: SearchableNode, text: string): MatchField | null {
  if (!text) return null
  const wanted = text.toLowerCase()
  if (node.chName.toLowerCase().includes(wanted)) return 'chName'
  if (node.code.toLowerCase().includes(wanted)) return 'code'
  return null
}

export function filterPermissionTree<T extends SearchableNode>(nodes: readonly T[], text: string): T[] {
  if (!text) return [...nodes]
  const out: T[] = []
  for (const node of nodes) {
    if (matchOf(node, text)) {
      out.push(node)
      continue
    }
    const kept = filterPermissionTree((node.children ?? []) as T[], text)
    if (kept.length) out.push({ ...node, children: kept })
  }
  return out
}

/** The codes of every node with children: what 展开全部 opens. */
export function parentCodes(nodes: readonly SearchableNode[]): string[] {
  return nodes.flatMap((n) => (n.children?.length ? [n.code, ...parentCodes(n.children)] : []))
}

/** The text cut around the first occurrence of the search (case-insensitively for codes). */
export function splitAtMatch(label: string, text: string): [string, string, string] | null {
  const at = label.toLowerCase().indexOf(text.toLowerCase())
  if (!text || at < 0) return null
  return [label.slice(0, at), label.slice(at, at + text.length), label.slice(at + text.length)]
}
