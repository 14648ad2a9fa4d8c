import { Form, Select, TreeSelect } from 'antd'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { DATA_SCOPE, DATA_SCOPE_LABEL, DATA_SCOPE_VALUES, MSG } from '@amg/contract'
import { useOrgStore, type Org } from '../lib/stores/org-store'
import { ORG_TREE_QUERY_KEY } from './org-cascader'

/** 全部数据 … 仅本人, in the contract's order (DESIGN.md §13). */
export const DATA_SCOPE_OPTIONS = DATA_SCOPE_VALUES.map((value) => ({
  value,
  label: DATA_SCOPE_LABEL[value],
}))

const SCOPE_HELP =
  '角色的权限作用于哪些用户的数据：全部数据；自定义部门（所选部门及其下级）；本部门（持有者岗位所在部门）；' +
  '本部门及以下；仅本人。一个操作的范围是允许该操作的各角色范围之并。'

interface ScopeTreeNode {
  value: number
  title: string
  children?: ScopeTreeNode[]
}

const toTreeData = (nodes: readonly Org[]): ScopeTreeNode[] =>
  nodes.map((n) => ({
    value: n.id,
    title: n.organizationName,
    children: n.children.length ? toTreeData(n.children) : undefined,
  }))

/**
 * The departments of a 自定义部门 scope: each chosen department counts with everything below it, so
 * choosing is per department (checkStrictly), never a cascade that would list every child again.
 */
function ScopeOrgSelect({
  value,
  onChange,
  disabled,
}: {
  value?: number[]
  onChange?: (ids: number[]) => void
  disabled?: boolean
}) {
  const tree = useQuery<Org[]>({
    queryKey: ORG_TREE_QUERY_KEY,
    queryFn: () => useOrgStore.getState().fetchTree(),
  })
  const treeData = useMemo(() => toTreeData(tree.data ?? []), [tree.data])
  return (
    <TreeSelect<{ value: number; label?: unknown }[]>
      data-testid="scope-org-select"
      treeData={treeData}
      value={(value ?? []).map((id) => ({ value: id }))}
      onChange={(chosen) => onChange?.(chosen.map((c) => c.value))}
      treeCheckable
      treeCheckStrictly
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandedKeys={treeData.map((n) => n.value)}
      placeholder="请选择部门（各含其下级部门）"
      loading={tree.isLoading}
      disabled={disabled}
      allowClear
      style={{ width: '100%', maxWidth: 480 }}
    />
  )
}

/**
 * The role form's 数据权限 and, for 自定义部门, its departments (DESIGN.md §13). The server checks
 * the same rules (a department that does not exist, none chosen, more reach than the caller's).
 */
export function DataScopeFields({ disabled }: { disabled?: boolean }) {
  const scope = Form.useWatch<number | undefined>('dataScope')
  return (
    <>
      <Form.Item label="数据权限" name="dataScope" tooltip={SCOPE_HELP}>
        <Select
          data-testid="data-scope-select"
          options={DATA_SCOPE_OPTIONS}
          disabled={disabled}
          style={{ maxWidth: 240 }}
        />
      </Form.Item>
      {scope === DATA_SCOPE.custom ? (
        <Form.Item
          label="自定义部门"
          name="scopeOrgIds"
          rules={[{ required: true, type: 'array', min: 1, message: MSG.scopeOrgIdsRequired }]}
        >
          <ScopeOrgSelect disabled={disabled} />
        </Form.Item>
      ) : null}
    </>
  )
}
