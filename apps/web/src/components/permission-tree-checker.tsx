import { Empty, Spin, theme, Tree as AntTree } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useQuery } from '@tanstack/react-query'
import { checkAll, indexTree, lockedCodes, routes, toggleCheck, uncheckAll } from '@amg/contract'
import { useMemo, useState, type Key, type ReactNode } from 'react'
import { request } from '../lib/route-call'
import { filterPermissionTree, matchOf, parentCodes, splitAtMatch } from './permission-tree-search'
import { PermissionTreeToolbar } from './permission-tree-toolbar'

/** A node of POST /auth/tree as the checker needs it: label chName, key code. */
export interface PermissionNode {
  code: string
  chName: string
  /** false: the caller may not grant it (the server marks each node for the caller). */
  grantable?: boolean
  denyReason?: string | null
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

const SUBTREE_KEY = 'amg.permission-tree.with-subtree'

/** The administrator's choice of checking with the subtree, kept per browser. */
function useWithSubtree(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => {
    try {
      return window.localStorage.getItem(SUBTREE_KEY) === '1'
    } catch {
      return false
    }
  })
  const set = (next: boolean) => {
    setOn(next)
    try {
      window.localStorage.setItem(SUBTREE_KEY, next ? '1' : '0')
    } catch {
      // storage unavailable (private mode): the choice lasts for this page only
    }
  }
  return [on, set]
}

function Highlighted({ text, search, color }: { text: string; search: string; color: string }) {
  const parts = splitAtMatch(text, search)
  if (!parts) return <>{text}</>
  return (
    <>
      {parts[0]}
      <mark className="amg-permission-hit" style={{ background: color, color: 'inherit', padding: 0 }}>
        {parts[1]}
      </mark>
      {parts[2]}
    </>
  )
}

/** The codes the caller may not check or uncheck, and the reason each shows. */
function useLocks(tree: readonly PermissionNode[], index: ReturnType<typeof indexTree>) {
  return useMemo(() => {
    // a node below one the caller may not grant is locked by it and shows that node's reason
    const refused: string[] = []
    const reasons = new Map<string, string>()
    const walk = (nodes: readonly PermissionNode[], inherited: string | null) =>
      nodes.forEach((n) => {
        if (n.grantable === false) refused.push(n.code)
        const reason = n.grantable === false ? n.denyReason || inherited : inherited
        if (reason) reasons.set(n.code, reason)
        walk(n.children ?? [], reason)
      })
    walk(tree, null)
    return { locked: lockedCodes(index, refused), reasons }
  }, [tree, index])
}

/**
 * The role forms' permission tree (SPEC.md §2) over a given tree. antd's own cascade is off
 * (checkStrictly); the check rules are the contract's toggleCheck: checking a node also checks
 * all its ancestors (and its whole subtree when the administrator chose so), unchecking a node
 * unchecks its descendants. Nodes the caller may not grant stay disabled, 全选 included.
 */
export function PermissionTreeView({ tree, value = [], onChange, disabled, id }: PermissionTreeViewProps) {
  const { token } = theme.useToken()
  const index = useMemo(() => indexTree(tree), [tree])
  const allParents = useMemo(() => parentCodes(tree), [tree])
  const { locked, reasons } = useLocks(tree, index)

  const [withSubtree, setWithSubtree] = useWithSubtree()
  const [search, setSearch] = useState('')
  const text = search.trim()
  // what the user opened; a search shows its own view and leaves this as it was
  const [expanded, setExpanded] = useState<Key[]>(allParents)
  const [searchView, setSearchView] = useState<{ text: string; keys: Key[] } | null>(null)

  const shown = useMemo(() => filterPermissionTree(tree, text), [tree, text])
  const expandedKeys = text ? (searchView?.text === text ? searchView.keys : parentCodes(shown)) : expanded
  const setExpandedKeys = (keys: Key[]) => (text ? setSearchView({ text, keys }) : setExpanded(keys))

  const treeData = useMemo(() => {
    const hit = (label: string) => <Highlighted text={label} search={text} color={token.colorWarningBorder} />
    const toDataNodes = (nodes: readonly PermissionNode[]): DataNode[] =>
      nodes.map((node) => {
        const match = matchOf(node, text)
        let title: ReactNode = match === 'chName' ? hit(node.chName) : node.chName
        // a match on the code shows the code, so the user sees why the node is there
        if (match === 'code')
          title = (
            <>
              {node.chName} <span style={{ color: token.colorTextSecondary }}>({hit(node.code)})</span>
            </>
          )
        return {
          key: node.code,
          title: <span title={reasons.get(node.code)}>{title}</span>,
          disableCheckbox: locked.has(node.code),
          children: node.children?.length ? toDataNodes(node.children) : undefined,
        }
      })
    return toDataNodes(shown)
  }, [shown, text, locked, reasons, token.colorWarningBorder, token.colorTextSecondary])

  const checkedCount = value.filter((code) => index.parentOf.has(code)).length
  const change = (codes: string[]) => {
    if (!disabled) onChange?.(codes)
  }

  if (!tree.length) return <Empty description="暂无权限" image={Empty.PRESENTED_IMAGE_SIMPLE} />
  return (
    <div id={id} data-testid="permission-tree" className="amg-permission-tree">
      <PermissionTreeToolbar
        search={search}
        onSearch={setSearch}
        readOnly={disabled}
        onCheckAll={() => change(checkAll(index, value, locked))}
        onUncheckAll={() => change(uncheckAll(index, value, locked))}
        onExpandAll={() => setExpandedKeys(text ? parentCodes(shown) : allParents)}
        onCollapseAll={() => setExpandedKeys([])}
        withSubtree={withSubtree}
        onWithSubtree={setWithSubtree}
        checkedCount={checkedCount}
      />
      {shown.length ? (
        // the tree scrolls inside the form, so the toolbar stays in reach on a long tree
        <div style={{ maxHeight: '60vh', overflow: 'auto' }}>
          <AntTree
            checkable
            checkStrictly
            selectable={false}
            disabled={disabled}
            treeData={treeData}
            expandedKeys={expandedKeys}
            onExpand={(keys) => setExpandedKeys(keys)}
            autoExpandParent={false}
            checkedKeys={{ checked: [...value], halfChecked: [] }}
            onCheck={(_keys, info) =>
              change(toggleCheck(index, value, String(info.node.key), info.checked, { withSubtree, locked }))
            }
          />
        </div>
      ) : (
        <Empty description="没有匹配的权限" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      )}
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
