import { eq } from 'drizzle-orm'
import { ACCESS_MSG } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import { roles } from '../../db/schema'
import { badRequest, conflict } from '../../lib/errors'

/** The input rules of eligibility and requests (DESIGN.md §20), one home each. */

/** A request waiting this long expires. */
export const PENDING_DAYS = 7

/** Minutes within the eligibility's maximum (the schema already holds them to 15–1440). */
export function requireMinutesWithin(minutes: number, max: number): void {
  if (!Number.isInteger(minutes) || minutes < 15 || minutes > 1440)
    throw badRequest(ACCESS_MSG.minutesInvalid)
  if (minutes > max) throw badRequest(ACCESS_MSG.minutesAboveMax(max))
}

/** A reason that says something. */
export function requireReason(reason: string | null | undefined): string {
  const text = (reason ?? '').trim()
  if (!text) throw badRequest(ACCESS_MSG.reasonRequired)
  return text
}

export async function requireRole(db: DbOrTx, roleId: number, opts: { enabled?: boolean } = {}) {
  const [role] = await db.select().from(roles).where(eq(roles.id, roleId))
  if (!role) throw badRequest(ACCESS_MSG.roleNotFound)
  if (opts.enabled && role.status !== 1) throw conflict(ACCESS_MSG.roleDisabled)
  return role
}
