import { describe, expect, it } from 'vitest'
import { orgOptionLabel, orgPath, toCascaderOptions, type OrgCascaderNode } from './org-cascader'

const tree: OrgCascaderNode[] = [
  {
    id: 1,
    organizationName: '总公司',
    childCount: 2,
    children: [
      {
        id: 2,
        organizationName: '研发中心',
        childCount: 1,
        children: [{ id: 4, organizationName: '前端组', childCount: 0, children: [] }],
      },
      { id: 3, organizationName: '市场部', childCount: 0, children: [] },
    ],
  },
]

describe('org cascader helpers', () => {
  it('labels each option with its number of sub-departments', () => {
    expect(orgOptionLabel(tree[0])).toBe('总公司 (2)')
    expect(orgOptionLabel({ id: 9, organizationName: '无子部门' })).toBe('无子部门 (0)')
    expect(orgOptionLabel({ id: 9, organizationName: '数子', children: [tree[0]] })).toBe('数子 (1)')
  })

  it('turns the tree into options; leaves have no children', () => {
    expect(toCascaderOptions(tree)).toEqual([
      {
        value: 1,
        label: '总公司 (2)',
        name: '总公司',
        children: [
          {
            value: 2,
            label: '研发中心 (1)',
            name: '研发中心',
            children: [{ value: 4, label: '前端组 (0)', name: '前端组', children: undefined }],
          },
          { value: 3, label: '市场部 (0)', name: '市场部', children: undefined },
        ],
      },
    ])
  })

  it('finds the path from a root to any department', () => {
    expect(orgPath(tree, 1)).toEqual([1])
    expect(orgPath(tree, 4)).toEqual([1, 2, 4])
    expect(orgPath(tree, 3)).toEqual([1, 3])
    expect(orgPath(tree, 99)).toEqual([])
    expect(orgPath(tree, undefined)).toEqual([])
    expect(orgPath([], 1)).toEqual([])
  })
})
