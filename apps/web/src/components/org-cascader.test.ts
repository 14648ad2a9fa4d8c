import { describe, expect, it } from 'vitest'
import type { OrgLevelNode, OrgSearchHit } from '@amg/contract'
import { levelOptions, orgOptionLabel, searchOptions } from './org-cascader'

const node = (id: number, name: string, parent: number | null, kids: number): OrgLevelNode => ({
  id,
  organizationName: name,
  description: null,
  parent,
  childCount: kids,
  hasChildren: kids > 0,
})

describe('org cascader helpers', () => {
  it('labels each option with its number of sub-departments', () => {
    expect(orgOptionLabel({ id: 1, organizationName: '总公司', childCount: 2 })).toBe('总公司 (2)')
    expect(orgOptionLabel({ id: 9, organizationName: '无子部门' })).toBe('无子部门 (0)')
  })

  it('turns the loaded levels into options: a leaf ends the menu, an unread level opens on demand', () => {
    const childrenOf = new Map([[1, [node(2, '研发中心', 1, 1), node(3, '市场部', 1, 0)]]])
    expect(levelOptions([node(1, '总公司', null, 2)], childrenOf)).toEqual([
      {
        value: 1,
        label: '总公司 (2)',
        name: '总公司',
        isLeaf: false,
        children: [
          { value: 2, label: '研发中心 (1)', name: '研发中心', isLeaf: false, children: undefined },
          { value: 3, label: '市场部 (0)', name: '市场部', isLeaf: true, children: undefined },
        ],
      },
    ])
  })

  it('a search lists each hit under its path, shared paths once, the hits marked', () => {
    const hit = (id: number, name: string, path: [number, string][]): OrgSearchHit => ({
      ...node(id, name, path.at(-1)![0], 0),
      path: path.map(([pid, organizationName]) => ({ id: pid, organizationName })),
    })
    const options = searchOptions([
      hit(4, '前端组', [
        [1, '总公司'],
        [2, '研发中心'],
      ]),
      hit(5, '后端组', [
        [1, '总公司'],
        [2, '研发中心'],
      ]),
    ])
    expect(options).toEqual([
      {
        value: 1,
        label: '总公司',
        name: '总公司',
        isLeaf: false,
        children: [
          {
            value: 2,
            label: '研发中心',
            name: '研发中心',
            isLeaf: false,
            children: [
              { value: 4, label: '前端组 (0)', name: '前端组', isLeaf: true, hit: true },
              { value: 5, label: '后端组 (0)', name: '后端组', isLeaf: true, hit: true },
            ],
          },
        ],
      },
    ])
  })

  it("marks departments outside the caller's scope, in the levels and on a search's paths", () => {
    const root = { ...node(1, '总公司', null, 1), inScope: false }
    const [top] = levelOptions([root], new Map([[1, [node(2, '研发中心', 1, 0)]]]))
    expect(top.outside).toBe(true)
    expect(top.children?.[0].outside).toBeUndefined()
    const hit: OrgSearchHit = {
      ...node(2, '研发中心', 1, 0),
      path: [{ id: 1, organizationName: '总公司', inScope: false }],
    }
    const [found] = searchOptions([hit])
    expect(found.outside).toBe(true)
    expect(found.children?.[0]).toMatchObject({ value: 2, hit: true })
    expect(found.children?.[0].outside).toBeUndefined()
  })
})
