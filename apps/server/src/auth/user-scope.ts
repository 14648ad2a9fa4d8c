import { createHash } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { API_PREFIX, MSG, NO_DATA, type DataScope } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { intArray } from '../db/sql-arrays'
import { currentUser } from '../lib/context'
import { forbidden } from '../lib/errors'
import type { Authorizer } from './authorizer'
import { liveLink } from './reach'

/**
 * This product obeys data scope (DESIGN.md §13). The scope that applies to a request is the scope of
 * the call being made (its method and path) for the signed-in caller; every user list, lookup and
 * write of the modules asks here, so the rule lives in one place:
 * - read: a user is visible when ONE of their departments (departments of the positions they hold,
 *   whatever the position's status) is in scope; `self` shows the caller; users with no position
 *   only under `all`;
 * - write: ALL of the target user's departments must be in scope (a straddler stays out of reach
 *   of an administrator of one side); `self` writes only oneself.
 */
export interface Caller {
  id: number
  scope: DataScope
}

const callers = new WeakMap<FastifyRequest, Promise<Caller>>()

/**
 * The caller of a request with the scope of the call, read once per request. A route that needs only a
 * session has no permission to draw a scope from: it sees no one's data but the caller's own.
 */
export function callerOf(authz: Authorizer, req: FastifyRequest): Promise<Caller> {
  let caller = callers.get(req)
  if (!caller) {
    const method = req.method === 'HEAD' ? 'GET' : req.method
    const path = req.url.split('?')[0].slice(API_PREFIX.length)
    caller = callerOfCall(authz, currentUser(req).id, method, path)
    callers.set(req, caller)
  }
  return caller
}

/**
 * A user with the scope of a call (path without `/api`) they may or may not make: nothing in scope
 * when they may not. For work outside a request done on a user's behalf (a webhook's deliveries) and
 * for telling the console what a user may write.
 */
export async function callerOfCall(
  authz: Authorizer,
  id: number,
  method: string,
  path: string,
): Promise<Caller> {
  const scope = await authz.scopeOf(id, method, path)
  return { id, scope: scope ?? { ...NO_DATA } }
}

/** A caller who reaches everything (seed work, tests of the unscoped paths). */
export const unscoped = (id: number): Caller => ({ id, scope: { all: true, self: false, orgIds: [] } })

/**
 * Names what a scoped caller may see, for the keys of kept lists: callers whose scopes hold the same
 * departments (and, under `self`, the same caller) see the same users. A scope can hold thousands of
 * departments, so they are hashed.
 */
export function scopeKey(caller: Caller): string {
  const { scope } = caller
  if (scope.all) return 'all'
  const orgs = createHash('sha256')
    .update([...scope.orgIds].sort((a, b) => a - b).join(','))
    .digest('base64url')
  return `${scope.self ? `self${caller.id}` : ''}:${orgs}`
}

/** Whether a department is in the caller's scope. */
export const orgInScope = (caller: Caller, orgId: number | null): boolean =>
  caller.scope.all || (orgId !== null && caller.scope.orgIds.includes(orgId))

/**
 * The SQL condition "the user `userId` is visible to the caller" (undefined: no restriction), for
 * any query that lists or looks up users. `userId` is the column or expression holding the user's id.
 */
