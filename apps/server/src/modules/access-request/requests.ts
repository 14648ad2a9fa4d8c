import { and, eq, sql } from 'drizzle-orm'
import { ACCESS_MSG, type AccessRequestInsertBody } from '@amg/contract'
import { accessRequests, eligibilities } from '../../db/schema'
import { conflict, forbidden, notFound } from '../../lib/errors'
import { requireMinutesWithin, requireReason, requireRole, PENDING_DAYS } from './rules'
import { stageAccessEvent } from './events'
import type { AccessCtx } from './context'

/** Asking for a role and taking the request back (DESIGN.md §20); deciding is decide.ts. */

/** Whether a pending request is past its seven days (the sweeper marks it; until then it is read so). */
export const isStale = (createTime: Date, now = Date.now()) =>
  now - createTime.getTime() > PENDING_DAYS * 86_400_000

export interface NewRequest {
  requesterId: number
  roleId: number
  minutes: number | null
  reason: string
  eligibilityId: number | null
  approvalsNeeded: number
}

/** One pending request per (user, role): asking twice is a conflict, not a second request. */
export async function createRequest(ctx: AccessCtx, input: NewRequest): Promise<number> {
  const pending = await ctx.db
    .select({ id: accessRequests.id })
    .from(accessRequests)
    .where(
      and(
        eq(accessRequests.requesterId, input.requesterId),
        eq(accessRequests.roleId, input.roleId),
        eq(accessRequests.status, 'pending'),
        sql`${accessRequests.createTime} > now() - make_interval(days => ${PENDING_DAYS})`,
      ),
    )
    .for('update')
  if (pending.length) throw conflict(ACCESS_MSG.requestPendingExists)
  const [row] = await ctx.db.insert(accessRequests).values(input).returning({ id: accessRequests.id })
  await stageAccessEvent(ctx.db, 'access.requested', { id: row.id, ...input })
  return row.id
}

/**
 * POST /access-request/insert: a requestable role, or one the requester is eligible for (then the
 * eligibility's maximum and approvals apply; activation is the usual way, this is the same request).
 */
export async function insertRequest(ctx: AccessCtx, userId: number, body: AccessRequestInsertBody) {
  const reason = requireReason(body.reason)
  const role = await requireRole(ctx.db, body.roleId, { enabled: true })
  const [eligible] = await ctx.db
    .select()
    .from(eligibilities)
    .where(and(eq(eligibilities.userId, userId), eq(eligibilities.roleId, body.roleId)))
  if (eligible && (role.requestable === false || eligible.approvals > 0)) {
    if (body.minutes == null) throw conflict(ACCESS_MSG.minutesRequired)
    requireMinutesWithin(body.minutes, eligible.maxMinutes)
    return createRequest(ctx, {
      requesterId: userId,
      roleId: role.id,
      minutes: body.minutes,
      reason,
      eligibilityId: eligible.id,
      approvalsNeeded: Math.max(1, eligible.approvals),
    })
  }
  if (!role.requestable) throw conflict(ACCESS_MSG.roleNotRequestable)
  if (body.minutes != null) requireMinutesWithin(body.minutes, 1440)
  return createRequest(ctx, {
    requesterId: userId,
    roleId: role.id,
    minutes: body.minutes ?? null,
    reason,
    eligibilityId: null,
    approvalsNeeded: role.requestApprovals,
  })
}

/** Loads a request for a decision, locked for the transaction; only a live pending one may be decided. */
export async function pendingRequest(ctx: AccessCtx, id: number) {
  const [row] = await ctx.db.select().from(accessRequests).where(eq(accessRequests.id, id)).for('update')
  if (!row) throw notFound(ACCESS_MSG.requestNotFound)
  const status = row.status === 'pending' && isStale(row.createTime) ? 'expired' : row.status
  if (status !== 'pending') throw conflict(ACCESS_MSG.requestNotPending(STATUS_WORD[status] ?? status))
  return row
}

const STATUS_WORD: Record<string, string> = {
  approved: '已批准',
  rejected: '已驳回',
  cancelled: '已撤回',
  expired: '已过期',
}

export async function cancelRequest(ctx: AccessCtx, userId: number, id: number): Promise<void> {
  const row = await pendingRequest(ctx, id)
  if (row.requesterId !== userId) throw forbidden(ACCESS_MSG.notYourRequest)
  await ctx.db
    .update(accessRequests)
    .set({ status: 'cancelled', decideTime: new Date(), decidedBy: userId })
    .where(eq(accessRequests.id, id))
}
