import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import type { DataNode } from 'antd/es/tree'
import { useCallback, useMemo, useRef, type Key } from 'react'
import type { OrgLevelNode, OrgSearchHit } from '@amg/contract'
import { orgLevelQuery } from '../lib/org-parts'

/** A department as a tree's node actions and filters need it. */
export type OrgNode = Pick<OrgLevelNode, 'id' | 'organizationName' | 'parent' | 'inScope'>

/**
 * A department outside the caller's data scope (only a greyed ancestor of theirs, DESIGN.md §13):
 * shown disabled, it can be opened but not chosen, checked or acted on.
 */
export const outOfScope = (node: { inScope?: boolean }) => node.inScope === false

/** A department as the tree holds it: its own fields and its loaded children. */
export interface LoadedOrg extends OrgLevelNode {
  children?: LoadedOrg[]
}

const levelQuery = orgLevelQuery

const asId = (key: Key) => {
  const n = Number(key)
  return Number.isInteger(n) && n > 0 ? n : undefined
}

/**
 * The department tree read level by level: the roots, and the children of every open department
 * (open ones inside a folded branch too, so unfolding it shows them at once). `load` reads a level
 * as a department is opened (the Tree's loadData); each level is a query of its own, refreshed when
 * the tree is invalidated.
 */
export function useOrgLevels(openKeys: readonly Key[]) {
  const queryClient = useQueryClient()
  const roots = useQuery(levelQuery('roots'))
  // keyed by content, not by array identity: the open keys are recomputed as loaded levels arrive
  const openSig = openKeys.join(',')
  const openIds = useMemo(
    () => [
      ...new Set(
        openSig
          .split(',')
          .map(asId)
          .filter((id): id is number => id !== undefined),
      ),
    ],
    [openSig],
  )
  const levels = useQueries({ queries: openIds.map((id) => levelQuery(id)) })
  const levelsSig = levels.map((l) => l.dataUpdatedAt).join(',')
  const levelsRef = useRef(levels)
  levelsRef.current = levels
  const tree = useMemo(() => {
    const childrenOf = new Map<number, OrgLevelNode[]>()
    openIds.forEach((id, i) => {
      const level = levelsRef.current[i]?.data
      if (level) childrenOf.set(id, level)
    })
    const seen = new Set<number>()
    const build = (nodes: readonly OrgLevelNode[]): LoadedOrg[] =>
      nodes
        .filter((n) => !seen.has(n.id) && seen.add(n.id))
        .map((n) => {
          const kids = childrenOf.get(n.id)
          return kids && n.hasChildren ? { ...n, children: build(kids) } : { ...n }
        })
    return build(roots.data ?? [])
    // levelsSig stands for the levels' answers (read through the ref)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [roots.data, openIds, levelsSig])

  const load = useCallback(
    async (key: Key) => {
      const id = asId(key)
      if (id !== undefined) await queryClient.ensureQueryData(levelQuery(id))
    },
    [queryClient],
  )
  return { tree, roots, load }
}

/** Antd's nodes of loaded departments; a department without children is a leaf, others open on demand. */
export function toDataNodes(nodes: readonly LoadedOrg[]): DataNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: node.organizationName,
    isLeaf: !node.hasChildren,
    disabled: outOfScope(node),
    children: node.children ? toDataNodes(node.children) : undefined,
  }))
}

interface FoundOrg extends OrgNode {
  children: FoundOrg[]
}

/**
 * A search's view: each hit under its path from the root, paths shared; every department of it
 * that has found ones under it is open. Hits show as leaves: the search shows where they are.
 */
export function searchTree(hits: readonly OrgSearchHit[]) {
  const byId = new Map<number, FoundOrg>()
  const roots: FoundOrg[] = []
  const place = (node: OrgNode) => {
    const known = byId.get(node.id)
    if (known) return known
    const made: FoundOrg = {
      id: node.id,
      organizationName: node.organizationName,
      parent: node.parent,
      ...(outOfScope(node) ? { inScope: false } : {}),
      children: [],
    }
    byId.set(node.id, made)
    const parent = node.parent === null ? undefined : byId.get(node.parent)
    if (parent) parent.children.push(made)
    else roots.push(made)
    return made
  }
  for (const hit of hits) {
    hit.path.forEach((step, i) => place({ ...step, parent: i === 0 ? null : hit.path[i - 1].id }))
    place(hit)
  }
  const open: number[] = [...byId.values()].filter((n) => n.children.length).map((n) => n.id)
  const toNodes = (nodes: FoundOrg[]): DataNode[] =>
    nodes.map((n) => ({
      key: n.id,
      title: n.organizationName,
      isLeaf: !n.children.length,
      disabled: outOfScope(n),
      children: n.children.length ? toNodes(n.children) : undefined,
    }))
  return { treeData: toNodes(roots), open, byId: byId as Map<number, OrgNode> }
}

/** Every loaded department by id (the node actions need its name and parent). */
export function indexLoaded(nodes: readonly LoadedOrg[], byId = new Map<number, OrgNode>()) {
  for (const node of nodes) {
    byId.set(node.id, node)
    if (node.children) indexLoaded(node.children, byId)
  }
  return byId
}
