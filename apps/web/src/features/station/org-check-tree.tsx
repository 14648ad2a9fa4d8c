import { Empty, Input, Spin, Tree } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useMemo, useState, type Key } from 'react'
import { useQuery } from '@tanstack/react-query'
import { filterTree, type TreeNodeData } from '../../components'
import { useOrgStore, type Org } from '../../lib/stores/org-store'

/** Virtual list height: only rows in view are rendered, so thousands of departments stay responsive. */
const TREE_HEIGHT = 360

function toDataNodes(nodes: readonly Org[], disabled: boolean): DataNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: node.organizationName,
    disabled,
    children: node.children?.length ? toDataNodes(node.children, disabled) : undefined,
  }))
}

function allParentKeys(nodes: readonly Org[], out: Key[] = []): Key[] {
  for (const node of nodes) {
    if (node.children?.length) {
      out.push(node.id)
      allParentKeys(node.children, out)
    }
  }
  return out
}

/**
 * The department tree of the job title form: a checkbox per department (each one independent —
 * checking a department links this job title to that department only), a name filter, and
 * virtual scrolling. `disabled` makes every node read-only (the view screen).
 */
export function OrgCheckTree({
  value = [],
  onChange,
  disabled = false,
}: {
  value?: number[]
  onChange?: (orgIds: number[]) => void
  disabled?: boolean
}) {
  const tree = useQuery({
    queryKey: ['org', 'tree'],
    queryFn: () => useOrgStore.getState().fetchTree(),
  })
  const [search, setSearch] = useState('')
  const text = search.trim()
  const filtered = useMemo(
    () =>
      filterTree((tree.data ?? []) as unknown as TreeNodeData[], text, {
        label: 'organizationName',
      }) as unknown as Org[],
    [tree.data, text],
  )
  const treeData = useMemo(() => toDataNodes(filtered, disabled), [filtered, disabled])
  const [expanded, setExpanded] = useState<Key[] | null>(null)
  const expandedKeys = text || expanded === null ? allParentKeys(filtered) : expanded

  return (
    <div data-testid="station-org-tree" style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}>
      <Input
        allowClear
        size="small"
        placeholder="输入部门名称进行过滤"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      <Spin spinning={tree.isLoading}>
        {treeData.length ? (
          <Tree
            checkable
            checkStrictly
            selectable={false}
            height={TREE_HEIGHT}
            treeData={treeData}
            expandedKeys={expandedKeys}
            onExpand={(keys) => setExpanded(keys)}
            checkedKeys={{ checked: value, halfChecked: [] }}
            onCheck={(keys) => {
              if (disabled) return
              const checked = Array.isArray(keys) ? keys : keys.checked
              onChange?.(checked.map(Number))
            }}
          />
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={tree.isLoading ? '加载中' : '没有匹配的部门'}
          />
        )}
      </Spin>
    </div>
  )
}
