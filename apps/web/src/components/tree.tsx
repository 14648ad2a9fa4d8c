import { Input, Tree as AntTree } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useMemo, useState, type Key, type ReactNode } from 'react'
import { useTreeExpansion, type TreeExpansionOptions } from './tree-expansion'

export type TreeNodeData = Record<string, unknown>

/** SPEC.md §3: the tree's field defaults are children and label. */
export const TREE_DEFAULT_PROPS = { children: 'children', label: 'label' } as const

export interface TreeFieldNames {
  children?: string
  label?: string
  /** The node key field (default 'id'). */
  key?: string
}

/**
 * SPEC.md §5: a node matches when the filter text is a substring of its label, or of the chosen
 * filter property. Answers the tree pruned to matching nodes and their ancestors (a matching
 * node keeps its whole subtree).
 */
export function filterTree<T extends TreeNodeData>(
  nodes: readonly T[],
  text: string,
  props: TreeFieldNames = {},
  filterProp?: string,
): T[] {
  const children = props.children ?? TREE_DEFAULT_PROPS.children
  const field = filterProp ?? props.label ?? TREE_DEFAULT_PROPS.label
  if (!text) return [...nodes]
  const out: T[] = []
  for (const node of nodes) {
    const value = node[field]
    if (value !== undefined && value !== null && String(value).includes(text)) {
      out.push(node)
      continue
    }
    const kids = node[children]
    if (Array.isArray(kids)) {
      const kept = filterTree(kids as T[], text, props, filterProp)
      if (kept.length) out.push({ ...node, [children]: kept })
    }
  }
  return out
}

export interface TreeProps {
  data: readonly TreeNodeData[]
  props?: TreeFieldNames
  /** Show the search box (default true). */
  searchable?: boolean
  /** The property the filter text is matched against (default the label). */
  filterProp?: string
  /** Controlled filter text (otherwise the search box's). */
  filterText?: string
  placeholder?: string
  checkable?: boolean
  checkedKeys?: Key[]
  onCheck?: (keys: Key[]) => void
  selectedKeys?: Key[]
  onSelect?: (key: Key | undefined, node: TreeNodeData | undefined) => void
  defaultExpandAll?: boolean
  renderLabel?: (node: TreeNodeData) => ReactNode
  /**
   * Remember the open nodes in this browser under this name (reopened after a reload; every parent
   * open at first when defaultExpandAll); a search then opens the path to each hit, and the selected
   * node's path opens. Without it the tree starts as defaultExpandAll says and re-expands on search.
   */
  rememberExpandedAs?: string
}

function toDataNodes(
  nodes: readonly TreeNodeData[],
  props: Required<TreeFieldNames>,
  renderLabel?: TreeProps['renderLabel'],
): DataNode[] {
  return nodes.map((node) => {
    const kids = node[props.children]
    return {
      key: node[props.key] as Key,
      title: renderLabel ? renderLabel(node) : String(node[props.label] ?? ''),
      children:
        Array.isArray(kids) && kids.length
          ? toDataNodes(kids as TreeNodeData[], props, renderLabel)
          : undefined,
      data: node,
    } as DataNode
  })
}

/** Tree with a search box filtering by label substring (or by a chosen property). */
export function Tree({
  data,
  props = {},
  searchable = true,
  filterProp,
  filterText,
  placeholder = '输入关键字进行过滤',
  checkable,
  checkedKeys,
  onCheck,
  selectedKeys,
  onSelect,
  defaultExpandAll = true,
  renderLabel,
  rememberExpandedAs,
}: TreeProps) {
  const [search, setSearch] = useState('')
  const text = filterText ?? search
  const childrenField = props.children ?? 'children'
  const labelField = props.label ?? 'label'
  const keyField = props.key ?? 'id'
  const fields = useMemo(
    () => ({ children: childrenField, label: labelField, key: keyField }),
    [childrenField, labelField, keyField],
  )
  const filtered = useMemo(() => filterTree(data, text, fields, filterProp), [data, text, fields, filterProp])
  const treeData = useMemo(() => toDataNodes(filtered, fields, renderLabel), [filtered, fields, renderLabel])
  const common: AntTreeProps = {
    treeData,
    checkable,
    checkedKeys,
    onCheck: (keys) => onCheck?.(Array.isArray(keys) ? keys : keys.checked),
    selectedKeys,
    onSelect: (keys, info) => onSelect?.(keys[0], (info.node as DataNode & { data?: TreeNodeData }).data),
  }
  return (
    <div className="amg-tree">
      {searchable && filterText === undefined ? (
        <Input
          placeholder={placeholder}
          allowClear
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          style={{ marginBottom: 8 }}
        />
      ) : null}
      {rememberExpandedAs ? (
        <RememberingTree
          {...common}
          expansion={{
            storageKey: rememberExpandedAs,
            data,
            fields,
            filterProp,
            searchText: text,
            initially: defaultExpandAll ? 'all' : 'roots',
            selectedKey: selectedKeys?.[0],
          }}
        />
      ) : (
        <AntTree key={text /* re-expand after filtering */} {...common} defaultExpandAll={defaultExpandAll} />
      )}
    </div>
  )
}

type AntTreeProps = React.ComponentProps<typeof AntTree>

/** The antd tree with its open nodes remembered (useTreeExpansion). */
function RememberingTree({ expansion, ...common }: AntTreeProps & { expansion: TreeExpansionOptions }) {
  return <AntTree {...common} {...useTreeExpansion(expansion)} />
}
