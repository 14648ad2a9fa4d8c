import { and, eq, isNull, ne, sql } from 'drizzle-orm'
import { checkOrgName, MSG, type IdListInput, type OrgInsertBody, type OrgUpdateBody } from '@amg/contract'
import { queryRows, type Db, type DbOrTx, type Transactable } from '../../db/connection'
import { guardedChange } from '../../auth/super-admin-guard'
import type { PowerGuard } from '../../auth/power'
import { organizations, positions } from '../../db/schema'
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors'
import { orgInScope, type Caller } from '../../auth/user-scope'
import { rethrowUnique } from '../../lib/unique-violation'
import { sameName } from '../../lib/same-name'
import { ORG_MSG, stationsMissing } from './messages'
import { requireHoldersWritable } from '../position/holders'
import { syncPositions } from '../position/sync'
import { missingRecords } from '../links/existing'
import { idListOr } from '../links/ids'

/**
 * A scoped administrator changes departments only strictly below the roots of their scope (a root: a
 * department in scope whose parent is not): the department and its parent must both be in scope.
 */
function requireBelowScopeRoot(caller: Caller, org: { id: number; parent: number | null }) {
  if (!orgInScope(caller, org.id) || !orgInScope(caller, org.parent)) throw forbidden(MSG.orgOutOfScope)
}

function validName(value: string): string {
  const problem = checkOrgName(value)
  if (problem) throw badRequest(problem)
  return value.trim()
}

const parseStationIds = (value: IdListInput | null | undefined) => idListOr(value, ORG_MSG.stationIdsInvalid)

async function requireStations(tx: DbOrTx, ids: number[]) {
  const missing = await missingRecords(tx, 'station', ids)
  if (missing.length) throw notFound(stationsMissing(missing))
}

/** The index catches what requireUniqueSibling cannot: two requests passing it at the same moment. */
const onSiblingTaken = rethrowUnique({
  organizations_parent_name_key: ORG_MSG.siblingExists,
  organizations_parent_name_fold_key: ORG_MSG.siblingExists,
})

/** A department under `parent` named `name` (letter case aside), other than `exceptId`. */
const siblingNamed = (parent: number | null, name: string, exceptId?: number) =>
  and(
    parent === null ? isNull(organizations.parent) : eq(organizations.parent, parent),
    sameName(organizations.organizationName, name),
    exceptId === undefined ? undefined : ne(organizations.id, exceptId),
  )

async function requireUniqueSibling(tx: DbOrTx, parent: number | null, name: string, exceptId?: number) {
  const [dup] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(siblingNamed(parent, name, exceptId))
    .limit(1)
  if (dup) throw conflict(ORG_MSG.siblingExists)
}

export async function insertOrg(db: Transactable, body: OrgInsertBody, caller: Caller): Promise<number> {
  const operatorId = caller.id
  const name = validName(body.organizationName)
  const stationIds = parseStationIds(body.stationIds)
  return db
    .transaction(async (tx) => {
      // the parent and a sibling of the same name in one round trip: an insert is a department's
      // commonest change, and each statement is a good part of its cost
      const [found] = await queryRows<{ parent: number | null; sibling: number | null }>(
        tx,
        sql`select (select id from organizations where id = ${body.parent}) as parent,
                   (select id from organizations where ${siblingNamed(body.parent, name)} limit 1) as sibling`,
      )
      if (found.parent === null) throw notFound(ORG_MSG.parentNotFound)
      // a new department under one in scope lies strictly below a root of the scope
      if (!orgInScope(caller, body.parent)) throw forbidden(MSG.orgOutOfScope)
      if (found.sibling !== null) throw conflict(ORG_MSG.siblingExists)
      await requireStations(tx, stationIds)
      const [org] = await tx
        .insert(organizations)
        .values({
          organizationName: name,
          description: body.description ?? null,
          parent: body.parent,
          createUserId: operatorId,
          updateUserId: operatorId,
        })
        .returning({ id: organizations.id })
      if (stationIds.length) {
        await tx
          .insert(positions)
          .values(stationIds.map((stationId) => ({ orgId: org.id, stationId })))
          .onConflictDoNothing()
      }
      return org.id
    })
    .catch(onSiblingTaken)
}

