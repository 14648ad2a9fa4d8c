import type { DataNode } from 'antd/es/tree'
import { useCallback, useState } from 'react'
import { routes } from '@amg/contract'
import { OrgLevelTree } from '../../components/org-level-tree'
import {
  NodeActionsButton,
  NodeActionsMenu,
  NodeRow,
  useAllowedActions,
  type ActionsMenuState,
  type TreeActionCalls,
} from '../../components/tree-actions'
import type { OrgNode } from './api'
import { outOfScope } from '../../components/org-levels'

/** Height of the tree's virtual list: only the rows in view are rendered (thousands of departments). */
export const ORG_TREE_HEIGHT = 560

export type OrgMenuAction = 'edit' | 'addChild' | 'delete'

/** The department tree's node actions and the calls each makes (shown only to who may make them). */
export const ORG_TREE_ACTIONS: TreeActionCalls = {
  edit: [routes.org.detail, routes.org.update],
  addChild: [routes.org.insert],
  delete: [routes.org.delete],
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

  const titleRender = (byId: ReadonlyMap<number, OrgNode>) => (data: DataNode) => {
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
      <OrgLevelTree
        storageKey="org"
        selectedId={selectedId}
        height={height}
        searchBox="search"
        warnMany
        treeProps={({ byId }) => ({
          blockNode: true,
          showLine: true,
          onSelect: (_keys, info) => {
            const node = byId.get(Number(info.node.key))
            if (node && !isRoot(node) && !outOfScope(node)) onAction('edit', node)
          },
          titleRender: titleRender(byId),
          onRightClick: ({ event, node }) => {
            event.preventDefault()
            const org = byId.get(Number(node.key))
            if (org && menuItems(org).length) setMenu({ x: event.clientX, y: event.clientY, node: org })
          },
        })}
      />
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
