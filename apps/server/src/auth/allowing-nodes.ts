import { matchesUrlPattern } from '@amg/contract'
import type { EffectiveAccess } from './access-load'
import type { TreeNode, TreeSnapshot } from './permission-tree'

/**
 * Which permission nodes allow a call a user's access allows (DESIGN.md §21: usage names the node, so
 * a review can say which roles a person has not used). The warm decision matches the user's patterns
 * without keeping which node each came from; this asks the tree the access was read against, once
 * per call and access: the answer is kept beside the access (a WeakMap, dropped with it), bounded as
 * the scope's call memo is, so a warm call costs one lookup.
 *
 * Every node that allows the call counts, not the first one: which role is credited must not depend
 * on the order of codes. A super admin's calls count against the nodes of the tree that match them
 * (a super-admin role holds no nodes of its own; its use is any use: modules/review/usage-of-roles.ts).
 */
const memos = new WeakMap<EffectiveAccess, Map<string, readonly string[]>>()

/** Calls remembered per access before the memo starts afresh (paths with ids in them are endless). */
const CALLS_REMEMBERED = 512

const NONE: readonly string[] = []

export function nodesAllowing(
  access: EffectiveAccess,
  tree: TreeSnapshot,
  service: string,
  method: string,
  path: string,
): readonly string[] {
  let memo = memos.get(access)
  if (!memo) memos.set(access, (memo = new Map()))
  const key = `${service} ${method} ${path}`
  let codes = memo.get(key)
  if (codes === undefined) {
    codes = codesWhoseNode(
      access,
      tree,
      (node) =>
        node.service === service && node.urlPatternInfos.some((p) => matchesUrlPattern(p, method, path)),
    )
    if (memo.size >= CALLS_REMEMBERED) memo.clear()
    memo.set(key, codes)
  }
  return codes
}

/** The access's codes (a super admin's: every enabled node's) whose enabled node `allows` the call. */
function codesWhoseNode(
  access: EffectiveAccess,
  tree: TreeSnapshot,
  allows: (node: TreeNode) => boolean,
): readonly string[] {
  const found: string[] = []
  const consider = (code: string) => {
    const node = tree.enabled.get(code)
    if (node && allows(node)) found.push(code)
  }
  if (access.superAdmin) for (const code of tree.enabled.keys()) consider(code)
  else for (const code of access.authCodes) consider(code)
  return found.length ? found : NONE
}
