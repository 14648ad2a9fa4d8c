import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons'
import { Button, Empty, Input, Spin, Tree, Typography, theme } from 'antd'
import { useEffect, useMemo, useState } from 'react'
import { searchTree, toDataNodes, useOrgLevels } from '../../components/org-levels'
import {
  ORG_SEARCH_DELAY_MS,
  useDebounced,
  useOrgPath,
  useOrgSearch,
} from '../../components/org-picker-levels'
import { useTreeExpansion } from '../../components/tree-expansion'

const ORG_FIELDS = { key: 'id', children: 'children', label: 'organizationName' }

/**
 * The department tree of the filter, read level by level as the department screen's is: the roots,
 * a department's children as it is opened (the open ones remembered in this browser), the chosen
 * department's path opened, and a search by name that asks the server and shows each hit under its
 * path.
 */
function OrgFilterTree({
  orgId,
  path,
  onChange,
}: {
  orgId: number | undefined
  /** the chosen department's ancestors, from the root down */
  path: readonly number[] | undefined
  onChange: (orgId: number | undefined) => void
}) {
  const [search, setSearch] = useState('')
  const typed = search.trim()
  const text = useDebounced(typed, ORG_SEARCH_DELAY_MS)
  const searching = typed !== ''
  const found = useOrgSearch(text)
  const view = useMemo(() => (text && found.data ? searchTree(found.data) : null), [text, found.data])

  const [loadedTree, setLoadedTree] = useState<readonly unknown[]>([])
  const expansion = useTreeExpansion({
    storageKey: 'user-list-org',
    data: loadedTree as never,
    fields: ORG_FIELDS,
    searchText: '',
    initially: 'roots',
    lazy: true,
  })
  const levels = useOrgLevels(expansion.expandedKeys)
  useEffect(() => setLoadedTree(levels.tree), [levels.tree])

  // the chosen department's path opens, so it is never hidden in a folded (or unread) branch
  const { expandedKeys, onExpand: rememberOpen } = expansion
  useEffect(() => {
    const missing = (path ?? []).filter((id) => !expandedKeys.includes(id))
    if (missing.length) rememberOpen([...expandedKeys, ...missing])
  }, [path, expandedKeys, rememberOpen])

  const [searchOpen, setSearchOpen] = useState<{ text: string; keys: React.Key[] } | null>(null)
  const treeData = useMemo(
    () => (searching ? (view?.treeData ?? []) : toDataNodes(levels.tree)),
    [searching, view, levels.tree],
  )
  const open = searching ? (searchOpen?.text === text ? searchOpen.keys : (view?.open ?? [])) : expandedKeys
  const loading = searching ? typed !== text || found.isFetching : levels.roots.isLoading

  return (
    <>
      <Input
        placeholder="输入部门名称进行过滤"
        allowClear
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      <Spin spinning={loading}>
        {treeData.length ? (
          <Tree
            treeData={treeData}
            loadData={searching ? undefined : (node) => levels.load(node.key)}
            expandedKeys={open}
            onExpand={(keys) => (searching ? setSearchOpen({ text, keys }) : rememberOpen(keys))}
            // open keys of levels not read yet are kept as they are (see the department screen's tree)
            autoExpandParent={false}
            defaultExpandParent={false}
            selectedKeys={orgId !== undefined ? [orgId] : []}
            onSelect={(keys) => onChange(keys[0] === undefined ? undefined : Number(keys[0]))}
          />
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={loading ? '加载中' : searching ? '没有匹配的部门' : '暂无部门'}
          />
        )}
      </Spin>
    </>
  )
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
  const chosen = useOrgPath(orgId)
  const chosenName =
    orgId === undefined ? '全部部门' : (chosen.hit?.organizationName ?? (chosen.known ? '' : '未知部门'))
  const path = useMemo(() => chosen.hit?.path.map((s) => s.id), [chosen.hit])

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
        <div style={{ maxHeight: narrow ? 280 : 560, overflow: 'auto' }}>
          <OrgFilterTree orgId={orgId} path={path} onChange={onChange} />
        </div>
      )}
    </div>
  )
}
