import { Empty, Input, Spin, Tree, Typography, type GetRef, type TreeProps } from 'antd'
import { useEffect, useMemo, useRef, useState, type Key } from 'react'
import { ORG_SEARCH_LIMIT } from '@amg/contract'
import { indexLoaded, searchTree, toDataNodes, useOrgLevels, type OrgNode } from './org-levels'
import { ORG_SEARCH_DELAY_MS, useDebounced, useOrgPath, useOrgSearch } from './org-picker-levels'
import { useTreeExpansion } from './tree-expansion'

const ORG_FIELDS = { key: 'id', children: 'children', label: 'organizationName' }

/**
 * A department tree read level by level (decisions.md "The department tree by levels"): the roots
 * first, a department's children as it is opened, the open departments remembered in this browser
 * under `storageKey`, the selected department's path opened so it is never hidden in a folded (or
 * unloaded) branch. The search asks the server and shows each hit under its path; what one opens or
 * folds while searching applies to the search's view only. The department screen's tree and the
 * user list's filter are this tree; `treeProps` adds what each does with a node, given the nodes
 * shown by id.
 */
export function OrgLevelTree({
  storageKey,
  selectedId,
  height,
  searchBox = 'plain',
  warnMany = false,
  treeProps,
}: {
  storageKey: string
  selectedId: number | undefined
  /** a virtual list this high (only the rows in view rendered), scrolled to the selected one */
  height?: number
  /** 'search': the search box with antd's search button */
  searchBox?: 'plain' | 'search'
  /** say so when the search shows only its first ORG_SEARCH_LIMIT hits */
  warnMany?: boolean
  treeProps: (shown: { byId: ReadonlyMap<number, OrgNode> }) => TreeProps
}) {
  const [search, setSearch] = useState('')
  const typed = search.trim()
  const text = useDebounced(typed, ORG_SEARCH_DELAY_MS)
  const searching = typed !== ''
  const found = useOrgSearch(text)
  const view = useMemo(() => (text && found.data ? searchTree(found.data) : null), [text, found.data])

  // the open departments: remembered, and kept though a folded branch hides them (lazy)
  const [loadedTree, setLoadedTree] = useState<readonly unknown[]>([])
  const expansion = useTreeExpansion({
    storageKey,
    data: loadedTree as never,
    fields: ORG_FIELDS,
    searchText: '',
    initially: 'roots',
    lazy: true,
  })
  const levels = useOrgLevels(expansion.expandedKeys)
  useEffect(() => setLoadedTree(levels.tree), [levels.tree])
  const loaded = useMemo(() => indexLoaded(levels.tree), [levels.tree])

  const chosen = useOrgPath(selectedId)
  const { expandedKeys, onExpand: rememberOpen } = expansion
  useEffect(() => {
    const missing = (chosen.hit?.path ?? []).map((step) => step.id).filter((id) => !expandedKeys.includes(id))
    if (missing.length) rememberOpen([...expandedKeys, ...missing])
  }, [chosen.hit, expandedKeys, rememberOpen])

  // …and a virtual list scrolls to it once it is loaded (a link to a department deep in a long list)
  const treeRef = useRef<GetRef<typeof Tree>>(null)
  const scrolledTo = useRef<number | undefined>(undefined)
  useEffect(() => {
    if (height === undefined || searching || selectedId === undefined) return
    if (scrolledTo.current === selectedId || !loaded.has(selectedId)) return
    scrolledTo.current = selectedId
    // after the virtual list has laid out the rows just loaded
    const frame = requestAnimationFrame(() => treeRef.current?.scrollTo({ key: selectedId, align: 'auto' }))
    return () => cancelAnimationFrame(frame)
  }, [height, searching, selectedId, loaded])

  const [searchOpen, setSearchOpen] = useState<{ text: string; keys: Key[] } | null>(null)
  const treeData = useMemo(
    () => (searching ? (view?.treeData ?? []) : toDataNodes(levels.tree)),
    [searching, view, levels.tree],
  )
  const byId = searching ? (view?.byId ?? new Map<number, OrgNode>()) : loaded
  const open = searching ? (searchOpen?.text === text ? searchOpen.keys : (view?.open ?? [])) : expandedKeys
  const loading = searching ? typed !== text || found.isFetching : levels.roots.isLoading
  const many = warnMany && searching && (found.data?.length ?? 0) >= ORG_SEARCH_LIMIT

  const SearchBox = searchBox === 'search' ? Input.Search : Input
  return (
    <>
      <SearchBox
        allowClear
        placeholder="输入部门名称进行过滤"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      {many ? (
        <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
          {`匹配的部门较多，只显示前 ${ORG_SEARCH_LIMIT} 个，请输入更完整的名称`}
        </Typography.Text>
      ) : null}
      <Spin spinning={loading}>
        {treeData.length ? (
          <Tree
            ref={treeRef}
            height={height}
            treeData={treeData}
            loadData={searching ? undefined : (node) => levels.load(node.key)}
            expandedKeys={open}
            onExpand={(keys) => (searching ? setSearchOpen({ text, keys }) : rememberOpen(keys))}
            // a node kept open inside a folded one must not unfold it, and (defaultExpandParent
            // off) the first render must not drop open keys of levels not loaded yet: antd's Tree
            // keeps only keys of nodes it holds then, and would show a remembered level folded
            autoExpandParent={false}
            defaultExpandParent={false}
            selectedKeys={selectedId !== undefined ? [selectedId] : []}
            {...treeProps({ byId })}
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
