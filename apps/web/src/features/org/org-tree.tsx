import { Empty, Input, Spin, Tree } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useCallback, useMemo, useState } from 'react'
import { filterTree, type TreeNodeData } from '../../components'
import { routes } from '@amg/contract'
import {
  NodeActionsButton,
  NodeActionsMenu,
  NodeRow,
  useAllowedActions,
  type ActionsMenuState,
  type TreeActionCalls,
} from '../../components/tree-actions'
import { useTreeExpansion } from '../../components/tree-expansion'
import type { OrgNode } from './api'

/** Height of the tree's virtual list: only the rows in view are rendered (thousands of departments). */
export const ORG_TREE_HEIGHT = 560

export type OrgMenuAction = 'edit' | 'addChild' | 'delete'

function toDataNodes(nodes: readonly OrgNode[]): DataNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: node.organizationName,
    children: node.children?.length ? toDataNodes(node.children) : undefined,
    isLeaf: !node.children?.length,
  }))
}

function indexTree(nodes: readonly OrgNode[], byId = new Map<number, OrgNode>()) {
  for (const node of nodes) {
    byId.set(node.id, node)
    if (node.children?.length) indexTree(node.children, byId)
  }
  return byId
}

/** The department tree's node actions and the calls each makes (shown only to who may make them). */
export const ORG_TREE_ACTIONS: TreeActionCalls = {
  edit: [routes.org.detail, routes.org.update],
  addChild: [routes.org.insert],
  delete: [routes.org.delete],
}

const ORG_FIELDS = { key: 'id', children: 'children', label: 'organizationName' }

/**
 * The department tree of the department screen (SPEC.md §2): a search box filtering by name, a
 * virtually scrolled antd Tree, and each department's actions — edit, add child and delete; the root
 * (a department without parent) offers only add child — on a right click or its "⋯" button.
 */
export function OrgTree({
  data,
  loading,
  selectedId,
  onAction,
  height = ORG_TREE_HEIGHT,
}: {
  data: readonly OrgNode[]
  loading: boolean
  selectedId?: number
  onAction: (action: OrgMenuAction, node: OrgNode) => void
  /** the virtual list's height (a phone keeps room for the form below) */
  height?: number
}) {
  const [search, setSearch] = useState('')
  const text = search.trim()
  const byId = useMemo(() => indexTree(data), [data])
  const nodes = data as unknown as TreeNodeData[]
  const filtered = useMemo(
    () => filterTree(nodes, text, { label: 'organizationName' }) as unknown as OrgNode[],
    [nodes, text],
  )
  const treeData = useMemo(() => toDataNodes(filtered), [filtered])

  // Open departments are remembered in this browser (the roots at first); a search opens the path to
  // each hit; the selected department's path opens as it is chosen.
  const expansion = useTreeExpansion({
    storageKey: 'org',
    data: nodes,
    fields: ORG_FIELDS,
    searchText: text,
    initially: 'roots',
    selectedKey: selectedId,
  })

  const [menu, setMenu] = useState<ActionsMenuState<OrgNode> | null>(null)
  const closeMenu = useCallback(() => setMenu(null), [])

  const isRoot = (node: OrgNode) => node.parent === null || node.parent === undefined
  const allowed = useAllowedActions(ORG_TREE_ACTIONS)
  const menuItems = (node: OrgNode) =>
    (isRoot(node)
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

  return (
    <div className="amg-org-tree" data-testid="org-tree">
      <Input.Search
        allowClear
        placeholder="输入部门名称进行过滤"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      <Spin spinning={loading}>
        {treeData.length ? (
          <Tree
            blockNode
            showLine
            height={height}
            treeData={treeData}
            {...expansion}
            selectedKeys={selectedId !== undefined ? [selectedId] : []}
            onSelect={(_keys, info) => {
              const node = byId.get(Number(info.node.key))
              if (node && !isRoot(node)) onAction('edit', node)
            }}
            titleRender={titleRender}
            onRightClick={({ event, node }) => {
              event.preventDefault()
              const org = byId.get(Number(node.key))
              if (org && menuItems(org).length) setMenu({ x: event.clientX, y: event.clientY, node: org })
            }}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={loading ? '加载中' : '没有匹配的部门'} />
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
