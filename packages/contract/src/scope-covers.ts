import { addSubtree, DATA_SCOPE, type DataScope, type DeptTree, type RoleScope } from './data-scope'

/**
 * Reach covering (DESIGN.md §13, extending §6a): a caller may give someone a permission only with no
 * more reach than the caller's own for it. The caller's reach is the scope of that permission's
 * calls for them (`dataScopeOf`); what is given is a role's scope, for one holder (the target).
 */

/**
 * Whether `held` reaches everything `wanted` reaches: `all` only by `all`; each department of
 * `wanted` in `held`; `self` (the subject's own records) by `all` or `self`. Reflexive and
 * transitive; never true for a wider scope under a narrower one.
 */
export function coversScope(held: DataScope, wanted: DataScope): boolean {
  if (held.all) return true
  if (wanted.all) return false
  if (wanted.self && !held.self) return false
  if (wanted.orgIds.length === 0) return true
  const reach = new Set(held.orgIds)
  return wanted.orgIds.every((id) => reach.has(id))
}

/**
 * The departments a role scope reaches for a holder whose own departments are `targetOrgIds`, or
 * `all`. `仅本人` reaches the holder's own records, which lie in the holder's departments; a holder
 * with no department is reached only by 全部数据 (DESIGN.md §13: users with no position only under 1).
 */
function grantReach(grant: RoleScope, targetOrgIds: readonly number[], tree: DeptTree): 'all' | Set<number> {
  const orgs = new Set<number>()
  switch (grant.dataScope) {
    case DATA_SCOPE.custom:
      for (const id of grant.scopeOrgIds) addSubtree(tree, id, orgs)
      return orgs
    case DATA_SCOPE.ownOrgTree:
      for (const id of targetOrgIds) addSubtree(tree, id, orgs)
      return orgs
    case DATA_SCOPE.ownOrg:
    case DATA_SCOPE.self:
      if (targetOrgIds.length === 0 && grant.dataScope === DATA_SCOPE.self) return 'all'
      for (const id of targetOrgIds) if (tree.parents.has(id)) orgs.add(id)
      return orgs
    default:
      return 'all'
  }
}

/**
 * Whether a caller whose reach for a permission is `held` may give `grant` with it to a holder whose
 * own departments are `targetOrgIds` (the one rule of DESIGN.md §13): 全部数据 only by holders of
 * 全部数据; 自定义部门 only for departments (each with its subtree) within the caller's scope;
 * 本部门及以下 only when the caller's scope holds the whole subtree below the holder's departments;
 * 本部门 and 仅本人 only for a holder whose departments are all within the caller's reach (a holder
 * with no department: 全部数据 only). When a role's scope changes, each of its holders is a target.
 */
export function coversScopeGrant(
  held: DataScope,
  grant: RoleScope,
  targetOrgIds: readonly number[],
  tree: DeptTree,
): boolean {
  if (held.all) return true
  const wanted = grantReach(grant, targetOrgIds, tree)
  if (wanted === 'all') return false
  const reach = new Set(held.orgIds)
  for (const id of wanted) if (!reach.has(id)) return false
  return true
}
