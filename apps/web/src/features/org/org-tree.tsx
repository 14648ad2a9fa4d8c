import { useQuery } from '@tanstack/react-query'
import { Empty, Input, Spin, Tree, Typography, type GetRef } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useCallback, useEffect, useMemo, useRef, useState, type Key } from 'react'
import { ORG_SEARCH_LIMIT, routes } from '@amg/contract'
import {
  NodeActionsButton,
  NodeActionsMenu,
  NodeRow,
  useAllowedActions,
  type ActionsMenuState,
  type TreeActionCalls,
} from '../../components/tree-actions'
import { useTreeExpansion } from '../../components/tree-expansion'
import { fetchOrgPath, orgPathKey, orgSearchKey, searchOrgs, type OrgNode } from './api'
import { indexLoaded, outOfScope, searchTree, toDataNodes, useOrgLevels } from '../../components/org-levels'

/** Height of the tree's virtual list: only the rows in view are rendered (thousands of departments). */
export const ORG_TREE_HEIGHT = 560

/** The search asks the server once typing pauses this long. */
const SEARCH_DELAY_MS = 300

export type OrgMenuAction = 'edit' | 'addChild' | 'delete'

/** The department tree's node actions and the calls each makes (shown only to who may make them). */
export const ORG_TREE_ACTIONS: TreeActionCalls = {
  edit: [routes.org.detail, routes.org.update],
  addChild: [routes.org.insert],
  delete: [routes.org.delete],
}

const ORG_FIELDS = { key: 'id', children: 'children', label: 'organizationName' }

/** `value`, once it has stayed the same for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/**
 * The department tree of the department screen (SPEC.md §2), read level by level: the roots first,
 * a department's children as it is opened, the open departments remembered in this browser. The
 * search asks the server and shows each hit under its path. Each department's actions — edit, add
 * child and delete; the root (a department without parent) offers only add child — are on a right
 * click or its "⋯" button.
 */
