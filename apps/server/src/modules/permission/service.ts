import { eq, inArray, sql } from 'drizzle-orm'
import {
  beyondPowerMessage,
  MSG,
  splitFrontEndAccess,
  URL_PATTERN_METHODS,
  type AuthInsertBody,
  type AuthNode,
  type AuthTreeNode,
  type AuthUpdateBody,
  type UrlPatternInfo,
} from '@amg/contract'
import { queryRows, type Db, type DbOrTx } from '../../db/connection'
import { auths, services } from '../../db/schema'
import { badRequest, conflict, notFound } from '../../lib/errors'
import { rethrowUnique } from '../../lib/unique-violation'
import type { NodePower, PowerGuard } from '../../auth/power'
import { serviceUnder, type Authorizer } from '../../auth/authorizer'

type AuthRow = typeof auths.$inferSelect

export const AUTH_NOT_FOUND = '权限不存在'
export const PARENT_NOT_FOUND = '上级权限不存在'
export const DELETE_HAS_CHILDREN = '请先删除下级权限'
export const MOVE_UNDER_ITSELF = '不能把权限移动到它自己或它的下级之下'
export const UNIQUE_KEY_EXISTS = '唯一标识已存在'

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

interface CleanAuth {
  chName: string
  enName: string
  description: string | null
  frontEndAccess: string[]
  parentCode: string | null
  seq: number
  status: number
  type: number
  uniqueKey: string | null
  urlPatternInfos: UrlPatternInfo[]
}

const blankToNull = (v: string | null | undefined) =>
  v === undefined || v === null || v.trim() === '' ? null : v.trim()

/** Normalizes the form: trimmed texts, front-end patterns split and trimmed, methods upper-cased, duplicates dropped. */
function clean(body: AuthInsertBody): CleanAuth {
  const raw = Array.isArray(body.frontEndAccessList)
    ? body.frontEndAccessList.join(',')
    : body.frontEndAccessList
  const frontEndAccess = [...new Set(splitFrontEndAccess(raw))]
  const badFront = frontEndAccess.find((p) => !p.startsWith('/'))
  if (badFront !== undefined) throw badRequest(`前端路由必须以 / 开头：${badFront}`)
  const urlPatternInfos: UrlPatternInfo[] = []
  for (const info of body.urlPatternInfos) {
    const method = info.method.trim().toUpperCase()
    const uri = info.uri.trim()
    if (!(URL_PATTERN_METHODS as readonly string[]).includes(method))
      throw badRequest(`不支持的请求方法：${info.method}`)
    if (!uri.startsWith('/')) throw badRequest(`后端接口必须以 / 开头：${info.uri}`)
    if (!urlPatternInfos.some((p) => p.method === method && p.uri === uri))
      urlPatternInfos.push({ method, uri })
  }
  return {
    chName: body.chName.trim(),
    enName: body.enName.trim(),
    description: blankToNull(body.description),
    frontEndAccess,
    parentCode: blankToNull(body.parentCode),
    seq: body.seq ?? 1,
    status: body.status,
    type: body.type,
    uniqueKey: blankToNull(body.uniqueKey),
    urlPatternInfos,
  }
}

async function parentLevel(tx: DbOrTx, parentCode: string | null): Promise<number> {
  if (parentCode === null) return 0
  const [parent] = await tx.select({ level: auths.level }).from(auths).where(eq(auths.code, parentCode))
  if (!parent) throw badRequest(PARENT_NOT_FOUND)
  return parent.level
}

/** The index catches what checkUniqueKey cannot: two requests passing it at the same moment. */
const onUniqueKeyTaken = rethrowUnique({ auths_unique_key_key: UNIQUE_KEY_EXISTS })

async function checkUniqueKey(tx: DbOrTx, uniqueKey: string | null, ownCode: string | null) {
  if (uniqueKey === null) return
  const [other] = await tx
    .select({ code: auths.code })
    .from(auths)
    .where(eq(auths.uniqueKey, uniqueKey))
    .limit(1)
  if (other && other.code !== ownCode) throw conflict(UNIQUE_KEY_EXISTS)
}

/** The next free generated code: 'AUTH' + the zero-padded next value of auth_code_seq. */
export async function nextCode(tx: DbOrTx): Promise<string> {
  for (;;) {
    const [row] = await queryRows<{ n: string | number }>(tx, sql`select nextval('auth_code_seq') as n`)
    const code = `AUTH${String(row.n).padStart(6, '0')}`
    const [taken] = await tx.select({ code: auths.code }).from(auths).where(eq(auths.code, code))
    if (!taken) return code
  }
}

