import { AMS_SERVICE_KEY, type UrlPattern } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import { auths, services } from '../db/schema'

export interface TreeNode {
  code: string
  chName: string
  parentCode: string | null
  status: number
  frontEndAccess: string[]
  urlPatternInfos: UrlPattern[]
  /** the key of the service whose subtree holds the node */
  service: string
}

/**
 * The permission tree as decisions read it: which service owns each node, and the enabled nodes. A
 * service owns the subtree of its root (a top-level node); ams owns every node in no other service's
 * subtree, so today's whole tree is ams's without being moved (docs/decisions.md).
 */
export interface TreeSnapshot {
  /**
   * every stored node by code, whatever its status: the power check counts stored power (DESIGN.md
   * §6a), since a disabled node gives its power the moment someone enables it
   */
  stored: Map<string, TreeNode>
  /** enabled nodes only: a disabled node disables its whole subtree */
  enabled: Map<string, TreeNode>
  /** every node's service, enabled or not */
  serviceOf: ReadonlyMap<string, string>
  /** every service's key and root code (null for ams) */
  services: ReadonlyMap<string, string | null>
}

/** The service a node would belong to under `parentCode` (ams at the top, unless it is a service's root). */
export function serviceUnder(tree: TreeSnapshot, parentCode: string | null): string {
  return parentCode === null ? AMS_SERVICE_KEY : (tree.serviceOf.get(parentCode) ?? AMS_SERVICE_KEY)
}

/** The permission tree and the services, as stored now (or as `db`, a transaction, sees them). */
export async function readPermissionTree(db: DbOrTx): Promise<TreeSnapshot> {
  const rows = await db
    .select({
      code: auths.code,
      chName: auths.chName,
      parentCode: auths.parentCode,
      status: auths.status,
      frontEndAccess: auths.frontEndAccess,
      urlPatternInfos: auths.urlPatternInfos,
    })
    .from(auths)
  const serviceRows = await db.select({ key: services.key, rootCode: services.rootCode }).from(services)
  return buildSnapshot(rows, serviceRows)
}

type NodeRow = Omit<TreeNode, 'service'>

/** Each node's service (by its top-level ancestor) and the enabled nodes, from the rows as read. */
function buildSnapshot(
  rows: readonly NodeRow[],
  serviceRows: readonly { key: string; rootCode: string | null }[],
): TreeSnapshot {
  const byCode = new Map(rows.map((r) => [r.code, r]))
  const ownerOfRoot = new Map<string, string>()
  for (const s of serviceRows) if (s.rootCode !== null) ownerOfRoot.set(s.rootCode, s.key)
  const serviceOf = new Map<string, string>()
  const serviceFor = (node: NodeRow): string => {
    const known = serviceOf.get(node.code)
    if (known !== undefined) return known
    // up to the top (a cycle, which the tree calls refuse, stops where it closes)
    const path: NodeRow[] = []
    const seen = new Set<string>()
    let top: NodeRow = node
    for (;;) {
      path.push(top)
      seen.add(top.code)
      const parent = top.parentCode ? byCode.get(top.parentCode) : undefined
      if (!parent || seen.has(parent.code)) break
      const cached = serviceOf.get(parent.code)
      if (cached !== undefined) {
        for (const n of path) serviceOf.set(n.code, cached)
        return cached
      }
      top = parent
    }
    const service = ownerOfRoot.get(top.code) ?? AMS_SERVICE_KEY
    for (const n of path) serviceOf.set(n.code, service)
    return service
  }
  const stored = new Map<string, TreeNode>()
  const enabled = new Map<string, TreeNode>()
  const isEnabled = (node: NodeRow, seen = new Set<string>()): boolean => {
    if (node.status !== 1 || seen.has(node.code)) return false
    if (!node.parentCode) return true
    const parent = byCode.get(node.parentCode)
    seen.add(node.code)
    return !!parent && isEnabled(parent, seen)
  }
  for (const row of rows) {
    const node = { ...row, service: serviceFor(row) }
    stored.set(node.code, node)
    if (isEnabled(row)) enabled.set(node.code, node)
  }
  return {
    stored,
    enabled,
    serviceOf,
    services: new Map(serviceRows.map((s) => [s.key, s.rootCode])),
  }
}
