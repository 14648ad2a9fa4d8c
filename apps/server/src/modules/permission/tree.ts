import { eq, inArray, sql } from 'drizzle-orm'
import { beyondPowerMessage, type AuthNode, type AuthTreeNode } from '@amg/contract'
import { queryRows, type Db, type DbOrTx } from '../../db/connection'
import { auths } from '../../db/schema'
import { notFound } from '../../lib/errors'
import type { NodePower } from '../../auth/power'
import { AUTH_NOT_FOUND } from './messages'

/** The permission tree as it is read: the whole tree, one node, a subtree's codes. */

type AuthRow = typeof auths.$inferSelect

function toNode(row: AuthRow, isLeaf: boolean): AuthNode {
  return {
    code: row.code,
    parentCode: row.parentCode,
    level: row.level,
    chName: row.chName,
    enName: row.enName,
    description: row.description,
    seq: row.seq,
    uniqueKey: row.uniqueKey,
    type: row.type,
    status: row.status,
    frontEndAccessList: row.frontEndAccess.join(','),
    frontEndAccesss: row.frontEndAccess.map((frontEndAccess) => ({ frontEndAccess })),
    urlPatternInfos: row.urlPatternInfos.map((p) => ({ method: p.method, uri: p.uri })),
    isLeaf,
    createTime: row.createTime,
    updateTime: row.updateTime,
  } as unknown as AuthNode
}

const bySeqThenCode = (a: AuthRow, b: AuthRow) =>
  a.seq - b.seq || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)

/** The whole tree, siblings ordered by seq then code. A node whose parent is missing is shown at the top. */
export async function authTree(db: Db): Promise<AuthTreeNode[]> {
  const rows = await db.select().from(auths)
  const codes = new Set(rows.map((r) => r.code))
  const childrenOf = new Map<string | null, AuthRow[]>()
  for (const r of rows) {
    const parent = r.parentCode && codes.has(r.parentCode) ? r.parentCode : null
    const list = childrenOf.get(parent) ?? []
    list.push(r)
    childrenOf.set(parent, list)
  }
  const build = (parent: string | null, seen: Set<string>): AuthTreeNode[] =>
    (childrenOf.get(parent) ?? [])
      .filter((r) => !seen.has(r.code))
      .sort(bySeqThenCode)
      .map((r) => {
        seen.add(r.code)
        const children = build(r.code, seen)
        return { ...toNode(r, children.length === 0), children }
      })
  return build(null, new Set())
}

/**
 * Marks every node with whether the caller may grant it (DESIGN.md §6a), and when not, the
 * refusal a role save holding it would answer.
 */
export function markTreeGrantable(
  nodes: AuthTreeNode[],
  lacked: ReadonlyMap<string, string>,
): AuthTreeNode[] {
  return nodes.map((node) => {
    const name = lacked.get(node.code)
    return {
      ...node,
      grantable: name === undefined,
      denyReason: name === undefined ? null : beyondPowerMessage([name]),
      children: markTreeGrantable(node.children, lacked),
    }
  })
}

export async function authDetail(db: Db, code: string): Promise<AuthNode> {
  const [row] = await db.select().from(auths).where(eq(auths.code, code))
  if (!row) throw notFound(AUTH_NOT_FOUND)
  const [child] = await db.select({ code: auths.code }).from(auths).where(eq(auths.parentCode, code)).limit(1)
  return toNode(row, !child)
}

/** Stored nodes as they would be in `service` (a subtree moving between services). */
export async function storedNodesIn(tx: DbOrTx, codes: string[], service: string): Promise<NodePower[]> {
  if (codes.length === 0) return []
  const rows = await tx
    .select({ chName: auths.chName, frontEnd: auths.frontEndAccess, backEnd: auths.urlPatternInfos })
    .from(auths)
    .where(inArray(auths.code, codes))
  return rows.map((r) => ({ ...r, service }))
}

/** The node and every node below it. */
export async function subtreeCodes(tx: DbOrTx, code: string): Promise<string[]> {
  const rows = await queryRows<{ code: string }>(
    tx,
    sql`with recursive sub(code) as (
          select code from auths where code = ${code}
          union
          select a.code from auths a join sub on a.parent_code = sub.code
        ) select code from sub`,
  )
  return rows.map((r) => r.code)
}
