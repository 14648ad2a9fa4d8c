import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  coversScope,
  coversScopeGrant,
  DATA_SCOPE,
  DATA_SCOPE_HEADER_MAX,
  dataScopeLabel,
  dataScopeOf,
  deptTree,
  formatScopeHeader,
  parseScopeHeader,
  addSubtree,
  type DataScope,
  type DeptTree,
  type RoleScope,
} from '../src'

/**
 *   1 总部
 *   ├─ 2 研发中心
 *   │  ├─ 4 前端组
 *   │  └─ 5 后端组
 *   │     └─ 7 数据库小组
 *   └─ 3 财务部
 *      └─ 6 报销组
 */
const company = deptTree([
  [1, null],
  [2, 1],
  [3, 1],
  [4, 2],
  [5, 2],
  [6, 3],
  [7, 5],
])

const role = (dataScope: number, scopeOrgIds: number[] = []): RoleScope => ({ dataScope, scopeOrgIds })

describe('dataScopeOf (DESIGN.md §13)', () => {
  it('gives each of the five scopes its meaning', () => {
    expect(dataScopeOf([role(1)], [5], company)).toEqual({ all: true, self: false, orgIds: [] })
    expect(dataScopeOf([role(2, [2])], [6], company)).toEqual({
      all: false,
      self: false,
      orgIds: [2, 4, 5, 7],
    })
    expect(dataScopeOf([role(3)], [5], company)).toEqual({ all: false, self: false, orgIds: [5] })
    expect(dataScopeOf([role(4)], [5], company)).toEqual({ all: false, self: false, orgIds: [5, 7] })
    expect(dataScopeOf([role(5)], [5], company)).toEqual({ all: false, self: true, orgIds: [] })
  })

  it('unites the roles that allow the call, over every own department', () => {
    expect(dataScopeOf([role(5), role(3)], [4, 6], company)).toEqual({
      all: false,
      self: true,
      orgIds: [4, 6],
    })
    expect(dataScopeOf([role(2, [3]), role(4)], [4], company)).toEqual({
      all: false,
      self: false,
      orgIds: [3, 4, 6],
    })
    expect(dataScopeOf([role(5), role(1)], [4], company).all).toBe(true)
  })

  it('gives nothing for own-department scopes without a department, and ignores unknown departments', () => {
    expect(dataScopeOf([role(3), role(4)], [], company)).toEqual({ all: false, self: false, orgIds: [] })
    expect(dataScopeOf([role(2, [99]), role(3)], [98], company)).toEqual({
      all: false,
      self: false,
      orgIds: [],
    })
    expect(dataScopeOf([], [1], company)).toEqual({ all: false, self: false, orgIds: [] })
  })

  it('reads an unknown scope value as 全部数据, as stored roles did before scopes', () => {
    expect(dataScopeOf([role(0)], [], company).all).toBe(true)
    expect(dataScopeLabel(9)).toBe('全部数据')
    expect(dataScopeLabel(DATA_SCOPE.ownOrgTree)).toBe('本部门及以下')
  })

  it('stops at a cycle in a damaged tree', () => {
    const looped = deptTree([
      [1, 2],
      [2, 1],
    ])
    expect(dataScopeOf([role(4)], [1], looped).orgIds).toEqual([1, 2])
  })
})

/** A random forest of up to 30 departments: each one's parent is an earlier one or none. */
const forest = fc
  .array(fc.nat(), { minLength: 1, maxLength: 30 })
  .map((picks) =>
    deptTree(picks.map((p, i): [number, number | null] => [i + 1, p % (i + 1) === 0 ? null : p % (i + 1)])),
  )
const roleScope = fc.record({
  dataScope: fc.integer({ min: 1, max: 5 }),
  scopeOrgIds: fc.array(fc.integer({ min: 1, max: 32 }), { maxLength: 4 }),
})
const ownOrgs = fc.array(fc.integer({ min: 1, max: 32 }), { maxLength: 3 })

describe('dataScopeOf with a lone department first', () => {
  it('本部门 of a department and 自定义 of its parent reach the whole subtree, in either order', () => {
    // 本部门 adds 5 alone; 自定义 of 2 must still reach 7 below 5 (a walk stopping at 5 missed it)
    const own = role(3)
    const custom = role(2, [2])
    for (const roles of [
      [own, custom],
      [custom, own],
    ])
      expect(dataScopeOf(roles, [5], company).orgIds).toEqual([2, 4, 5, 7])
  })
})