/** A node as the power check sees it (DESIGN.md §6a): its name and patterns, in its service. */
const nodePower = (data: CleanAuth, service: string): NodePower => ({
  chName: data.chName,
  frontEnd: data.frontEndAccess,
  backEnd: data.urlPatternInfos,
  service,
})

/** The service whose root this node is, if any (ams has none). */
async function serviceRootedAt(tx: DbOrTx, code: string): Promise<string | undefined> {
  const [row] = await tx.select({ key: services.key }).from(services).where(eq(services.rootCode, code))
  return row?.key
}

export async function insertAuth(
  db: Db,
  authz: Authorizer,
  power: PowerGuard,
  body: AuthInsertBody,
  operatorId: number,
): Promise<string> {
  const data = clean(body)
  return db
    .transaction(async (tx) => {
      // the new node belongs to its parent's service: the caller must hold its power there
      const service = serviceUnder(await authz.loadTree(tx), data.parentCode)
      await power.require(tx, operatorId, { nodes: [nodePower(data, service)] })
      const level = (await parentLevel(tx, data.parentCode)) + 1
      await checkUniqueKey(tx, data.uniqueKey, null)
      const code = await nextCode(tx)
      await tx.insert(auths).values({ code, level, ...data })
      return code
    })
    .catch(onUniqueKeyTaken)
}

/**
 * Updates a node. Moving it under another parent recomputes its level and its whole subtree's;
 * a node cannot move under itself or one of its descendants, and a service's root stays at the top.
 * A status change or a move enables or disables the whole subtree, so the power check covers every
 * node below, as stored, and the node as it will be. A move into another service's subtree moves
 * power between namespaces (DESIGN.md §10a): the caller must also cover the whole subtree as it
 * will be in the new service.
 */
export async function updateAuth(
  db: Db,
  authz: Authorizer,
  power: PowerGuard,
  body: AuthUpdateBody,
  operatorId: number,
): Promise<void> {
  const data = clean(body)
  await db
    .transaction(async (tx) => {
      const [current] = await tx.select().from(auths).where(eq(auths.code, body.code))
      if (!current) throw notFound(AUTH_NOT_FOUND)
      const rootOf = await serviceRootedAt(tx, current.code)
      if (rootOf !== undefined && data.parentCode !== null) throw badRequest(MSG.serviceRootFixed)
      const tree = await authz.loadTree(tx)
      const subtree = await subtreeCodes(tx, current.code)
      const movedTo = rootOf ?? serviceUnder(tree, data.parentCode)
      const movedBelow =
        movedTo === tree.serviceOf.get(current.code)
          ? []
          : await storedNodesIn(
              tx,
              subtree.filter((c) => c !== current.code),
              movedTo,
            )
      await power.require(tx, operatorId, {
        authCodes: subtree,
        nodes: [nodePower(data, movedTo), ...movedBelow],
      })
      let level = current.level
      if (data.parentCode !== current.parentCode) {
        if (data.parentCode !== null && subtree.includes(data.parentCode)) throw badRequest(MOVE_UNDER_ITSELF)
        level = (await parentLevel(tx, data.parentCode)) + 1
      }
      await checkUniqueKey(tx, data.uniqueKey, current.code)
      await tx
        .update(auths)
        .set({ ...data, level, updateTime: new Date() })
        .where(eq(auths.code, current.code))
      const delta = level - current.level
      if (delta !== 0) {
        const below = subtree.filter((c) => c !== current.code)
        if (below.length)
          await tx.execute(
            sql`update auths set level = level + ${delta} where code in (${sql.join(
              below.map((c) => sql`${c}`),
              sql`, `,
            )})`,
          )
      }
    })
    .catch(onUniqueKeyTaken)
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

/** Deletes a leaf node; its role grants go with it (role_auths cascades). A node with children is refused. */
export async function deleteAuth(db: Db, power: PowerGuard, code: string, operatorId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select({ code: auths.code }).from(auths).where(eq(auths.code, code))
    if (!current) throw notFound(AUTH_NOT_FOUND)
    const [child] = await tx
      .select({ code: auths.code })
      .from(auths)
      .where(eq(auths.parentCode, code))
      .limit(1)
    if (child) throw conflict(DELETE_HAS_CHILDREN)
    if ((await serviceRootedAt(tx, code)) !== undefined) throw conflict(MSG.serviceRootDelete)
    await power.require(tx, operatorId, { authCodes: [code] })
    await tx.delete(auths).where(eq(auths.code, code))
  })
}
