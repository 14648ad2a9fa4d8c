/**
 * Data scope (数据权限, DESIGN.md §13): how much of the company's data a role reaches for the calls it
 * allows, and the scope of one call for one user, the union over the roles that allow it. Pure: the
 * server computes it from what it holds in memory, the console shows the same labels, and a test can
 * hold either to it. Kept free of the schema library so the console can import it cheaply.
 */

/** A role's data scope; every existing role and every super-admin role is `all`. */
export const DATA_SCOPE = { all: 1, custom: 2, ownOrg: 3, ownOrgTree: 4, self: 5 } as const
export type DataScopeValue = (typeof DATA_SCOPE)[keyof typeof DATA_SCOPE]

export const DATA_SCOPE_LABEL: Readonly<Record<DataScopeValue, string>> = {
  1: '全部数据',
  2: '自定义部门',
  3: '本部门',
  4: '本部门及以下',
  5: '仅本人',
}

export const DATA_SCOPE_VALUES: readonly DataScopeValue[] = [1, 2, 3, 4, 5]

/** What one role contributes: its scope and, for `custom`, the departments chosen (each with everything below it). */
export interface RoleScope {
  dataScope: number
  scopeOrgIds: readonly number[]
}

/**
 * The scope of a call: everything (`all`), or the user's own records (`self`) and/or the records of
 * the departments in `orgIds` (sorted, subtrees already resolved). `all` makes the others moot, and
 * they are then empty.
 */
export interface DataScope {
  all: boolean
  self: boolean
  orgIds: number[]
}

export const ALL_DATA: Readonly<DataScope> = Object.freeze({ all: true, self: false, orgIds: [] as number[] })
export const NO_DATA: Readonly<DataScope> = Object.freeze({ all: false, self: false, orgIds: [] as number[] })

/**
 * The department tree as the scope reads it: each department's children. Build it once per snapshot
 * of the departments with `deptTree` and reuse it.
 */
export interface DeptTree {
  readonly children: ReadonlyMap<number, readonly number[]>
  /** every department's parent (null at the top) */
  readonly parents: ReadonlyMap<number, number | null>
}

/** The tree from each department's parent. */
export function deptTree(parents: Iterable<readonly [number, number | null]>): DeptTree {
  const parentMap = new Map<number, number | null>()
  const children = new Map<number, number[]>()
  for (const [id, parent] of parents) {
    parentMap.set(id, parent)
    if (parent !== null) {
      const list = children.get(parent)
      if (list) list.push(id)
      else children.set(parent, [id])
    }
  }
  return { children, parents: parentMap }
}

/**
 * Adds `root` and everything below it to `into` (iterative: a deep tree cannot overflow the stack; a
 * cycle stops). A department already in `into` may be there alone (本部门 adds no subtree), so the walk
 * keeps its own record of where it has been rather than stopping at what `into` already holds.
 */
export function addSubtree(tree: DeptTree, root: number, into: Set<number>): void {
  if (!tree.parents.has(root)) return
  const seen = new Set<number>([root])
  const stack = [root]
  while (stack.length) {
    const id = stack.pop()!
    into.add(id)
    for (const child of tree.children.get(id) ?? [])
      if (!seen.has(child)) {
        seen.add(child)
        stack.push(child)
      }
  }
}

/** Ascending numbers, without repeats. */
const sortedIds = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b)

/**
 * The scope of a call: the union over `roles`, the roles of the user's that allow the call (roles
 * that do not allow it must not be passed: they add nothing). `ownOrgIds`: the departments of the
 * user's enabled positions. Departments not in the tree are ignored. The answer does not depend on
 * the order of `roles` or of any list.
 */
export function dataScopeOf(
  roles: readonly RoleScope[],
  ownOrgIds: readonly number[],
  tree: DeptTree,
): DataScope {
  const orgs = new Set<number>()
  let self = false
  for (const role of roles) {
    switch (role.dataScope) {
      case DATA_SCOPE.custom:
        for (const id of role.scopeOrgIds) addSubtree(tree, id, orgs)
        break
      case DATA_SCOPE.ownOrg:
        for (const id of ownOrgIds) if (tree.parents.has(id)) orgs.add(id)
        break
      case DATA_SCOPE.ownOrgTree:
        for (const id of ownOrgIds) addSubtree(tree, id, orgs)
        break
      case DATA_SCOPE.self:
        self = true
        break
      default:
        // 1, and any value this version does not know, reads as 全部数据 (as stored roles did before scopes)
        return { ...ALL_DATA, orgIds: [] }
    }
  }
  return { all: false, self, orgIds: sortedIds(orgs) }
}

/** The label of a data scope; an unknown value reads as 全部数据, as the server treats it. */
export const dataScopeLabel = (value: number): string =>
  DATA_SCOPE_LABEL[value as DataScopeValue] ?? DATA_SCOPE_LABEL[DATA_SCOPE.all]
