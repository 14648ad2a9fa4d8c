import { sql } from 'drizzle-orm'
import { REVIEW_MSG, type ReviewDecideBody } from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { conflict, forbidden, notFound } from '../../lib/errors'
import type { Authorizer } from '../../auth/authorizer'
import { callerOfCall } from '../../auth/user-scope'
import type { Links } from '../links/service'
import { campaignStatus } from './campaign-read'

/**
 * Records the reviewer's decision on items of one open campaign (DESIGN.md §21). Only the campaign's
 * reviewers decide; an item of a closed campaign is 409, and nothing changes.
 */
export async function decideItems(db: Db, callerId: number, body: ReviewDecideBody): Promise<void> {
  const ids = [...new Set(body.itemIds)]
  const rows = await queryRows<{ id: number; campaign_id: number; status: string; reviewer: boolean }>(
    db,
    sql`select i.id, i.campaign_id, c.status,
        exists (select 1 from review_reviewers rr where rr.campaign_id = c.id and rr.user_id = ${callerId}) as reviewer
      from review_items i join review_campaigns c on c.id = i.campaign_id
      where i.id = any(${intArray(ids)})`,
  )
  if (rows.length !== ids.length) throw notFound(REVIEW_MSG.itemNotFound)
  if (new Set(rows.map((r) => Number(r.campaign_id))).size > 1) throw conflict(REVIEW_MSG.itemsOfOneCampaign)
  if (rows.some((r) => r.status !== 'open')) throw conflict(REVIEW_MSG.campaignClosed)
  if (rows.some((r) => !r.reviewer)) throw forbidden(REVIEW_MSG.notReviewer)
  await db.execute(sql`update review_items set decision = ${body.decision}, comment = ${body.comment ?? null},
      decided_by = ${callerId}, decided_at = now()
    where id = any(${intArray(ids)})`)
}

/** The unlink call each kind of hold is taken away by: its scope is the closer's reach for it. */
const UNLINK_CALL = {
  direct: { path: '/rel/user-un-rel-role', target: 'role' },
  group: { path: '/rel/user-un-rel-groups', target: 'group' },
  position: { path: '/rel/user-un-rel-position', target: 'position' },
} as const

interface RevokeRow {
  id: number
  user_id: number
  role_id: number
  via: keyof typeof UNLINK_CALL
  via_id: number | null
}

/**
 * Closes a campaign (DESIGN.md §21): undecided items take the default decision when the campaign
 * auto-applies it, and every revoke goes through the ordinary link path with the closer as caller,
 * so the power check, the reach of the closer's unlink call, the last-super-admin guard, the
 * operation log's link changes and the events all apply. A revoke of a role held through a group or
 * a position takes the user out of that group or position (docs/decisions.md). Any refusal rolls the
 * whole close back: the campaign stays open and nothing is unlinked.
 */
export async function closeCampaign(db: Db, authz: Authorizer, links: Links, callerId: number, id: number) {
  const campaign = await campaignStatus(db, id)
  if (campaign.status !== 'open') throw conflict(REVIEW_MSG.campaignClosed)
  if (campaign.auto_apply)
    await db.execute(sql`update review_items set decision = ${campaign.default_decision},
        comment = coalesce(comment, '默认决定'), decided_at = now()
      where campaign_id = ${id} and decision is null`)
  const revokes = await queryRows<RevokeRow>(
    db,
    sql`select i.id, i.user_id, i.role_id, i.via, i.via_id from review_items i
      where i.campaign_id = ${id} and i.decision = 'revoke'
        and exists (select 1 from users u where u.id = i.user_id)
      order by i.id`,
  )
  // one unlink per (user, kind of hold): the user's targets of that kind together
  const batches = new Map<string, { userId: number; via: RevokeRow['via']; targets: Set<number> }>()
  for (const r of revokes) {
    const key = `${r.user_id}:${r.via}`
    const batch = batches.get(key) ?? { userId: Number(r.user_id), via: r.via, targets: new Set<number>() }
    batch.targets.add(Number(r.via === 'direct' ? r.role_id : r.via_id))
    batches.set(key, batch)
  }
  const callers = new Map<string, Awaited<ReturnType<typeof callerOfCall>>>()
  for (const batch of batches.values()) {
    const call = UNLINK_CALL[batch.via]
    let caller = callers.get(call.path)
    if (!caller) callers.set(call.path, (caller = await callerOfCall(authz, callerId, 'PUT', call.path)))
    await links.unlink({
      owner: 'user',
      ownerId: batch.userId,
      target: call.target,
      targetIds: [...batch.targets],
      caller,
    })
  }
  if (revokes.length)
    await db.execute(
      sql`update review_items set applied = true where id = any(${intArray(revokes.map((r) => Number(r.id)))})`,
    )
  await db.execute(sql`update review_campaigns set status = 'closed', closed_at = now(), closed_by = ${callerId}
    where id = ${id}`)
}
