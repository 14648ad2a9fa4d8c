import { count, desc, eq, isNull, like, or, sql } from 'drizzle-orm'
import {
  checkServiceKey,
  MSG,
  type PageResult,
  type ServiceInsertBody,
  type ServiceListBody,
  type ServiceRow,
  type ServiceUpdateBody,
} from '@amg/contract'
import type { Db, DbOrTx } from '../../db/connection'
import { auths, oidcClients, services } from '../../db/schema'
import type { PowerGuard } from '../../auth/power'
import { badRequest, conflict, notFound } from '../../lib/errors'
import { keywordIn, prefixPattern } from '../../lib/like'
import { paging, pagedList } from '../../lib/paged'
import { rethrowUnique } from '../../lib/unique-violation'
import { storedNodesIn, subtreeCodes } from '../permission/tree'
import { MACHINE_TOKEN_TTL } from '../oidc/provider'
import { denyClientTokens } from '../oidc/token-denials'

/**
 * Services (DESIGN.md §10a): each owns the permission subtree under its root, a top-level node, and
 * its gateway asks `/api/authz/forward/<key>`. The built-in `ams` has no root: it owns every node in
 * no other service's subtree. So creating a service over an existing subtree moves that power out of
 * ams, and deleting one takes its (empty) root with it.
 */

const onTaken = rethrowUnique({
  services_key_key: MSG.serviceKeyTaken,
  // two services made with one key at the same moment reach the root's code first
  auths_pkey: MSG.serviceKeyTaken,
  services_root_code_key: MSG.serviceRootTaken,
})

export async function listServices(db: Db, body: ServiceListBody): Promise<PageResult<ServiceRow>> {
  const where = keywordIn(body.keyword, services.key, services.name)
  const page = await pagedList(
    paging(body),
    (limit, offset) =>
      db
        .select({
          id: services.id,
          key: services.key,
          name: services.name,
          rootCode: services.rootCode,
          rootName: auths.chName,
          builtIn: services.builtIn,
          createTime: services.createTime,
          updateTime: services.updateTime,
        })
        .from(services)
        .leftJoin(auths, eq(auths.code, services.rootCode))
        .where(where)
        // the built-in service first, then the newest
        .orderBy(desc(services.builtIn), desc(services.id))
        .limit(limit)
        .offset(offset),
    () => db.select({ total: count() }).from(services).where(where),
  )
  return { ...page, list: page.list.map((r) => ({ ...r, builtIn: r.builtIn === 1 })) }
}

/**
 * A new root's code, readable in the permission tree and in what a role grants: the key in capitals
 * (`billing` → `BILLING`). Codes are unique and compare exactly; one already taken (a node named so by
 * hand) gets the first free `-2`, `-3`, … after it.
 */
async function rootCodeFor(tx: DbOrTx, key: string): Promise<string> {
  const base = key.toUpperCase()
  const rows = await tx
    .select({ code: auths.code })
    .from(auths)
    .where(or(eq(auths.code, base), like(auths.code, prefixPattern(`${base}-`))))
  const taken = new Set(rows.map((r) => r.code))
  let code = base
  for (let n = 2; taken.has(code); n++) code = `${base}-${n}`
  return code
}

/** The top-level node a new service takes over: it exists, is at the top, and no service owns it. */
async function checkRoot(tx: DbOrTx, rootCode: string) {
  const [node] = await tx
    .select({ code: auths.code, parentCode: auths.parentCode })
    .from(auths)
    .where(eq(auths.code, rootCode))
  if (!node) throw badRequest(MSG.serviceRootNotFound)
  if (node.parentCode !== null) throw badRequest(MSG.serviceRootNotTop)
  const [owner] = await tx.select({ id: services.id }).from(services).where(eq(services.rootCode, rootCode))
  if (owner) throw conflict(MSG.serviceRootTaken)
}

export async function insertService(
  db: Db,
  power: PowerGuard,
  body: ServiceInsertBody,
  operatorId: number,
): Promise<number> {
  const key = body.key.trim()
  const keyProblem = checkServiceKey(key)
  if (keyProblem) throw badRequest(keyProblem)
  const name = body.name.trim()
  const rootCode = body.rootCode?.trim() || null
  return db
    .transaction(async (tx) => {
      const [taken] = await tx.select({ id: services.id }).from(services).where(eq(services.key, key))
      if (taken) throw conflict(MSG.serviceKeyTaken)
      let root: string
      if (rootCode !== null) {
        await checkRoot(tx, rootCode)
        // The subtree leaves ams's namespace for the new one: the caller must cover all of it, as it
        // is in ams (taken away) and as it will be in the new service (given).
        const subtree = await subtreeCodes(tx, rootCode)
        await power.require(tx, operatorId, {
          authCodes: subtree,
          nodes: await storedNodesIn(tx, subtree, key),
        })
        root = rootCode
      } else {
        // a new, empty top-level node named after the service: no power moves
        const [{ seq }] = await tx
          .select({ seq: sql<number>`coalesce(max(${auths.seq}), 0) + 1` })
          .from(auths)
          .where(isNull(auths.parentCode))
        root = await rootCodeFor(tx, key)
        await tx.insert(auths).values({
          code: root,
          parentCode: null,
          level: 1,
          chName: name,
          enName: key,
          type: 1,
          status: 1,
          seq: Number(seq),
        })
      }
      const [row] = await tx
        .insert(services)
        .values({ key, name, rootCode: root, createUserId: operatorId, updateUserId: operatorId })
        .returning({ id: services.id })
      return row.id
    })
    .catch(onTaken)
}

export async function updateService(db: Db, body: ServiceUpdateBody, operatorId: number): Promise<void> {
  const updated = await db
    .update(services)
    .set({ name: body.name.trim(), updateTime: new Date(), updateUserId: operatorId })
    .where(eq(services.id, body.id))
    .returning({ id: services.id })
  if (updated.length === 0) throw notFound(MSG.serviceNotFound)
}

/**
 * Deletes a service and its root node, once nothing is left below the root (409 before); the root's
 * role grants go with it. The built-in ams is never deleted.
 */
export async function deleteService(
  db: Db,
  power: PowerGuard,
  id: number,
  operatorId: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [service] = await tx
      .select({ id: services.id, key: services.key, rootCode: services.rootCode, builtIn: services.builtIn })
      .from(services)
      .where(eq(services.id, id))
    if (!service) throw notFound(MSG.serviceNotFound)
    if (service.builtIn === 1 || service.rootCode === null) throw conflict(MSG.serviceBuiltIn)
    const [child] = await tx
      .select({ code: auths.code })
      .from(auths)
      .where(eq(auths.parentCode, service.rootCode))
      .limit(1)
    if (child) throw conflict(MSG.serviceHasNodes)
    await power.require(tx, operatorId, { authCodes: [service.rootCode] })
    // its machine client's tokens end with it on every instance (DESIGN.md §19); a service made again
    // with the same key gives new ones
    const [client] = await tx
      .select({ type: oidcClients.type })
      .from(oidcClients)
      .where(eq(oidcClients.serviceId, id))
    if (client) await denyClientTokens(tx, service.key, MACHINE_TOKEN_TTL)
    await tx.delete(services).where(eq(services.id, id))
    await tx.delete(auths).where(eq(auths.code, service.rootCode))
  })
}
