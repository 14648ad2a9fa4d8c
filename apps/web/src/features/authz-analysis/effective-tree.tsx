import type { AuthzEffectiveResult } from '@amg/contract'
import { Empty, Tooltip, Tree, Typography, theme } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useMemo } from 'react'
import { heldTree, type HeldNode, type TreeNodeRef } from './format'

function NodeTitle({ node }: { node: HeldNode }) {
  const { token } = theme.useToken()
  const title = (
    <span style={{ color: node.held ? undefined : token.colorTextDisabled }}>
      {node.chName}
      <Typography.Text type="secondary" style={{ marginInlineStart: 6, fontSize: token.fontSizeSM }}>
        {node.held ? node.code : '未持有'}
      </Typography.Text>
    </span>
  )
  return node.held ? <Tooltip title={`来自角色：${node.roleNames.join('、')}`}>{title}</Tooltip> : title
}

function toDataNodes(nodes: readonly HeldNode[]): DataNode[] {
  return nodes.map((node) => ({
    key: node.code,
    title: <NodeTitle node={node} />,
    children: node.children ? toDataNodes(node.children) : undefined,
  }))
}

/** The permission nodes the user holds, read-only, in the shape of the permission tree. */
export function EffectiveTree({
  tree,
  effective,
}: {
  tree: readonly TreeNodeRef[]
  effective: AuthzEffectiveResult
}) {
  const data = useMemo(() => toDataNodes(heldTree(tree, effective)), [tree, effective])
  if (!data.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该用户在所选服务中没有任何权限点" />
  return (
    <div data-testid="effective-tree" style={{ maxHeight: 480, overflow: 'auto' }}>
      <Tree selectable={false} defaultExpandAll blockNode treeData={data} />
    </div>
  )
}
