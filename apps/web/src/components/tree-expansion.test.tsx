import { act, renderHook } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  ancestorKeys,
  hitPathKeys,
  indexTree,
  useTreeExpansion,
  type TreeExpansionOptions,
} from './tree-expansion'

const FIELDS = { key: 'id', children: 'children', label: 'name' }
// 1 总公司 ─ 2 研发部 ─ 4 前端组 ─ 6 组件组
//          │         └ 5 后端组
//          └ 3 市场部
const TREE = [
  {
    id: 1,
    name: '总公司',
    children: [
      {
        id: 2,
        name: '研发部',
        children: [
          { id: 4, name: '前端组', children: [{ id: 6, name: '组件组' }] },
          { id: 5, name: '后端组' },
        ],
      },
      { id: 3, name: '市场部' },
    ],
  },
]

describe('tree paths', () => {
  it('indexes parents and the nodes that have children', () => {
    const index = indexTree(TREE, FIELDS)
    expect(index.parents).toEqual([1, 2, 4])
    expect(index.roots).toEqual([1])
    expect(ancestorKeys(index.parentOf, 6)).toEqual([4, 2, 1])
    expect(ancestorKeys(index.parentOf, 1)).toEqual([])
  })

  it('a search opens the path to each hit, not the hits themselves', () => {
    expect(hitPathKeys(TREE, '组件', FIELDS).sort()).toEqual([1, 2, 4])
    expect(hitPathKeys(TREE, '市场', FIELDS)).toEqual([1])
    // '组' hits 前端组, 组件组 and 后端组: the union of their paths
    expect(hitPathKeys(TREE, '组', FIELDS).sort()).toEqual([1, 2, 4])
    expect(hitPathKeys(TREE, '', FIELDS)).toEqual([])
    expect(hitPathKeys(TREE, '不存在', FIELDS)).toEqual([])
  })
})

const options = (extra: Partial<TreeExpansionOptions> = {}): TreeExpansionOptions => ({
  storageKey: 'test',
  data: TREE,
  fields: FIELDS,
  searchText: '',
  initially: 'roots',
  ...extra,
})

describe('useTreeExpansion', () => {
  beforeEach(() => window.localStorage.clear())

  it('starts with the roots (or every parent) open, and remembers what is opened in local storage', () => {
    expect(
      renderHook(() => useTreeExpansion(options({ initially: 'all' }))).result.current.expandedKeys,
    ).toEqual([1, 2, 4])
    const first = renderHook(() => useTreeExpansion(options()))
    expect(first.result.current.expandedKeys).toEqual([1])
    act(() => first.result.current.onExpand([1, 2, 4]))
    expect(JSON.parse(window.localStorage.getItem('amg.tree.test')!)).toEqual([1, 2, 4])
    // a reload: a new mount reads what this browser had open
    const again = renderHook(() => useTreeExpansion(options()))
    expect(again.result.current.expandedKeys).toEqual([1, 2, 4])
  })

  it('keeps keys that come back as text, and drops keys of nodes that no longer exist', () => {
    const hook = renderHook(() => useTreeExpansion(options()))
    act(() => hook.result.current.onExpand(['1', 2, 99]))
    expect(hook.result.current.expandedKeys).toEqual([1, 2])
  })

  it('a lazily loaded tree keeps the open keys of nodes not loaded yet (inside a folded branch)', () => {
    const hook = renderHook(() =>
      useTreeExpansion(options({ data: [{ id: 1, name: '总公司' }], lazy: true })),
    )
    act(() => hook.result.current.onExpand([1, 2, 99, 2]))
    expect(hook.result.current.expandedKeys).toEqual([1, 2, 99])
    expect(JSON.parse(window.localStorage.getItem('amg.tree.test')!)).toEqual([1, 2, 99])
  })

  it('opens the path to the selected node', () => {
    const hook = renderHook((props: { selectedKey?: number }) => useTreeExpansion(options(props)), {
      initialProps: {},
    })
    hook.rerender({ selectedKey: 6 })
    expect([...hook.result.current.expandedKeys].sort()).toEqual([1, 2, 4])
    expect(JSON.parse(window.localStorage.getItem('amg.tree.test')!).sort()).toEqual([1, 2, 4])
  })

  it('while searching shows the paths to the hits, then returns to what was open', () => {
    const hook = renderHook((props: { searchText: string }) => useTreeExpansion(options(props)), {
      initialProps: { searchText: '' },
    })
    act(() => hook.result.current.onExpand([1, 3]))
    hook.rerender({ searchText: '组件' })
    expect([...hook.result.current.expandedKeys].sort()).toEqual([1, 2, 4])
    // folding during a search changes the search's view only
    act(() => hook.result.current.onExpand([1]))
    expect(hook.result.current.expandedKeys).toEqual([1])
    expect(JSON.parse(window.localStorage.getItem('amg.tree.test')!)).toEqual([1, 3])
    hook.rerender({ searchText: '' })
    expect(hook.result.current.expandedKeys).toEqual([1, 3])
  })
})