describe('dataScopeOf properties', () => {
  it('shuffled role order (and own departments order) gives the same scope', () => {
    fc.assert(
      fc.property(
        forest,
        fc.array(roleScope, { maxLength: 6 }),
        ownOrgs,
        fc.infiniteStream(fc.nat()),
        (tree, roles, own, noise) => {
          const shuffle = <T>(list: readonly T[]) =>
            list
              .map((x) => [noise.next().value, x] as const)
              .sort((a, b) => a[0] - b[0])
              .map(([, x]) => x)
          expect(dataScopeOf(shuffle(roles), shuffle(own), tree)).toEqual(dataScopeOf(roles, own, tree))
        },
      ),
    )
  })

  it('orgIds are sorted, unique, and closed under 2 and 4 subtrees', () => {
    fc.assert(
      fc.property(forest, fc.array(roleScope, { maxLength: 4 }), ownOrgs, (tree, roles, own) => {
        const scope = dataScopeOf(roles, own, tree)
        expect(scope.orgIds).toEqual([...new Set(scope.orgIds)].sort((a, b) => a - b))
        for (const r of roles) {
          const sub = new Set<number>()
          if (r.dataScope === 2) r.scopeOrgIds.forEach((id) => addSubtree(tree, id, sub))
          if (r.dataScope === 4) own.forEach((id) => addSubtree(tree, id, sub))
          for (const id of sub) expect(scope.all || scope.orgIds.includes(id)).toBe(true)
        }
      }),
    )
  })
})

/** What a scope reaches, spelled out: every department, and "self". */
const reached = (s: DataScope, tree: DeptTree): Set<string> =>
  s.all
    ? new Set(['self', ...[...tree.parents.keys()].map(String)])
    : new Set([...(s.self ? ['self'] : []), ...s.orgIds.map(String)])

describe('coversScope and coversScopeGrant (DESIGN.md §13: one function decides reach covering)', () => {
  const scope = (roles: RoleScope[], own: number[]) => dataScopeOf(roles, own, company)

  it('decides each rule both ways', () => {
    const wholeCompany = scope([role(1)], [])
    const rnd = scope([role(4)], [2]) // 研发中心及以下
    const backEnd = scope([role(3)], [5])
    // 1 only by holders of 1
    expect(coversScopeGrant(wholeCompany, role(1), [], company)).toBe(true)
    expect(coversScopeGrant(rnd, role(1), [4], company)).toBe(false)
    // 2 only for departments within the caller's scope
    expect(coversScopeGrant(rnd, role(2, [5]), [], company)).toBe(true)
    expect(coversScopeGrant(rnd, role(2, [5, 3]), [], company)).toBe(false)
    expect(coversScopeGrant(backEnd, role(2, [5]), [], company)).toBe(false) // 5's subtree holds 7
    // 4 only when the caller reaches the whole subtree below the holder's departments
    expect(coversScopeGrant(rnd, role(4), [5], company)).toBe(true)
    expect(coversScopeGrant(backEnd, role(4), [5], company)).toBe(false)
    expect(coversScopeGrant(rnd, role(4), [5, 6], company)).toBe(false)
    // 3 and 5 for a holder within the caller's reach
    expect(coversScopeGrant(backEnd, role(3), [5], company)).toBe(true)
    expect(coversScopeGrant(backEnd, role(5), [5], company)).toBe(true)
    expect(coversScopeGrant(backEnd, role(3), [6], company)).toBe(false)
    expect(coversScopeGrant(rnd, role(5), [4, 6], company)).toBe(false)
    // a holder with no department: 仅本人 by 全部数据 only
    expect(coversScopeGrant(rnd, role(5), [], company)).toBe(false)
    expect(coversScopeGrant(wholeCompany, role(5), [], company)).toBe(true)
  })

  it('coversScope: all only by all, self by self, departments by departments', () => {
    const all = scope([role(1)], [])
    const self = scope([role(5)], [])
    const rnd = scope([role(4)], [2])
    expect(coversScope(all, rnd)).toBe(true)
    expect(coversScope(rnd, all)).toBe(false)
    expect(coversScope(rnd, self)).toBe(false)
    expect(coversScope(self, self)).toBe(true)
    expect(coversScope(rnd, scope([role(3)], [4]))).toBe(true)
    expect(coversScope(scope([role(3)], [4]), rnd)).toBe(false)
  })

  const scopeIn = (tree: DeptTree) =>
    fc
      .tuple(fc.array(roleScope, { maxLength: 3 }), ownOrgs)
      .map(([roles, own]) => dataScopeOf(roles, own, tree))

  it('is reflexive and transitive, and never lets a wider scope be covered by a narrower one', () => {
    fc.assert(
      fc.property(
        forest.chain((tree) => fc.tuple(fc.constant(tree), scopeIn(tree), scopeIn(tree), scopeIn(tree))),
        ([tree, a, b, c]) => {
          expect(coversScope(a, a)).toBe(true)
          if (coversScope(a, b) && coversScope(b, c)) expect(coversScope(a, c)).toBe(true)
          if (coversScope(a, b)) {
            const ra = reached(a, tree)
            for (const x of reached(b, tree)) expect(ra.has(x)).toBe(true)
          }
        },
      ),
    )
  })

  it('a covered grant never gives a holder a department beyond the caller', () => {
    fc.assert(
      fc.property(
        forest.chain((tree) => fc.tuple(fc.constant(tree), scopeIn(tree), roleScope, ownOrgs)),
        ([tree, held, grant, target]) => {
          if (!coversScopeGrant(held, grant, target, tree)) return
          const given = dataScopeOf([grant], target, tree)
          if (given.all) expect(held.all).toBe(true)
          for (const id of given.orgIds) expect(held.all || held.orgIds.includes(id)).toBe(true)
        },
      ),
    )
  })
})

