import { BEYOND_POWER_PREFIX, ROLE_TYPE } from '@amg/contract'
import { useSession } from './session-store'

/**
 * DESIGN.md §6a: the link pickers offer only what the caller may grant. The server marks each
 * candidate of the namelist calls (roles, groups, positions) for the signed-in caller; these
 * helpers read that mark so every picker treats it the same way.
 */
export interface GrantMark {
  grantable?: boolean
  denyReason?: string | null
}

/**
 * Why the caller may not grant this candidate, or null when they may. Only an explicit
 * `grantable: false` refuses: candidates of calls that do not mark (e.g. user lists) stay selectable.
 */
export function denyReasonOf(row: object): string | null {
  const mark = row as GrantMark
  if (mark.grantable !== false) return null
  // The server always sends the reason with a refusal; the prefix alone still tells the user why.
  return mark.denyReason || BEYOND_POWER_PREFIX
}

/**
 * Leaves the super-admin role (all power, DESIGN.md §6a) out for a caller who is not a super admin:
 * it could never be granted by them, so it is not offered at all (not even disabled) rather than
 * advertised.
 */
export function offeredRoles<R extends { type: number }>(roles: R[], callerIsSuperAdmin: boolean): R[] {
  return callerIsSuperAdmin ? roles : roles.filter((r) => r.type !== ROLE_TYPE.superAdmin)
}

/** offeredRoles for the signed-in user; unknown (not loaded yet) counts as not a super admin. */
export const offeredRolesForCaller = <R extends { type: number }>(roles: R[]): R[] =>
  offeredRoles(roles, useSession.getState().user?.superAdmin === true)