export function visibleUser(
  caller: Caller,
  userId: SQL | SQL.Aliased | unknown,
  opts: { rowByRow?: boolean } = {},
): SQL | undefined {
  const { scope } = caller
  if (scope.all) return undefined
  const parts: SQL[] = []
  if (scope.self) parts.push(sql`${userId} = ${caller.id}`)
  // `rowByRow`: asked of each row while a query walks an index in the list's order and stops at a
  // page. PostgreSQL turns a plain EXISTS into a join and, when it misjudges how many users a scope
  // holds, gathers and sorts them all for ten rows; `offset 0` keeps the EXISTS a check per row.
  if (scope.orgIds.length)
    parts.push(sql`exists (select 1 from position_users scope_pu
      join positions scope_p on scope_p.id = scope_pu.position_id
      where scope_pu.user_id = ${userId} and scope_p.org_id = any(${intArray(scope.orgIds)})
        and ${liveLink('scope_pu')}
      ${opts.rowByRow ? sql`offset 0` : sql``})`)
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`
}

/** The departments of each user's positions, whatever the position's status (stored reach counts). */
async function departmentsOf(tx: DbOrTx, userIds: readonly number[]): Promise<Map<number, number[]>> {
  const rows = await queryRows<{ user_id: number; org_id: number }>(
    tx,
    sql`select pu.user_id, p.org_id from position_users pu join positions p on p.id = pu.position_id
        where pu.user_id = any(${intArray(userIds)}) and ${liveLink('pu')}`,
  )
  const byUser = new Map<number, number[]>()
  for (const r of rows) {
    const list = byUser.get(Number(r.user_id)) ?? []
    list.push(Number(r.org_id))
    byUser.set(Number(r.user_id), list)
  }
  return byUser
}

/** Whether the caller may read the user (one department in scope, or themselves under `self`). */
export async function mayReadUser(tx: DbOrTx, caller: Caller, userId: number): Promise<boolean> {
  if (caller.scope.all || (caller.scope.self && userId === caller.id)) return true
  const orgs = (await departmentsOf(tx, [userId])).get(userId) ?? []
  return orgs.some((org) => orgInScope(caller, org))
}

/** 403 '该用户不在您的管理范围内' unless the caller may read the user. */
export async function requireReadableUser(tx: DbOrTx, caller: Caller, userId: number): Promise<void> {
  if (!(await mayReadUser(tx, caller, userId))) throw forbidden(MSG.userOutOfScope)
}

/**
 * The users of `userIds` the caller's scope lets them write: every department of the user in scope
 * (users with no position: only under `all`; `self`: only the caller). The one rule of
 * `requireWritableUsers` and of the console's `writable` marks.
 */
export async function writableInScope(
  tx: DbOrTx,
  caller: Caller,
  userIds: readonly number[],
): Promise<Set<number>> {
  if (caller.scope.all || userIds.length === 0) return new Set(userIds)
  const byUser = await departmentsOf(tx, userIds)
  return new Set(
    userIds.filter((userId) => {
      if (caller.scope.self && userId === caller.id) return true
      const orgs = byUser.get(userId) ?? []
      return orgs.length > 0 && orgs.every((org) => orgInScope(caller, org))
    }),
  )
}

/**
 * 403 '该用户不在您的管理范围内' unless the caller's scope lets them write every target user
 * (`writableInScope`). Run it inside the write's transaction, before writing, so a refusal changes nothing.
 */
export async function requireWritableUsers(
  tx: DbOrTx,
  caller: Caller,
  userIds: readonly number[],
): Promise<void> {
  const writable = await writableInScope(tx, caller, userIds)
  if (userIds.some((id) => !writable.has(id))) throw forbidden(MSG.userOutOfScope)
}

/** 403 '该岗位不在您的管理范围内' unless every position's department is in scope (unknown ids are left to the caller's 404). */
export async function requirePositionsInScope(
  tx: DbOrTx,
  caller: Caller,
  positionIds: readonly number[],
): Promise<void> {
  if (caller.scope.all || positionIds.length === 0) return
  const rows = await queryRows<{ org_id: number }>(
    tx,
    sql`select org_id from positions where id = any(${intArray(positionIds)})`,
  )
  if (rows.some((r) => !orgInScope(caller, Number(r.org_id)))) throw forbidden(MSG.positionOutOfScope)
}

/** The condition "the position's department is in scope" on a positions org-id column (undefined: all). */
export function visibleOrg(caller: Caller, orgId: unknown): SQL | undefined {
  if (caller.scope.all) return undefined
  return caller.scope.orgIds.length ? sql`${orgId} = any(${intArray(caller.scope.orgIds)})` : sql`false`
}
