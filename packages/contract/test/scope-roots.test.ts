import { describe, expect, it } from 'vitest'
import { deptTree, scopeLineText, scopeRoots } from '../src'

// 1 公司 ─ 2 研发中心 ─ 4 前端组
//        │          └ 5 后端组
//        └ 3 销售部
const tree = deptTree([
  [1, null],
  [2, 1],
  [3, 1],
  [4, 2],
  [5, 2],
])

describe('scopeRoots', () => {
  it('names the top of a whole subtree with 含下级', () => {
    expect(scopeRoots({ all: false, self: false, orgIds: [2, 4, 5] }, tree)).toEqual([
      { id: 2, withSubtree: true },
    ])
  })

  it('a department without all that lies below it is named alone, and so is each part below it', () => {
    expect(scopeRoots({ all: false, self: false, orgIds: [2, 4] }, tree)).toEqual([
      { id: 2, withSubtree: false },
    ])
    expect(scopeRoots({ all: false, self: false, orgIds: [3, 4, 5] }, tree)).toEqual([
      { id: 3, withSubtree: false },
      { id: 4, withSubtree: false },
      { id: 5, withSubtree: false },
    ])
  })

  it('a leaf is never said to have anything below it', () => {
    expect(scopeRoots({ all: false, self: false, orgIds: [5] }, tree)).toEqual([
      { id: 5, withSubtree: false },
    ])
  })
})

describe('scopeLineText', () => {
  it('joins the tops and 本人', () => {
    expect(
      scopeLineText(
        [
          { name: '研发中心', withSubtree: true },
          { name: '销售部', withSubtree: false },
        ],
        true,
      ),
    ).toBe('研发中心（含下级）、销售部、本人')
    expect(scopeLineText([], false)).toBe('无')
  })
})