/** true when `candidate` is `orgId` itself or lies in its subtree (walks up from the candidate). */
async function isSelfOrDescendant(tx: DbOrTx, orgId: number, candidate: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`WITH RECURSIVE up(id, parent, depth) AS (
          SELECT id, parent, 0 FROM organizations WHERE id = ${candidate}
          UNION ALL
          SELECT o.id, o.parent, up.depth + 1 FROM up JOIN organizations o ON o.id = up.parent WHERE up.depth < 1000
        )
        SELECT id FROM up WHERE id = ${orgId} LIMIT 1`,
  )
  return rows.length > 0
}

export async function updateOrg(
  db: Db,
  power: PowerGuard,
  body: OrgUpdateBody,
  caller: Caller,
): Promise<void> {
  const operatorId = caller.id
  const name = validName(body.organizationName)
  const wanted = body.positionSimpleDTOS
    ? [...new Set(body.positionSimpleDTOS.map((p) => p.stationId))]
    : null
  await guardedChange(db, async (tx) => {
    const [org] = await tx
      .select({ id: organizations.id, parent: organizations.parent })
      .from(organizations)
      .where(eq(organizations.id, body.id))
    if (!org) throw notFound(ORG_MSG.notFound)
    requireBelowScopeRoot(caller, org)
    let parent = org.parent
    if (body.parent !== undefined && body.parent !== null && body.parent !== org.parent) {
      if (org.parent === null) throw conflict(ORG_MSG.rootMove)
      const [target] = await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, body.parent))
      if (!target) throw notFound(ORG_MSG.parentNotFound)
      if (await isSelfOrDescendant(tx, org.id, body.parent)) throw badRequest(ORG_MSG.moveIntoSelf)
      // never out of the scope
      if (!orgInScope(caller, body.parent)) throw forbidden(MSG.orgOutOfScope)
      parent = body.parent
    }
    await requireUniqueSibling(tx, parent, name, org.id)
    if (wanted) await requireStations(tx, wanted)
    await tx
      .update(organizations)
      .set({
        organizationName: name,
        ...(body.description !== undefined ? { description: body.description } : {}),
        parent,
        updateUserId: operatorId,
        updateTime: new Date(),
      })
      .where(eq(organizations.id, org.id))
    if (wanted)
      await syncPositions(tx, 'orgId', org.id, wanted, async (gone) => {
        await requireHoldersWritable(tx, caller, gone)
        await power.require(tx, operatorId, { positionIds: gone })
      })
  }).catch(onSiblingTaken)
}

/** Deleting a department deletes its positions: their holders lose the positions' roles (DESIGN.md §6a). */
export async function deleteOrg(db: Db, power: PowerGuard, orgId: number, caller: Caller): Promise<void> {
  const operatorId = caller.id
  await guardedChange(db, async (tx) => {
    const [org] = await tx
      .select({ id: organizations.id, parent: organizations.parent })
      .from(organizations)
      .where(eq(organizations.id, orgId))
    if (!org) throw notFound(ORG_MSG.notFound)
    if (org.parent === null) throw conflict(ORG_MSG.rootDelete)
    requireBelowScopeRoot(caller, org)
    const [child] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.parent, orgId))
      .limit(1)
    if (child) throw conflict(ORG_MSG.hasChildren)
    const held = await tx.select({ id: positions.id }).from(positions).where(eq(positions.orgId, orgId))
    await requireHoldersWritable(
      tx,
      caller,
      held.map((p) => p.id),
    )
    await power.require(tx, operatorId, { positionIds: held.map((p) => p.id) })
    // positions go first; their user and role links go with them (ON DELETE CASCADE)
    await tx.delete(positions).where(eq(positions.orgId, orgId))
    await tx.delete(organizations).where(eq(organizations.id, orgId))
  })
}
