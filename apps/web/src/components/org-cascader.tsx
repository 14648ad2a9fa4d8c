import { Cascader } from 'antd'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useOrgStore, type Org } from '../lib/stores/org-store'

/** A department of GET /org/tree (the contract's tree node) as far as the cascader needs it. */
export type OrgCascaderNode = Pick<Org, 'id' | 'organizationName'> & {
  childCount?: number
  children?: OrgCascaderNode[]
}

export interface OrgCascaderOption {
  value: number
  label: string
  /** the bare department name, shown in the field once chosen */
  name: string
  children?: OrgCascaderOption[]
}

/** The option label: the department name and its number of direct sub-departments, '研发中心 (3)'. */
export const orgOptionLabel = (node: OrgCascaderNode) =>
  `${node.organizationName} (${node.childCount ?? node.children?.length ?? 0})`

/** The department tree as cascader options (leaves have no children, so they end the menu). */
export function toCascaderOptions(nodes: readonly OrgCascaderNode[]): OrgCascaderOption[] {
  return nodes.map((node) => ({
    value: node.id,
    label: orgOptionLabel(node),
    name: node.organizationName,
    children: node.children?.length ? toCascaderOptions(node.children) : undefined,
  }))
}

/** The ids from a root down to `id`, or [] when the tree does not hold it. */
export function orgPath(nodes: readonly OrgCascaderNode[], id: number | undefined): number[] {
  if (id === undefined) return []
  const stack: { node: OrgCascaderNode; path: number[] }[] = nodes.map((node) => ({ node, path: [node.id] }))
  while (stack.length) {
    const { node, path } = stack.pop()!
    if (node.id === id) return path
    for (const child of node.children ?? []) stack.push({ node: child, path: [...path, child.id] })
  }
  return []
}

export const ORG_TREE_QUERY_KEY = ['org', 'tree'] as const

export interface OrgCascaderProps {
  /** the chosen department id */
  value?: number
  /** the chosen department (any level), or undefined when cleared */
  onChange?: (orgId?: number) => void
  /** the department tree; when absent it is loaded with GET /org/tree (kept in the org store) */
  tree?: readonly OrgCascaderNode[]
  placeholder?: string
  style?: React.CSSProperties
  disabled?: boolean
  'aria-label'?: string
}

/**
 * Department cascader (SPEC.md §2): any level can be chosen (changeOnSelect), each option shows its
 * number of sub-departments, the choice is reported as the department's id.
 */
export function OrgCascader({
  value,
  onChange,
  tree,
  placeholder = '请选择部门',
  style,
  disabled,
  ...rest
}: OrgCascaderProps) {
  const loaded = useQuery<Org[]>({
    queryKey: ORG_TREE_QUERY_KEY,
    queryFn: () => useOrgStore.getState().fetchTree(),
    enabled: !tree,
  })
  const nodes = useMemo<readonly OrgCascaderNode[]>(() => tree ?? loaded.data ?? [], [tree, loaded.data])
  const options = useMemo(() => toCascaderOptions(nodes), [nodes])
  const path = useMemo(() => orgPath(nodes, value), [nodes, value])
  return (
    <Cascader<OrgCascaderOption>
      aria-label={rest['aria-label']}
      data-testid="org-cascader"
      options={options}
      value={path.length ? path : undefined}
      changeOnSelect
      allowClear
      showSearch
      expandTrigger="click"
      displayRender={(labels, selected) => (selected ?? []).map((o, i) => o?.name ?? labels[i]).join(' / ')}
      placeholder={placeholder}
      loading={!tree && loaded.isFetching}
      disabled={disabled}
      style={{ width: 260, ...style }}
      onChange={(ids) => {
        const list = (ids ?? []) as number[]
        onChange?.(list.length ? list[list.length - 1] : undefined)
      }}
    />
  )
}
