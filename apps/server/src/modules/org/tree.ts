import { sql } from 'drizzle-orm'
import type { OrgTreeNode } from '@amg/contract'
import { queryRows, type DbOrTx } from '../../db/connection'
import type { Caller } from '../../auth/user-scope'

/** A department as the whole tree's read hands it over: id, name, description, parent. */
type OrgRow = [number, string, string | null, number | null]

/**
 * The whole tree from the root(s): every department in one row (a JSON array, by id), the tree and
 * the complete names built in memory. Read row by row, 10,000 departments took several hundred
 * milliseconds on the embedded database, most of it spent handing each row over.
 */
export async function orgTree(db: DbOrTx): Promise<OrgTreeNode[]> {
  const [row] = await queryRows<{ rows: string | null }>(
    db,
    sql`select json_agg(json_build_array(id, organization_name, description, parent) order by id)::text as rows
        from organizations`,
  )
  const nodes = new Map<number, OrgTreeNode>()
  for (const [id, organizationName, description, parent] of JSON.parse(row?.rows ?? '[]') as OrgRow[])
    nodes.set(id, {
      id,
      organizationName,
      description,
      parent,
      organizationCompleteName: organizationName,
      childCount: 0,
      children: [],
    })
  const roots: OrgTreeNode[] = []
  for (const node of nodes.values()) {
    const parent = node.parent === null ? undefined : nodes.get(node.parent)
    if (parent) parent.children.push(node)
    else if (node.parent === null) roots.push(node)
  }
  // complete names top-down, iteratively (no recursion limit on deep trees)
  const stack = [...roots]
  while (stack.length) {
    const node = stack.pop()!
    node.childCount = node.children.length
    for (const child of node.children) {
      child.organizationCompleteName = `${node.organizationCompleteName}-${child.organizationName}`
      stack.push(child)
    }
  }
  return roots
}

/**
 * The tree as a scoped administrator sees it (DESIGN.md §13): branches holding nothing in scope are
 * dropped, and departments outside the scope that lead to ones inside stay as greyed ancestors
 * (`inScope: false`). Builds new nodes; the full tree given is left as it is.
 */
export function scopedTree(roots: readonly OrgTreeNode[], caller: Caller): OrgTreeNode[] {
  if (caller.scope.all) return [...roots]
  const inScope = new Set(caller.scope.orgIds)
  // post-order without recursion: a node is kept when it is in scope or a kept child is below it
  const kept = new Map<OrgTreeNode, OrgTreeNode>()
  const stack: { node: OrgTreeNode; done: boolean }[] = roots.map((node) => ({ node, done: false }))
  while (stack.length) {
    const top = stack.pop()!
    if (!top.done) {
      stack.push({ node: top.node, done: true })
      for (const child of top.node.children) stack.push({ node: child, done: false })
      continue
    }
    const children = top.node.children.flatMap((c) => kept.get(c) ?? [])
    const mine = inScope.has(top.node.id)
    if (!mine && children.length === 0) continue
    kept.set(top.node, {
      ...top.node,
      childCount: children.length,
      children,
      ...(mine ? {} : { inScope: false }),
    })
  }
  return roots.flatMap((r) => kept.get(r) ?? [])
}
