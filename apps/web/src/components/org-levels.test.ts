import { describe, expect, it } from 'vitest'
import type { OrgSearchHit } from '@amg/contract'
import { searchTree, toDataNodes } from './org-levels'

const hit = (id: number, name: string, path: [number, string][]): OrgSearchHit => ({
  id,
  organizationName: name,
  description: null,
  parent: path.length ? path[path.length - 1][0] : null,
  childCount: 0,
  hasChildren: false,
  path: path.map(([pid, organizationName]) => ({ id: pid, organizationName })),
})

describe('the department tree by levels', () => {
  it('a search shows each hit under its path, shared paths once, the paths open', () => {
    const root: [number, string] = [1, '总公司']
    const rd: [number, string] = [2, '研发部']
    const view = searchTree([
      hit(4, '前端组', [root, rd]),
      hit(5, '后端组', [root, rd]),
      hit(7, '测试组', [root, [3, '质量部']]),
    ])
    const titles = (nodes: typeof view.treeData): unknown[] =>
      nodes.map((n) => (n.children ? [n.title, titles(n.children)] : n.title))
    expect(titles(view.treeData)).toEqual([
      [
        '总公司',
        [
          ['研发部', ['前端组', '后端组']],
          ['质量部', ['测试组']],
        ],
      ],
    ])
    expect(view.open.sort()).toEqual([1, 2, 3])
    // the node actions know each one's parent: the root has none
    expect(view.byId.get(1)?.parent).toBeNull()
    expect(view.byId.get(5)?.parent).toBe(2)
    expect(searchTree([]).treeData).toEqual([])
  })

  it('a loaded department opens on demand unless it has no children', () => {
    const nodes = toDataNodes([
      {
        id: 1,
        organizationName: '总公司',
        description: null,
        parent: null,
        childCount: 1,
        hasChildren: true,
      },
      {
        id: 9,
        organizationName: '空部门',
        description: null,
        parent: null,
        childCount: 0,
        hasChildren: false,
      },
    ])
    expect(nodes.map((n) => [n.key, n.isLeaf, n.children])).toEqual([
      [1, false, undefined],
      [9, true, undefined],
    ])
  })

  it("departments outside the caller's scope are disabled, in the levels and on a search's paths", () => {
    const greyed = toDataNodes([
      {
        ...hit(1, '总公司', []),
        hasChildren: true,
        inScope: false,
        children: [{ ...hit(2, '研发中心', [[1, '总公司']]) }],
      },
    ])
    expect(greyed[0].disabled).toBe(true)
    expect(greyed[0].children?.[0].disabled).toBe(false)
    const found = hit(4, '前端组', [
      [1, '总公司'],
      [2, '研发中心'],
    ])
    found.path[0].inScope = false
    const view = searchTree([found])
    expect(view.treeData[0].disabled).toBe(true)
    expect(view.treeData[0].children?.[0].disabled).toBe(false)
    expect(view.byId.get(1)?.inScope).toBe(false)
    expect(view.byId.get(4)?.inScope).toBeUndefined()
  })
})
