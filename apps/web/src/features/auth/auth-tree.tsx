import { Empty, Input, Modal, Spin } from 'antd'
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons'
import { MSG, routes } from '@amg/contract'
import { useCallback, useState, type MouseEvent } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { Tree, type TreeNodeData } from '../../components'
import {
  NodeActionsButton,
  NodeActionsMenu,
  NodeRow,
  useAllowedActions,
  type ActionsMenuState,
  type TreeActionCalls,
} from '../../components/tree-actions'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import type { AuthNode } from '../../lib/stores/auth-store'
import { useAuthTree, useDeleteAuth } from './api'
import { contextMenuPosition } from './context-menu'

const TREE_PROPS = { key: 'code', label: 'chName', children: 'children' }

const isLeafNode = (node: AuthNode) => node.isLeaf ?? !node.children?.length

/** Query strings of the nested form routes (SPEC.md §2). */
export const addChildPath = (node: AuthNode) =>
  `/authmanage/addform?${new URLSearchParams({
    parentCode: node.code,
    level: String((node.level ?? 0) + 1),
    parentChName: node.chName,
  }).toString()}`
export const editPath = (node: AuthNode) =>
  `/authmanage/editform?${new URLSearchParams({ code: node.code, isLeaf: String(isLeafNode(node)) }).toString()}`

const MENU_ITEMS = [
  { key: 'add', icon: <PlusOutlined />, label: '新增下级' },
  { key: 'edit', icon: <EditOutlined />, label: '编辑' },
  { key: 'delete', icon: <DeleteOutlined />, label: '删除', danger: true },
]

/** The permission tree's node actions and the calls each makes (shown only to who may make them). */
export const AUTH_TREE_ACTIONS: TreeActionCalls = {
  add: [routes.auth.insert],
  edit: [routes.auth.detail, routes.auth.update],
  delete: [routes.auth.delete],
}

/** The permission tree (label chName, search box) with each node's actions: right click or "⋯". */
export function AuthTree() {
  const tree = useAuthTree()
  const [menu, setMenu] = useState<ActionsMenuState<AuthNode> | null>(null)
  const [search, setSearch] = useState('')
  const [params] = useSearchParams()
  const currentCode = params.get('code')
  const navigate = useNavigate()
  const [modal, modalHolder] = Modal.useModal()
  const remove = useDeleteAuth()
  const allowed = useAllowedActions(AUTH_TREE_ACTIONS)
  const menuItems = MENU_ITEMS.filter((item) => allowed.has(item.key))

  const confirmDelete = (node: AuthNode) => {
    modal.confirm({
      title: '提示',
      content: `此操作将永久删除权限「${node.chName}」, 是否继续?`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await remove.mutateAsync(node.code)
        } catch {
          return // the HTTP layer has shown the server's message (e.g. '请先删除下级权限')
        }
        toastSuccess(MSG.deleted)
        if (currentCode === node.code) navigate('/authmanage/addform')
      },
      onCancel: () => toastInfo(MSG.cancelDelete),
    })
  }

  const closeMenu = useCallback(() => setMenu(null), [])
  const openMenu = (e: MouseEvent, node: AuthNode) => {
    e.preventDefault()
    e.stopPropagation()
    if (menuItems.length) setMenu({ node, x: e.clientX, y: e.clientY })
  }

  const renderLabel = (raw: TreeNodeData) => {
    const node = raw as unknown as AuthNode
    return (
      <NodeRow
        actions={
          menuItems.length ? (
            <NodeActionsButton label={node.chName} onOpen={(at) => setMenu({ ...at, node })} />
          ) : null
        }
      >
        <span
          className="auth-tree-node"
          data-code={node.code}
          onContextMenu={(e) => openMenu(e, node)}
          style={{ display: 'inline-block', minWidth: 80 }}
        >
          {node.chName}
        </span>
      </NodeRow>
    )
  }

  return (
    <div data-testid="auth-tree" onContextMenu={(e) => e.preventDefault()}>
      <Input
        placeholder="输入关键字进行过滤"
        allowClear
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      {tree.isLoading ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : tree.data?.length ? (
        <Tree
          // open nodes are remembered in this browser; a new node's path opens as it is selected
          rememberExpandedAs="auth"
          filterText={search}
          data={tree.data as unknown as TreeNodeData[]}
          props={TREE_PROPS}
          renderLabel={renderLabel}
          selectedKeys={currentCode ? [currentCode] : []}
          onSelect={(_key, raw) => raw && navigate(editPath(raw as unknown as AuthNode))}
        />
      ) : (
        <Empty description="暂无权限" />
      )}
      {menu ? (
        <NodeActionsMenu
          at={menu}
          items={menuItems}
          place={contextMenuPosition}
          testId="auth-context-menu"
          onClose={closeMenu}
          onChoose={(key) => {
            if (key === 'add') navigate(addChildPath(menu.node))
            else if (key === 'edit') navigate(editPath(menu.node))
            else confirmDelete(menu.node)
          }}
        />
      ) : null}
      {modalHolder}
    </div>
  )
}
