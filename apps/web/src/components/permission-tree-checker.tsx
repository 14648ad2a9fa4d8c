import { Empty, Spin, Tree as AntTree } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useQuery } from '@tanstack/react-query'
import { indexTree, routes, toggleCheck } from '@amg/contract'
import { useMemo } from 'react'
import { request } from '../lib/route-call'

/** A node of POST /auth/tree as the checker needs it: label chName, key code. */
export interface PermissionNode {
  code: string
  chName: string
  children?: PermissionNode[] | null
}

export interface PermissionTreeViewProps {
  tree: readonly PermissionNode[]
  /** The checked permission codes. */
  value?: readonly string[]
  onChange?: (codes: string[]) => void
  /** Read-only (isDisable): nothing can be checked or unchecked. */
  disabled?: boolean
  id?: string
}

function toDataNodes(nodes: readonly PermissionNode[]): DataNode[] {
  return nodes.map((node) => ({
    key: node.code,
    title: node.chName,
    children: node.children?.length ? toDataNodes(node.children) : undefined,
  }))
}

/**
 * The role forms' permission tree (SPEC.md §2) over a given tree. antd's own cascade is off
 * (checkStrictly); the check rules are the contract's toggleCheck: checking a node also checks
 * all its ancestors, unchecking a node unchecks its descendants.
 */
export function PermissionTreeView({ tree, value = [], onChange, disabled, id }: PermissionTreeViewProps) {
  const index = useMemo(() => indexTree(tree), [tree])
  const treeData = useMemo(() => toDataNodes(tree), [tree])
  if (!tree.length) return <Empty description="暂无权限" image={Empty.PRESENTED_IMAGE_SIMPLE} />
  return (
    <div id={id} data-testid="permission-tree" className="amg-permission-tree">
      <AntTree
        checkable
        checkStrictly
        selectable={false}
        defaultExpandAll
        disabled={disabled}
        treeData={treeData}
        checkedKeys={{ checked: [...value], halfChecked: [] }}
        onCheck={(_keys, info) => {
          if (disabled) return
          onChange?.(toggleCheck(index, value, String(info.node.key), info.checked))
        }}
      />
    </div>
  )
}

export const PERMISSION_TREE_QUERY_KEY = ['auth-tree'] as const

/**
 * POST /auth/tree, body {} (SPEC.md §7). The contract types a node's children loosely (unknown[]):
 * they are nodes of the same shape.
 */
export const fetchPermissionTree = async () =>
  (await request(routes.auth.tree, { body: {} })) as PermissionNode[]

export type PermissionTreeCheckerProps = Omit<PermissionTreeViewProps, 'tree'>

/** The permission tree of POST /auth/tree with checkboxes; value/onChange are permission codes. */
export function PermissionTreeChecker(props: PermissionTreeCheckerProps) {
  const tree = useQuery({ queryKey: PERMISSION_TREE_QUERY_KEY, queryFn: fetchPermissionTree })
  if (tree.isPending) return <Spin data-testid="permission-tree-loading" />
  return <PermissionTreeView {...props} tree={tree.data ?? []} />
}
