import { describe, expect, it } from 'vitest'
import { toggleCheck, type CodeNode } from '../src/tree-check'

const tree: CodeNode[] = [
  {
    code: 'a',
    children: [{ code: 'a1', children: [{ code: 'a1x' }, { code: 'a1y' }] }, { code: 'a2' }],
  },
  { code: 'b' },
]

describe('permission tree check rules (SPEC.md §2)', () => {
  it('checking a node also checks all its ancestors', () => {
    expect(toggleCheck(tree, [], 'a1x', true).sort()).toEqual(['a', 'a1', 'a1x'])
  })
  it('checking does not check siblings or descendants', () => {
    expect(toggleCheck(tree, [], 'a1', true).sort()).toEqual(['a', 'a1'])
  })
  it('unchecking a node unchecks its descendants but keeps ancestors', () => {
    const checked = ['a', 'a1', 'a1x', 'a1y', 'a2', 'b']
    expect(toggleCheck(tree, checked, 'a1', false).sort()).toEqual(['a', 'a2', 'b'])
  })
  it('unchecking a root unchecks its whole subtree', () => {
    expect(toggleCheck(tree, ['a', 'a1', 'a1x', 'b'], 'a', false)).toEqual(['b'])
  })
})
