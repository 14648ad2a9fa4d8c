import { Empty, Input, Menu, Spin, Tree, theme } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useEffect, useMemo, useState } from 'react'
import { filterTree, type TreeNodeData } from '../../components'
import { useTreeExpansion } from '../../components/tree-expansion'
import type { OrgNode } from './api'

/** Height of the tree's virtual list: only the rows in view are rendered (thousands of departments). */
export const ORG_TREE_HEIGHT = 560

export type OrgMenuAction = 'edit' | 'addChild' | 'delete'

interface ContextMenuState {
  x: number
  y: number
  node: OrgNode
}

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

const ORG_FIELDS = { key: 'id', children: 'children', label: 'organizationName' }

/**
 * The department tree of the department screen (SPEC.md §2): a search box filtering by name, a
 * virtually scrolled antd Tree, and a right-click menu — edit, add child and delete; the root
 * (a department without parent) offers only add child.
 */
export function OrgTree({
  data,
  loading,
  selectedId,
  onAction,
}: {
  data: readonly OrgNode[]
  loading: boolean
  selectedId?: number
  onAction: (action: OrgMenuAction, node: OrgNode) => void
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
  const { token } = theme.useToken()

  const [menu, setMenu] = useState<ContextMenuState | null>(null)
  useEffect(() => {
    if (!menu) return
    const close = () => setMenu(null)
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close()
    // Not on 'scroll': the virtual list and tables fire scroll events by themselves when they re-render.
    window.addEventListener('mousedown', close)
    window.addEventListener('wheel', close, { passive: true })
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('mousedown', close)
      window.removeEventListener('wheel', close)
      window.removeEventListener('keydown', onKey)
    }
  }, [menu])

  const isRoot = (node: OrgNode) => node.parent === null || node.parent === undefined
  const menuItems = menu
    ? isRoot(menu.node)
      ? [{ key: 'addChild', label: '新增下级' }]
      : [
          { key: 'edit', label: '编辑' },
          { key: 'addChild', label: '新增下级' },
          { key: 'delete', label: '删除', danger: true },
        ]
    : []

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
            height={ORG_TREE_HEIGHT}
            treeData={treeData}
            {...expansion}
            selectedKeys={selectedId !== undefined ? [selectedId] : []}
            onSelect={(_keys, info) => {
              const node = byId.get(Number(info.node.key))
              if (node && !isRoot(node)) onAction('edit', node)
            }}
            onRightClick={({ event, node }) => {
              event.preventDefault()
              const org = byId.get(Number(node.key))
              if (org) setMenu({ x: event.clientX, y: event.clientY, node: org })
            }}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={loading ? '加载中' : '没有匹配的部门'} />
        )}
      </Spin>
      {menu ? (
        <div
          data-testid="org-context-menu"
          onMouseDown={(e) => e.stopPropagation()}
          style={{
            position: 'fixed',
            left: Math.min(menu.x, window.innerWidth - 140),
            top: Math.min(menu.y, window.innerHeight - 140),
            zIndex: 1050,
            boxShadow: token.boxShadowSecondary,
            borderRadius: 8,
            background: token.colorBgElevated,
          }}
        >
          <Menu
            selectable={false}
            style={{ borderRadius: 8, minWidth: 120, borderInlineEnd: 'none' }}
            items={menuItems}
            onClick={({ key }) => {
              const node = menu.node
              setMenu(null)
              onAction(key as OrgMenuAction, node)
            }}
          />
        </div>
      ) : null}
    </div>
  )
}