export function OrgTree({
  selectedId,
  onAction,
  height = ORG_TREE_HEIGHT,
}: {
  selectedId?: number
  onAction: (action: OrgMenuAction, node: OrgNode) => void
  /** the virtual list's height (a phone keeps room for the form below) */
  height?: number
}) {
  const [search, setSearch] = useState('')
  const typed = search.trim()
  const text = useDebounced(typed, SEARCH_DELAY_MS)
  const searching = typed !== ''

  // The open departments: remembered, and kept though a folded branch hides them (lazy).
  const [loadedTree, setLoadedTree] = useState<readonly OrgNode[]>([])
  const expansion = useTreeExpansion({
    storageKey: 'org',
    data: loadedTree as never,
    fields: ORG_FIELDS,
    searchText: '',
    initially: 'roots',
    lazy: true,
  })
  const levels = useOrgLevels(expansion.expandedKeys)
  useEffect(() => setLoadedTree(levels.tree), [levels.tree])
  const loaded = useMemo(() => indexLoaded(levels.tree), [levels.tree])

  // The current department's path opens, so it is never hidden in a folded (or unloaded) branch.
  const path = useQuery({
    queryKey: orgPathKey(selectedId ?? 0),
    queryFn: () => fetchOrgPath(selectedId!),
    enabled: selectedId !== undefined,
  })
  const { expandedKeys, onExpand: rememberOpen } = expansion
  useEffect(() => {
    const hit = path.data?.[0]
    if (!hit || hit.id !== selectedId) return
    const missing = hit.path.map((step) => step.id).filter((id) => !expandedKeys.includes(id))
    if (missing.length) rememberOpen([...expandedKeys, ...missing])
  }, [path.data, selectedId, expandedKeys, rememberOpen])

  // …and the tree scrolls to it once it is loaded (a link to a department deep in a long list)
  const treeRef = useRef<GetRef<typeof Tree>>(null)
  const scrolledTo = useRef<number | undefined>(undefined)
  useEffect(() => {
    if (searching || selectedId === undefined || scrolledTo.current === selectedId) return
    if (!loaded.has(selectedId)) return
    scrolledTo.current = selectedId
    // after the virtual list has laid out the rows just loaded
    const frame = requestAnimationFrame(() => treeRef.current?.scrollTo({ key: selectedId, align: 'auto' }))
    return () => cancelAnimationFrame(frame)
  }, [searching, selectedId, loaded])

  const found = useQuery({
    queryKey: orgSearchKey(text),
    queryFn: () => searchOrgs(text),
    enabled: text !== '',
  })
  const view = useMemo(() => (found.data ? searchTree(found.data) : null), [found.data])
  // What one opens or folds while searching applies to the search's view only.
  const [searchOpen, setSearchOpen] = useState<{ text: string; keys: Key[] } | null>(null)

  const treeData = useMemo(
    () => (searching ? (view?.treeData ?? []) : toDataNodes(levels.tree)),
    [searching, view, levels.tree],
  )
  const byId = searching ? (view?.byId ?? new Map<number, OrgNode>()) : loaded
  const loading = searching ? typed !== text || found.isFetching : levels.roots.isLoading

  const [menu, setMenu] = useState<ActionsMenuState<OrgNode> | null>(null)
  const closeMenu = useCallback(() => setMenu(null), [])

  const isRoot = (node: OrgNode) => node.parent === null || node.parent === undefined
  const allowed = useAllowedActions(ORG_TREE_ACTIONS)
  const menuItems = (node: OrgNode) =>
    (outOfScope(node)
      ? []
      : isRoot(node)
        ? [{ key: 'addChild', label: '新增下级' }]
        : [
            { key: 'edit', label: '编辑' },
            { key: 'addChild', label: '新增下级' },
            { key: 'delete', label: '删除', danger: true },
          ]
    ).filter((item) => allowed.has(item.key))

  const titleRender = (data: DataNode) => {
    const node = byId.get(Number(data.key))
    const name = String(data.title)
    if (!node) return name
    if (menuItems(node).length === 0) return name
    return (
      <NodeRow actions={<NodeActionsButton label={name} onOpen={(at) => setMenu({ ...at, node })} />}>
        {name}
      </NodeRow>
    )
  }

  const open = searching ? (searchOpen?.text === text ? searchOpen.keys : (view?.open ?? [])) : expandedKeys
  const many = searching && (found.data?.length ?? 0) >= ORG_SEARCH_LIMIT

  return (
    <div className="amg-org-tree" data-testid="org-tree">
      <Input.Search
        allowClear
        placeholder="输入部门名称进行过滤"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      {many ? (
        <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
          {`匹配的部门较多，只显示前 ${ORG_SEARCH_LIMIT} 个，请输入更完整的名称`}
        </Typography.Text>
      ) : null}
      <Spin spinning={loading}>
        {treeData.length ? (
          <Tree
            ref={treeRef}
            blockNode
            showLine
            height={height}
            treeData={treeData}
            loadData={searching ? undefined : (node) => levels.load(node.key)}
            expandedKeys={open}
            onExpand={(keys) => (searching ? setSearchOpen({ text, keys }) : rememberOpen(keys))}
            // a node kept open inside a folded one must not unfold it, and (defaultExpandParent
            // off) the first render must not drop open keys of levels not loaded yet: antd's Tree
            // keeps only keys of nodes it holds then, and would show a remembered level folded
            autoExpandParent={false}
            defaultExpandParent={false}
            selectedKeys={selectedId !== undefined ? [selectedId] : []}
            onSelect={(_keys, info) => {
              const node = byId.get(Number(info.node.key))
              if (node && !isRoot(node) && !outOfScope(node)) onAction('edit', node)
            }}
            titleRender={titleRender}
            onRightClick={({ event, node }) => {
              event.preventDefault()
              const org = byId.get(Number(node.key))
              if (org && menuItems(org).length) setMenu({ x: event.clientX, y: event.clientY, node: org })
            }}
          />
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={loading ? '加载中' : searching ? '没有匹配的部门' : '暂无部门'}
          />
        )}
      </Spin>
      {menu ? (
        <NodeActionsMenu
          at={menu}
          items={menuItems(menu.node)}
          testId="org-context-menu"
          onClose={closeMenu}
          onChoose={(key) => onAction(key as OrgMenuAction, menu.node)}
        />
      ) : null}
    </div>
  )
}
