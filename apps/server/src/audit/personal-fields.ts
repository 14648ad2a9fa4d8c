import type { Resource } from '@amg/contract'
import type { AuditChange } from '../db/audit-schema'
import type { Authorizer } from '../auth/authorizer'

/**
 * A user's personal fields in the operation log (DESIGN.md §11): the changes of a user's mobile and
 * real name show their values only to a caller who may read that user, i.e. who holds the permission
 * of `GET /user/detail` (a super admin holds every one). Anyone else reading the log sees that the
 * field changed, and this text in place of every value, empty ones included (an empty "before"
 * would tell that the user had no mobile until then).
 */
export const PERSONAL_MASK = '（无权查看）'

/** The personal fields of a user, as the log names them (audit/changes.ts: camel-cased columns). */
export const PERSONAL_FIELDS: ReadonlySet<string> = new Set(['mobile', 'realName'])

/** The call whose permission reading a user takes. */
export const READ_USER_CALL = { method: 'GET', path: '/user/detail' } as const

/** Whether this caller may see the personal fields of the users the log names. */
export function mayReadUsers(authz: Authorizer, callerId: number): Promise<boolean> {
  return authz.can(callerId, READ_USER_CALL.method, READ_USER_CALL.path)
}

/** Whether a change is to a user's personal field; rows described before targets were kept have none. */
function isPersonal(change: AuditChange, resource: Resource | undefined): boolean {
  if (change.field === 'links' || !PERSONAL_FIELDS.has(change.field)) return false
  return change.target ? change.target.type === 'user' : resource === 'user'
}

/** The changes as this reader may see them. */
export function maskPersonalFields(
  changes: AuditChange[],
  resource: Resource | undefined,
  mayRead: boolean,
): AuditChange[] {
  if (mayRead) return changes
  return changes.map((change) =>
    isPersonal(change, resource) ? { ...change, before: PERSONAL_MASK, after: PERSONAL_MASK } : change,
  )
}
