import { Empty, Input, Spin, Tree } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useMemo, useState, type Key } from 'react'
import type { OrgLevelNode, OrgSearchHit } from '@amg/contract'
import { outOfScope } from './org-levels'
import { ORG_SEARCH_DELAY_MS, useDebounced, useOrgPickerLevels, useOrgSearch } from './org-picker-levels'

/** Virtual list height: only rows in view are rendered, so thousands of departments stay responsive. */
const TREE_HEIGHT = 360

/** Loaded levels as tree nodes: a department without children is a leaf, others open on demand. */
function levelNodes(
  nodes: readonly OrgLevelNode[],
  childrenOf: ReadonlyMap<number, readonly OrgLevelNode[]>,
  disabled: boolean,
): DataNode[] {
  return nodes.map((node) => {
    const kids = node.hasChildren ? childrenOf.get(node.id) : undefined
    return {
      key: node.id,
      title: node.organizationName,
      disabled: disabled || outOfScope(node),
      isLeaf: !node.hasChildren,
      children: kids ? levelNodes(kids, childrenOf, disabled) : undefined,
    }
  })
}

/** A search's view: each hit under its path from the root (shared paths once), every path open. */
function searchNodes(hits: readonly OrgSearchHit[], disabled: boolean) {
  const byId = new Map<number, DataNode>()
  const roots: DataNode[] = []
  const place = (id: number, title: string, parent: number | null, inScope?: boolean) => {
    if (byId.has(id)) return
    const made: DataNode = { key: id, title, disabled: disabled || inScope === false, isLeaf: true }
    byId.set(id, made)
    const above = parent === null ? undefined : byId.get(parent)
    if (above) {
      above.isLeaf = false
      ;(above.children ??= []).push(made)
    } else roots.push(made)
  }
  for (const hit of hits) {
    hit.path.forEach((step, i) =>
      place(step.id, step.organizationName, i ? hit.path[i - 1].id : null, step.inScope),
    )
    place(hit.id, hit.organizationName, hit.path.at(-1)?.id ?? null, hit.inScope)
  }
  const open = [...byId.values()].filter((n) => n.children?.length).map((n) => n.key)
  return { treeData: roots, open }
}

/**
 * A department check-tree (the job title form's departments, a role's 自定义部门): a checkbox per
 * department, each one independent (checking a department names that department only), a name filter that asks the
 * server, and virtual scrolling. It reads the tree level by level (the roots open, a department's
 * children as it is opened). `disabled` makes every node read-only (the view screen).
 */
export function OrgCheckTree({
  value = [],
  onChange,
  disabled = false,
  testId = 'station-org-tree',
}: {
  value?: number[]
  onChange?: (orgIds: number[]) => void
  disabled?: boolean
  testId?: string
}) {
  const [search, setSearch] = useState('')
  const typed = search.trim()
  const text = useDebounced(typed, ORG_SEARCH_DELAY_MS)
  const searching = typed !== ''
  const found = useOrgSearch(text)

  const [expanded, setExpanded] = useState<Key[] | null>(null)
  const openIds = useMemo(() => (expanded ?? []).map(Number), [expanded])
  const levels = useOrgPickerLevels(openIds)
  const view = useMemo(
    () => (text && found.data ? searchNodes(found.data, disabled) : null),
    [text, found.data, disabled],
  )
  const treeData = useMemo(
    () => (searching ? (view?.treeData ?? []) : levelNodes(levels.roots, levels.childrenOf, disabled)),
    [searching, view, levels.roots, levels.childrenOf, disabled],
  )
  // the roots start open
  const expandedKeys = searching ? (view?.open ?? []) : (expanded ?? levels.roots.map((r) => r.id))
  const loading = searching ? typed !== text || found.isFetching : levels.loading

  return (
    <div data-testid={testId} style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}>
      <Input
        allowClear
        size="small"
        placeholder="输入部门名称进行过滤"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      <Spin spinning={loading}>
        {treeData.length ? (
          <Tree
            checkable
            checkStrictly
            selectable={false}
            height={TREE_HEIGHT}
            treeData={treeData}
            loadData={searching ? undefined : (node) => levels.load(Number(node.key))}
            expandedKeys={expandedKeys}
            // open keys of levels not loaded yet are kept (see the department screen's tree)
            autoExpandParent={false}
            defaultExpandParent={false}
            onExpand={(keys) => {
              if (!searching) setExpanded(keys)
            }}
            checkedKeys={{ checked: value, halfChecked: [] }}
            onCheck={(keys) => {
              if (disabled) return
              const checked = Array.isArray(keys) ? keys : keys.checked
              onChange?.(checked.map(Number))
            }}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={loading ? '加载中' : '没有匹配的部门'} />
        )}
      </Spin>
    </div>
  )
}
