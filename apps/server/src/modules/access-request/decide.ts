import { count, eq } from 'drizzle-orm'
import { ACCESS_MSG, type AccessRequestApproveBody, type AccessRequestRejectBody } from '@amg/contract'
import { accessRequestApprovals, accessRequests, roles } from '../../db/schema'
import { conflict, forbidden } from '../../lib/errors'
import { approverCaller, linkAs, requireCouldLink } from './link-as'
import { pendingRequest } from './requests'
import { stageAccessEvent } from './events'
import type { AccessCtx } from './context'

/**
 * Deciding a request (DESIGN.md §20). The approver holds the approve permission (the route), never
 * decides their own request, holds one of the role's approver roles when it names some, and could
 * make the link themselves now (power §6a and reach §13, by running the link path in their name).
 * Two approvals are two people (one row per approver). The last approval makes the time-bound link in
 * that approver's name; an earlier one is checked the same way and rolled back.
 */

type Pending = Awaited<ReturnType<typeof pendingRequest>>

async function requireApprover(ctx: AccessCtx, approverId: number, request: Pending) {
  if (request.requesterId === approverId) throw conflict(ACCESS_MSG.selfApproval)
  const [role] = await ctx.db
    .select({ approverRoleIds: roles.approverRoleIds })
    .from(roles)
    .where(eq(roles.id, request.roleId))
  const wanted = role?.approverRoleIds ?? []
  if (wanted.length) {
    const access = await ctx.authz.resolve(approverId, ctx.db)
    if (!access.roles.some((r) => wanted.includes(r.id))) throw forbidden(ACCESS_MSG.approverRoleRequired)
  }
}

/** The pending request `id`, once the approver may decide it. */
async function decidableRequest(ctx: AccessCtx, approverId: number, id: number): Promise<Pending> {
  const request = await pendingRequest(ctx, id)
  await requireApprover(ctx, approverId, request)
  return request
}

/** The approver could make the request's link themselves now, without making it. */
async function requireApproverCouldLink(ctx: AccessCtx, approverId: number, request: Pending) {
  const approver = await approverCaller(ctx.authz, approverId)
  await requireCouldLink(ctx.db, ctx.links, approver, request.requesterId, request.roleId)
}

/** Answers whether the request is now approved (false: it waits for another approver). */
export async function approveRequest(
  ctx: AccessCtx,
  approverId: number,
  body: AccessRequestApproveBody,
): Promise<boolean> {
  const request = await decidableRequest(ctx, approverId, body.id)
  const comment = body.comment?.trim() || null
  const added = await ctx.db
    .insert(accessRequestApprovals)
    .values({ requestId: request.id, approverId, comment })
    .onConflictDoNothing()
    .returning({ approverId: accessRequestApprovals.approverId })
  if (!added.length) throw conflict(ACCESS_MSG.alreadyApproved)
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(accessRequestApprovals)
    .where(eq(accessRequestApprovals.requestId, request.id))
  if (n < request.approvalsNeeded) {
    await requireApproverCouldLink(ctx, approverId, request)
    return false
  }
  const now = new Date()
  const expiresAt = request.minutes === null ? null : new Date(now.getTime() + request.minutes * 60_000)
  await linkAs(
    ctx.links,
    await approverCaller(ctx.authz, approverId),
    request.requesterId,
    request.roleId,
    expiresAt,
  )
  await ctx.db
    .update(accessRequests)
    .set({
      status: 'approved',
      decidedBy: approverId,
      decisionComment: comment,
      decideTime: now,
      linkExpiresAt: expiresAt,
    })
    .where(eq(accessRequests.id, request.id))
  await stageAccessEvent(ctx.db, 'access.approved', request)
  return true
}

/** Rejecting needs the same standing as approving: whoever could not grant it does not decide it. */
export async function rejectRequest(
  ctx: AccessCtx,
  approverId: number,
  body: AccessRequestRejectBody,
): Promise<void> {
  const request = await decidableRequest(ctx, approverId, body.id)
  await requireApproverCouldLink(ctx, approverId, request)
  await ctx.db
    .update(accessRequests)
    .set({
      status: 'rejected',
      decidedBy: approverId,
      decisionComment: body.comment.trim(),
      decideTime: new Date(),
    })
    .where(eq(accessRequests.id, request.id))
  await stageAccessEvent(ctx.db, 'access.rejected', request)
}
