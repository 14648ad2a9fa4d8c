import { ROLE_TYPE, REVIEW_UNUSED_DAYS, type ReviewDecision } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import type { UsageRecorder } from '../../auth/usage'
import { roleCodes } from '../authz/sources'

/** A user's hold of a role as a review weighs it. */
export interface HeldRole {
  userId: number
  role: { id: number; type: number }
}

const DAY_MS = 24 * 60 * 60 * 1000

/** `revoke` when unused for 90 days or never used, else `keep` (DESIGN.md §21). */
export function recommendationOf(lastUsedAt: Date | null, now = Date.now()): ReviewDecision {
  return lastUsedAt && now - lastUsedAt.getTime() < REVIEW_UNUSED_DAYS * DAY_MS ? 'keep' : 'revoke'
}

/**
 * Each (user, role)'s last use: the latest use by that user of any node the role holds. A super-admin
 * role holds no nodes and passes every call, so any use by its holder is its use.
 */
export async function lastUsesOfRoles(
  db: DbOrTx,
  usage: UsageRecorder,
  held: readonly HeldRole[],
): Promise<Map<string, Date | null>> {
  const users = [...new Set(held.map((h) => h.userId))]
  const uses = await usage.lastUses(db, users)
  const codes = await roleCodes(
    db,
    held.map((h) => h.role.id),
  )
  const out = new Map<string, Date | null>()
  for (const h of held) {
    const mine = uses.get(h.userId)
    let latest: Date | null = null
    const consider = (at: Date | undefined) => {
      if (at && (!latest || at > latest)) latest = at
    }
    if (h.role.type === ROLE_TYPE.superAdmin) for (const at of mine?.values() ?? []) consider(at)
    else for (const code of codes.get(h.role.id) ?? []) consider(mine?.get(code))
    out.set(`${h.userId}:${h.role.id}`, latest)
  }
  return out
}
