import { useCallback, useEffect, useMemo, useState, type Key } from 'react'
import type { TreeNodeData } from './tree'

export interface TreeFields {
  key: string
  children: string
  label: string
}

/** Every node's parent key (undefined for a root), and which nodes have children. */
export function indexTree(nodes: readonly TreeNodeData[], fields: TreeFields) {
  const parentOf = new Map<Key, Key | undefined>()
  const parents: Key[] = []
  const walk = (list: readonly TreeNodeData[], parent: Key | undefined) => {
    for (const node of list) {
      const key = node[fields.key] as Key
      parentOf.set(key, parent)
      const kids = node[fields.children]
      if (Array.isArray(kids) && kids.length) {
        parents.push(key)
        walk(kids as TreeNodeData[], key)
      }
    }
  }
  walk(nodes, undefined)
  return { parentOf, parents, roots: nodes.map((n) => n[fields.key] as Key) }
}

/** The keys from the node's parent up to its root. */
export function ancestorKeys(parentOf: Map<Key, Key | undefined>, key: Key): Key[] {
  const out: Key[] = []
  for (let p = parentOf.get(key); p !== undefined && !out.includes(p); p = parentOf.get(p)) out.push(p)
  return out
}

/**
 * What a search opens: the path to each hit (every ancestor of a node whose label, or filter
 * property, contains the text). The hits themselves stay folded: the search shows where they are.
 */
export function hitPathKeys(
  nodes: readonly TreeNodeData[],
  text: string,
  fields: TreeFields,
  filterProp?: string,
): Key[] {
  if (!text) return []
  const { parentOf } = indexTree(nodes, fields)
  const field = filterProp ?? fields.label
  const open = new Set<Key>()
  const walk = (list: readonly TreeNodeData[]) => {
    for (const node of list) {
      const value = node[field]
      if (value !== undefined && value !== null && String(value).includes(text))
        ancestorKeys(parentOf, node[fields.key] as Key).forEach((k) => open.add(k))
      const kids = node[fields.children]
      if (Array.isArray(kids)) walk(kids as TreeNodeData[])
    }
  }
  walk(nodes)
  return [...open]
}

const STORAGE_PREFIX = 'amg.tree.'

function readKeys(name: string): Key[] | null {
  try {
    const value = JSON.parse(window.localStorage.getItem(STORAGE_PREFIX + name) ?? 'null') as unknown
    return Array.isArray(value) ? value.filter((k) => typeof k === 'string' || typeof k === 'number') : null
  } catch {
    return null
  }
}

function writeKeys(name: string, keys: Key[]) {
  try {
    window.localStorage.setItem(STORAGE_PREFIX + name, JSON.stringify(keys))
  } catch {
    // storage unavailable (private mode): the tree then remembers for this page only
  }
}

export interface TreeExpansionOptions {
  /** Names the tree in local storage: each browser reopens what its administrator had open. */
  storageKey: string
  data: readonly TreeNodeData[]
  fields: TreeFields
  filterProp?: string
  /** The filter text: while it is set, the paths to its hits are open instead. */
  searchText: string
  /** What is open before this browser has opened or folded anything: every parent, or the roots. */
  initially: 'all' | 'roots'
  /** The screen's current node: its path opens, so it is never hidden in a folded branch. */
  selectedKey?: Key
  /**
   * A tree loaded level by level: the open keys are kept though their nodes are not loaded yet (a
   * node inside a folded branch), the last MAX_LAZY_KEYS of them.
   */
  lazy?: boolean
}

/** How many open keys a lazily loaded tree remembers (deleted nodes' keys then drop out in time). */
const MAX_LAZY_KEYS = 500

/**
 * Which nodes of a tree are open, remembered per browser (local storage) so that a reload reopens
 * them. A search shows the paths to its hits without forgetting what was open before it.
 */
export function useTreeExpansion(o: TreeExpansionOptions) {
  const { storageKey, data, fields, filterProp, searchText, initially, selectedKey, lazy } = o
  const index = useMemo(() => indexTree(data, fields), [data, fields])
  const [remembered, setRemembered] = useState<Key[] | null>(() => readKeys(storageKey))
  const base = useMemo(
    () => remembered ?? (initially === 'all' ? index.parents : index.roots),
    [remembered, initially, index],
  )

  const remember = useCallback(
    (keys: Key[]) => {
      // keys of nodes deleted since are dropped, so the stored list does not grow forever; a key that
      // came back as text ('12' for 12) is matched to the node's own key
      const byText = new Map([...index.parentOf.keys()].map((k) => [String(k), k]))
      const known = lazy
        ? [...new Set(keys)].slice(-MAX_LAZY_KEYS)
        : byText.size
          ? keys.map((k) => byText.get(String(k))).filter((k): k is Key => k !== undefined)
          : keys
      setRemembered(known)
      writeKeys(storageKey, known)
    },
    [index, storageKey, lazy],
  )

  // The current node's path opens (e.g. a node just created under a folded parent).
  useEffect(() => {
    if (selectedKey === undefined || !index.parentOf.has(selectedKey)) return
    const missing = ancestorKeys(index.parentOf, selectedKey).filter((k) => !base.includes(k))
    if (missing.length) remember([...base, ...missing])
  }, [selectedKey, index, base, remember])

  // While searching, what the user opens or folds applies to the search's view only.
  const hits = useMemo(
    () => hitPathKeys(data, searchText, fields, filterProp),
    [data, searchText, fields, filterProp],
  )
  const [searchView, setSearchView] = useState<{ text: string; keys: Key[] } | null>(null)
  const searching = searchText !== ''
  const expandedKeys = searching ? (searchView?.text === searchText ? searchView.keys : hits) : base

  const onExpand = useCallback(
    (keys: Key[]) => (searching ? setSearchView({ text: searchText, keys }) : remember(keys)),
    [searching, searchText, remember],
  )
  // defaultExpandParent off: a node kept open inside a folded one must not unfold it on a reload
  return { expandedKeys, onExpand, defaultExpandParent: false, autoExpandParent: false }
}
