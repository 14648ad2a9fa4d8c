import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  ancestorsOf,
  checkAll,
  descendantsOf,
  indexTree,
  lockedCodes,
  toggleCheck,
  uncheckAll,
  type CodeNode,
} from '../src/tree-check'

const tree: CodeNode[] = [
  {
    code: 'a',
    children: [{ code: 'a1', children: [{ code: 'a1x' }, { code: 'a1y' }] }, { code: 'a2' }],
  },
  { code: 'b' },
]
const sorted = (codes: string[]) => [...codes].sort()

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

describe('checking with the subtree', () => {
  it('checks the node, its whole subtree and its ancestors, nothing beside', () => {
    expect(sorted(toggleCheck(tree, [], 'a1', true, { withSubtree: true }))).toEqual([
      'a',
      'a1',
      'a1x',
      'a1y',
    ])
    expect(sorted(toggleCheck(tree, ['b'], 'a', true, { withSubtree: true }))).toEqual(
      sorted(['a', 'a1', 'a1x', 'a1y', 'a2', 'b']),
    )
  })
  it('leaves out the nodes the caller may not grant, and everything below them', () => {
    const locked = lockedCodes(tree, ['a1'])
    expect(sorted([...locked])).toEqual(['a1', 'a1x', 'a1y'])
    expect(sorted(toggleCheck(tree, [], 'a', true, { withSubtree: true, locked }))).toEqual(['a', 'a2'])
  })
  it('never changes a locked node', () => {
    const locked = lockedCodes(tree, ['a1'])
    expect(toggleCheck(tree, [], 'a1x', true, { locked })).toEqual([])
    expect(sorted(toggleCheck(tree, ['a', 'a1'], 'a1', false, { locked }))).toEqual(['a', 'a1'])
  })
  it('ignores codes the tree does not have when locking', () => {
    expect([...lockedCodes(tree, ['gone'])]).toEqual([])
  })
})

describe('全选 and 全不选', () => {
  it('全选 checks every node the caller may grant, and only those', () => {
    expect(sorted(checkAll(tree, []))).toEqual(sorted(['a', 'a1', 'a1x', 'a1y', 'a2', 'b']))
    expect(sorted(checkAll(tree, [], lockedCodes(tree, ['a1'])))).toEqual(['a', 'a2', 'b'])
  })
  it('全不选 unchecks every node the caller may grant and keeps what they may not, with its ancestors', () => {
    const all = ['a', 'a1', 'a1x', 'a1y', 'a2', 'b']
    expect(uncheckAll(tree, all)).toEqual([])
    expect(sorted(uncheckAll(tree, all, lockedCodes(tree, ['a1x'])))).toEqual(['a', 'a1', 'a1x'])
  })
})

/** A random forest of up to ~40 nodes, codes n0, n1, … */
const forest = fc.array(fc.nat(), { minLength: 1, maxLength: 40 }).map((parents) => {
  // node i's parent is one of the nodes before it, or none (a root)
  const nodes: CodeNode[] = parents.map((_, i) => ({ code: `n${i}`, children: [] }))
  const roots: CodeNode[] = []
  parents.forEach((p, i) => {
    const parent = p % (i + 1)
    if (parent === i) roots.push(nodes[i]!)
    else nodes[parent]!.children!.push(nodes[i]!)
  })
  return { roots, size: nodes.length }
})

type Action =
  | { kind: 'toggle'; node: number; checked: boolean; withSubtree: boolean }
  | { kind: 'all' }
  | { kind: 'none' }
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('toggle' as const),
      node: fc.nat(),
      checked: fc.boolean(),
      withSubtree: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'all' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
)

describe('tree property', () => {
  it('after any sequence of toggles every checked node has its ancestors checked, and locked nodes never change', () => {
    fc.assert(
      fc.property(
        forest,
        fc.array(fc.nat()),
        fc.array(action, { maxLength: 30 }),
        ({ roots, size }, lockPicks, actions) => {
          const index = indexTree(roots)
          const locked = lockedCodes(
            index,
            lockPicks.slice(0, 3).map((n) => `n${n % size}`),
          )
          let checked: string[] = []
          for (const a of actions) {
            if (a.kind === 'all') checked = checkAll(index, checked, locked)
            else if (a.kind === 'none') checked = uncheckAll(index, checked, locked)
            else
              checked = toggleCheck(index, checked, `n${a.node % size}`, a.checked, {
                withSubtree: a.withSubtree,
                locked,
              })
            const now = new Set(checked)
            for (const code of now) for (const up of ancestorsOf(index, code)) expect(now.has(up)).toBe(true)
            // starting from nothing checked, a locked node is never checked
            for (const code of locked) expect(now.has(code)).toBe(false)
          }
        },
      ),
    )
  })

  it('after checking X with its subtree, all of X, its subtree and its ancestors are checked', () => {
    fc.assert(
      fc.property(forest, fc.nat(), fc.array(fc.nat(), { maxLength: 40 }), ({ roots, size }, pick, start) => {
        const index = indexTree(roots)
        const x = `n${pick % size}`
        const initial = [...new Set(start.map((n) => `n${n % size}`))]
        const after = new Set(toggleCheck(index, initial, x, true, { withSubtree: true }))
        for (const code of [x, ...descendantsOf(index, x), ...ancestorsOf(index, x)])
          expect(after.has(code)).toBe(true)
        // nothing outside X's subtree and path was added
        for (const code of after)
          expect(
            initial.includes(code) ||
              code === x ||
              descendantsOf(index, x).includes(code) ||
              ancestorsOf(index, x).includes(code),
          ).toBe(true)
      }),
    )
  })
})
