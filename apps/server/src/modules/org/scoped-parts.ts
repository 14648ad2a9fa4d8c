import {
  ORG_SEARCH_LIMIT,
  type OrgLevelNode,
  type OrgSearchHit,
  type OrgTreeNode,
  type OrgTreeQuery,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import type { Caller } from '../../auth/user-scope'
import { orgTree, scopedTree } from './tree'
import { askedPart } from './tree-parts'

/**
 * GET /org/tree for a scoped administrator (DESIGN.md §13): every part (the whole tree, a level, a
 * search, a path) is read from the tree cut to their scope, so departments outside it never show
 * but as the greyed ancestors (`inScope: false`) of those within it. Read afresh each time: a scoped
 * answer is one administrator's.
 */
export async function scopedPart(db: Db, query: OrgTreeQuery, caller: Caller): Promise<unknown> {
  const part = askedPart(query)
  const roots = scopedTree(await orgTree(db), caller)
  if (part.kind === 'tree') return roots

  const byId = new Map<number, OrgTreeNode>()
  const stack = [...roots]
  while (stack.length) {
    const node = stack.pop()!
    byId.set(node.id, node)
    stack.push(...node.children)
  }
  const level = (nodes: readonly OrgTreeNode[]): OrgLevelNode[] =>
    nodes.map(({ children, organizationCompleteName: _, ...node }) => ({
      ...node,
      childCount: children.length,
      hasChildren: children.length > 0,
    }))
  const withPath = (node: OrgTreeNode): OrgSearchHit => {
    const path: OrgSearchHit['path'] = []
    for (let p = node.parent === null ? undefined : byId.get(node.parent); p;) {
      // the console greys an ancestor outside the scope on a search's path too
      path.unshift({
        id: p.id,
        organizationName: p.organizationName,
        ...(p.inScope === false ? { inScope: false } : {}),
      })
      p = p.parent === null ? undefined : byId.get(p.parent)
    }
    return { ...level([node])[0], path }
  }

  switch (part.kind) {
    case 'roots':
      return level(roots)
    case 'level':
      return level(byId.get(part.parentId)?.children ?? [])
    case 'path': {
      const node = byId.get(part.id)
      return node ? [withPath(node)] : []
    }
    case 'search': {
      const text = part.text.toLowerCase()
      return [...byId.values()]
        .filter((n) => n.inScope !== false && n.organizationName.toLowerCase().includes(text))
        .sort((a, b) => a.id - b.id)
        .slice(0, ORG_SEARCH_LIMIT)
        .map(withPath)
    }
  }
}
