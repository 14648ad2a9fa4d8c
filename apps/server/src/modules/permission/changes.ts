import { eq, sql } from 'drizzle-orm'
import { MSG, type AuthInsertBody, type AuthUpdateBody } from '@amg/contract'
import { queryRows, type Db, type DbOrTx } from '../../db/connection'
import { auths, services } from '../../db/schema'
import { badRequest, conflict, notFound } from '../../lib/errors'
import { rethrowUnique } from '../../lib/unique-violation'
import type { PowerGuard } from '../../auth/power'
import { serviceUnder, type Authorizer } from '../../auth/authorizer'
import { clean, nodePower, type CleanAuth } from './form'
import {
  AUTH_NOT_FOUND,
  DELETE_HAS_CHILDREN,
  MOVE_UNDER_ITSELF,
  PARENT_NOT_FOUND,
  UNIQUE_KEY_EXISTS,
} from './messages'
import { storedNodesIn, subtreeCodes } from './tree'

/** Creating, changing and deleting permission nodes. */

/** What a node's creation or change is checked by: the permission tree's services and the power check. */
export interface NodeEditor {
  db: Db
  authz: Authorizer
  power: PowerGuard
}

async function parentLevel(tx: DbOrTx, parentCode: string | null): Promise<number> {
  if (parentCode === null) return 0
  const [parent] = await tx.select({ level: auths.level }).from(auths).where(eq(auths.code, parentCode))
  if (!parent) throw badRequest(PARENT_NOT_FOUND)
  return parent.level
}

/** The index catches what checkUniqueKey cannot: two requests passing it at the same moment. */
const onUniqueKeyTaken = rethrowUnique({ auths_unique_key_key: UNIQUE_KEY_EXISTS })

/** A node saved from its form in one transaction; a unique key taken meanwhile answers as checkUniqueKey does. */
async function saveNode<T>(db: Db, body: AuthInsertBody, save: (tx: DbOrTx, data: CleanAuth) => Promise<T>) {
  const data = clean(body)
  return db.transaction((tx) => save(tx, data)).catch(onUniqueKeyTaken)
}

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

/** The service whose root this node is, if any (ams has none). */
async function serviceRootedAt(tx: DbOrTx, code: string): Promise<string | undefined> {
  const [row] = await tx.select({ key: services.key }).from(services).where(eq(services.rootCode, code))
  return row?.key
}

export async function insertAuth({ db, authz, power }: NodeEditor, body: AuthInsertBody, operatorId: number) {
  return saveNode(db, body, async (tx, data) => {
    // the new node belongs to its parent's service: the caller must hold its power there
    const service = serviceUnder(await authz.loadTree(tx), data.parentCode)
    await power.require(tx, operatorId, { nodes: [nodePower(data, service)] })
    const level = (await parentLevel(tx, data.parentCode)) + 1
    await checkUniqueKey(tx, data.uniqueKey, null)
    const code = await nextCode(tx)
    await tx.insert(auths).values({ code, level, ...data })
    return code
  })
}

/**
 * Updates a node. Moving it under another parent recomputes its level and its whole subtree's;
 * a node cannot move under itself or one of its descendants, and a service's root stays at the top.
 * A status change or a move enables or disables the whole subtree, so the power check covers every
 * node below, as stored, and the node as it will be. A move into another service's subtree moves
 * power between namespaces (DESIGN.md §10a): the caller must also cover the whole subtree as it
 * will be in the new service.
 */
export async function updateAuth({ db, authz, power }: NodeEditor, body: AuthUpdateBody, operatorId: number) {
  await saveNode(db, body, async (tx, data) => {
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