describe('X-Auth-Data-Scope (DESIGN.md §13)', () => {
  it('says all, self, whole subtrees by their root and lone departments one by one', () => {
    expect(formatScopeHeader({ all: true, self: false, orgIds: [] }, company)).toBe('all')
    expect(formatScopeHeader({ all: false, self: true, orgIds: [] }, company)).toBe('self')
    expect(formatScopeHeader({ all: false, self: false, orgIds: [2, 4, 5, 7] }, company)).toBe('tree:2')
    expect(formatScopeHeader({ all: false, self: true, orgIds: [2, 4, 5, 7] }, company)).toBe('self,tree:2')
    // 2 without 4: 2 alone, 5's subtree whole
    expect(formatScopeHeader({ all: false, self: false, orgIds: [2, 5, 7] }, company)).toBe('org:2,tree:5')
    expect(formatScopeHeader({ all: false, self: false, orgIds: [5] }, company)).toBe('org:5')
    expect(formatScopeHeader({ all: false, self: false, orgIds: [4, 6] }, company)).toBe('tree:4,tree:6')
    expect(formatScopeHeader({ all: false, self: false, orgIds: [] }, company)).toBe('none')
    expect(parseScopeHeader('none')).toMatchObject({ all: false, self: false, orgIds: [], treeIds: [] })
  })

  it('is too-large beyond 4 KB', () => {
    // 2000 departments under one root, every second one in scope: no subtree is whole
    const wide = deptTree([
      [1, null],
      ...Array.from({ length: 2000 }, (_, i): [number, number] => [i + 2, 1]),
    ])
    const orgIds = Array.from({ length: 1000 }, (_, i) => 2 + 2 * i)
    expect(formatScopeHeader({ all: false, self: false, orgIds }, wide)).toBe('too-large')
    expect(
      formatScopeHeader({ all: false, self: false, orgIds: orgIds.slice(0, 10) }, wide).length,
    ).toBeLessThan(DATA_SCOPE_HEADER_MAX)
    expect(parseScopeHeader('too-large').tooLarge).toBe(true)
  })

  it('reads back to the same departments (property)', () => {
    fc.assert(
      fc.property(
        forest.chain((tree) =>
          fc.tuple(
            fc.constant(tree),
            fc
              .array(roleScope, { maxLength: 3 })
              .chain((roles) => ownOrgs.map((own) => dataScopeOf(roles, own, tree))),
          ),
        ),
        ([tree, scope]) => {
          const parsed = parseScopeHeader(formatScopeHeader(scope, tree))
          expect(parsed.all).toBe(scope.all)
          if (scope.all) return
          const back = new Set(parsed.orgIds)
          for (const id of parsed.treeIds) addSubtree(tree, id, back)
          expect([...back].sort((a, b) => a - b)).toEqual(scope.orgIds)
          expect(parsed.self).toBe(scope.self)
        },
      ),
    )
  })
})
