import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Button, Empty, Spin, Typography, theme } from 'antd'
import { useMemo } from 'react'
import { Tree, type TreeNodeData } from '../../components'
import { ORG_TREE_KEY as ORG_TREE_QUERY_KEY } from '../../lib/org-parts'
import { useOrgStore, type Org } from '../../lib/stores/org-store'

const ORG_FIELDS = { key: 'id', children: 'children', label: 'organizationName' }

function findOrg(nodes: readonly Org[], id: number): Org | undefined {
  const stack = [...nodes]
  while (stack.length) {
    const node = stack.pop()!
    if (node.id === id) return node
    stack.push(...(node.children ?? []))
  }
  return undefined
}

/** The department tree's call, shared with the department screen and the cascaders (GET /org/tree). */
export function useOrgTree() {
  return useQuery<Org[]>({ queryKey: ORG_TREE_QUERY_KEY, queryFn: () => useOrgStore.getState().fetchTree() })
}

/**
 * The department tree beside the user list: choosing a department shows the users holding a position
 * in it or below it; 全部部门 lifts the filter. It folds away to a narrow strip; on a narrow screen it
 * sits above the list and starts folded.
 */
export function OrgFilter({
  orgId,
  onChange,
  folded,
  onFold,
  narrow,
}: {
  orgId: number | undefined
  onChange: (orgId: number | undefined) => void
  folded: boolean
  onFold: (folded: boolean) => void
  narrow: boolean
}) {
  const { token } = theme.useToken()
  const tree = useOrgTree()
  const data = useMemo(() => tree.data ?? [], [tree.data])
  const chosen = orgId !== undefined ? findOrg(data, orgId) : undefined
  const chosenName = orgId === undefined ? '全部部门' : (chosen?.organizationName ?? '未知部门')

  const header = (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: folded ? 0 : 8 }}>
      <Button
        size="small"
        type="text"
        aria-label={folded ? '展开部门树' : '收起部门树'}
        icon={folded ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={() => onFold(!folded)}
      />
      {!folded || narrow ? (
        <Typography.Text strong ellipsis style={{ flex: 1 }} data-testid="org-filter-current">
          部门：{chosenName}
        </Typography.Text>
      ) : null}
      {orgId !== undefined && (!folded || narrow) ? (
        <Button size="small" type="link" onClick={() => onChange(undefined)}>
          全部部门
        </Button>
      ) : null}
    </div>
  )

  return (
    <div
      data-testid="user-org-filter"
      style={{
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        padding: 8,
        width: narrow ? '100%' : folded ? 40 : 220,
        flex: 'none',
        marginBottom: narrow ? 12 : 0,
        alignSelf: 'flex-start',
      }}
    >
      {header}
      {folded ? null : (
        <Spin spinning={tree.isFetching}>
          <div style={{ maxHeight: narrow ? 280 : 560, overflow: 'auto' }}>
            {data.length ? (
              <Tree
                data={data as unknown as TreeNodeData[]}
                props={ORG_FIELDS}
                placeholder="输入部门名称进行过滤"
                defaultExpandAll={false}
                rememberExpandedAs="user-list-org"
                selectedKeys={orgId !== undefined ? [orgId] : []}
                onSelect={(key) => onChange(key === undefined ? undefined : Number(key))}
              />
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={tree.isFetching ? '加载中' : '暂无部门'}
              />
            )}
          </div>
        </Spin>
      )}
    </div>
  )
}
