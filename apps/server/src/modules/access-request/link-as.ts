import { sql } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import type { Authorizer } from '../../auth/authorizer'
import { callerOfCall, type Caller } from '../../auth/user-scope'
import type { LinkChange, Links } from '../links/service'

/**
 * The one way this module gives or takes a role: the ordinary user↔role link path (modules/links),
 * run in the name of the person whose power vouches for it — the approver, or an eligibility's
 * granter — with the data scope of the call by which they vouch (approving: the approve call's;
 * an eligibility: the grant call's, DESIGN.md §13). So power (§6a), reach, the last-super-admin
 * guard, the log's staged rows and the events all apply, and nobody gets power beyond what that
 * person holds now.
 */
// expiresAt: a time-bound link (the links module extends an existing one, never shortens it)
const changeOf = (caller: Caller, userId: number, roleId: number, expiresAt: Date | null): LinkChange => ({
  owner: 'user',
  ownerId: userId,
  target: 'role',
  targetIds: [roleId],
  caller,
  expiresAt,
})

/** The caller an eligibility's granter is at activation: their scope of the grant call, now. */
export const granterCaller = (authz: Authorizer, granterId: number) =>
  callerOfCall(authz, granterId, 'POST', '/eligibility/insert')

/** The caller an approver is: their scope of the approve call. */
export const approverCaller = (authz: Authorizer, approverId: number) =>
  callerOfCall(authz, approverId, 'PUT', '/access-request/approve')

/** Links the role to the user in `caller`'s name, until `expiresAt` (null: no end). */
export async function linkAs(
  links: Links,
  caller: Caller,
  userId: number,
  roleId: number,
  expiresAt: Date | null,
): Promise<void> {
  await links.link(changeOf(caller, userId, roleId, expiresAt))
}

/**
 * Whether `caller` could make (or, `unlink`, remove) that link now: the same path run in a savepoint
 * that is always rolled back, so its refusal (403 with the permissions lacking, or out of reach) is
 * answered and nothing stays. Used where someone vouches without linking yet: the first of two
 * approvals, a rejection, granting or deleting an eligibility. Runs inside the request's transaction.
 */
export async function requireCouldLink(
  db: Db,
  links: Links,
  caller: Caller,
  userId: number,
  roleId: number,
  unlink = false,
): Promise<void> {
  const change = changeOf(caller, userId, roleId, null)
  await db.execute(sql`savepoint amg_could_link`)
  try {
    if (unlink) await links.unlink(change)
    else await links.link(change)
  } finally {
    await db.execute(sql`rollback to savepoint amg_could_link`)
  }
}
