import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { OrgTreeNode } from '@amg/contract'
import { scopedTree } from '../src/modules/org'

/** A tree from each node's parent index (node i's parent is below i, so it is a tree). */
function build(parents: number[]): OrgTreeNode[] {
  const nodes = parents.map((_, id): OrgTreeNode => ({
    id,
    organizationName: `d${id}`,
    description: null,
    parent: null,
    organizationCompleteName: `d${id}`,
    childCount: 0,
    children: [],
  }))
  const roots: OrgTreeNode[] = []
  parents.forEach((p, id) => {
    if (id === 0 || p < 0) roots.push(nodes[id])
    else {
      nodes[id].parent = p
      nodes[p].children.push(nodes[id])
      nodes[p].childCount++
    }
  })
  return roots
}

const flatten = (roots: OrgTreeNode[]): OrgTreeNode[] => roots.flatMap((n) => [n, ...flatten(n.children)])

const arbitraryTree = fc
  .integer({ min: 1, max: 40 })
  .chain((n) =>
    fc.tuple(
      fc.tuple(
        ...Array.from({ length: n }, (_, i) =>
          fc.integer({ min: i === 0 ? -1 : 0, max: Math.max(0, i - 1) }),
        ),
      ),
      fc.subarray(Array.from({ length: n }, (_, i) => i)),
    ),
  )

describe('the department tree a scoped administrator sees (DESIGN.md §13)', () => {
  it('keeps every department in scope, and outside it only greyed ancestors of one in scope', () => {
    fc.assert(
      fc.property(arbitraryTree, ([parents, orgIds]) => {
        const roots = build(parents)
        const before = JSON.stringify(roots)
        const seen = flatten(scopedTree(roots, { id: 1, scope: { all: false, self: false, orgIds } }))
        const inScope = new Set(orgIds)
        // every department in scope is there, once, not greyed
        for (const id of orgIds) {
          const found = seen.filter((n) => n.id === id)
          expect(found).toHaveLength(1)
          expect(found[0].inScope).toBeUndefined()
        }
        for (const node of seen) {
          expect(node.childCount).toBe(node.children.length)
          if (inScope.has(node.id)) continue
          // outside: greyed, and leads to a department in scope
          expect(node.inScope).toBe(false)
          expect(flatten(node.children).some((d) => inScope.has(d.id))).toBe(true)
        }
        // the full tree (kept in the cache for others) is left as it was
        expect(JSON.stringify(roots)).toBe(before)
      }),
      { numRuns: 300 },
    )
  })

  it('answers the whole tree unchanged for a caller who reaches everything', () => {
    const roots = build([-1, 0, 0, 1])
    expect(scopedTree(roots, { id: 1, scope: { all: true, self: false, orgIds: [] } })).toEqual(roots)
  })
})
