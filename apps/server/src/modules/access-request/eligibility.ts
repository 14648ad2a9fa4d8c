import { and, asc, eq, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import {
  ACCESS_MSG,
  type EligibilityActivateBody,
  type EligibilityActivated,
  type EligibilityInsertBody,
  type EligibilityRow,
} from '@amg/contract'
import { eligibilities, roles, users } from '../../db/schema'
import { badRequest, conflict, forbidden, notFound, AppError } from '../../lib/errors'
import { visibleUser, type Caller } from '../../auth/user-scope'
import { checkSecondFactor, mfaEnabled } from '../../auth/mfa'
import { judge } from '../../auth/login-throttle'
import { granterCaller, linkAs, requireCouldLink } from './link-as'
import { requireMinutesWithin, requireReason, requireRole } from './rules'
import { createRequest } from './requests'
import type { AccessCtx } from './context'

/**
 * Eligibility (DESIGN.md §20): a user may activate a role for a while. Granting and deleting one is,
 * for the power it moves, linking or unlinking the role: the granter must be able to make that link
 * now (requireCouldLink), else anyone could plant power to be switched on later.
 */

export async function insertEligibility(ctx: AccessCtx, grantor: Caller, body: EligibilityInsertBody) {
  const { db } = ctx
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, body.userId))
  if (!user) throw badRequest(ACCESS_MSG.userNotFound)
  await requireRole(db, body.roleId)
  await requireCouldLink(db, ctx.links, grantor, body.userId, body.roleId)
  const [row] = await db
    .insert(eligibilities)
    .values({
      userId: body.userId,
      roleId: body.roleId,
      maxMinutes: body.maxMinutes,
      requireReason: body.requireReason ?? true,
      requireMfa: body.requireMfa ?? false,
      approvals: body.approvals ?? 0,
      grantedBy: grantor.id,
    })
    .onConflictDoNothing()
    .returning({ id: eligibilities.id })
  if (!row) throw conflict(ACCESS_MSG.eligibilityExists)
  return row.id
}

/**
 * Eligibilities of one user: one's own with a session alone; someone else's only for a caller who
 * may grant them (`manager`: the caller with the scope of that call, null when they may not), and
 * only users in that scope. Without `userId`, a manager sees every eligibility in scope.
 */
export async function listEligibilities(
  ctx: AccessCtx,
  selfId: number,
  userId: number | null | undefined,
  manager: Caller | null,
): Promise<EligibilityRow[]> {
  const granter = alias(users, 'granter')
  const own = userId === selfId || (userId == null && !manager)
  if (!own && !manager) throw forbidden(ACCESS_MSG.approveBoxDenied)
  const where = own
    ? eq(eligibilities.userId, selfId)
    : and(
        userId == null ? undefined : eq(eligibilities.userId, userId),
        visibleUser(manager!, sql`${eligibilities.userId}`),
      )
  const rows = await ctx.db
    .select({
      id: eligibilities.id,
      userId: eligibilities.userId,
      nickName: users.nickName,
      roleId: eligibilities.roleId,
      roleName: roles.roleName,
      maxMinutes: eligibilities.maxMinutes,
      requireReason: eligibilities.requireReason,
      requireMfa: eligibilities.requireMfa,
      approvals: eligibilities.approvals,
      grantedBy: eligibilities.grantedBy,
      grantedByName: granter.nickName,
      createTime: eligibilities.createTime,
    })
    .from(eligibilities)
    .innerJoin(users, eq(users.id, eligibilities.userId))
    .innerJoin(roles, eq(roles.id, eligibilities.roleId))
    .leftJoin(granter, eq(granter.id, eligibilities.grantedBy))
    .where(where)
    .orderBy(asc(eligibilities.id))
    .limit(1000)
  return rows
}

export async function deleteEligibility(ctx: AccessCtx, caller: Caller, id: number): Promise<void> {
  const [row] = await ctx.db.select().from(eligibilities).where(eq(eligibilities.id, id))
  if (!row) throw notFound(ACCESS_MSG.eligibilityNotFound)
  // taking the ability away moves the role's power too: only who could unlink the role
  await requireCouldLink(ctx.db, ctx.links, caller, row.userId, row.roleId, true)
  await ctx.db.delete(eligibilities).where(eq(eligibilities.id, id))
}

/** The user's TOTP code, when the eligibility asks for one: counted like the second step of sign-in. */
async function requireCode(ctx: AccessCtx, userId: number, code: string | undefined, ip: string) {
  if (!(await mfaEnabled(ctx.db, userId))) throw badRequest(ACCESS_MSG.mfaNotBound)
  if (!code || !code.trim()) throw badRequest(ACCESS_MSG.codeRequired)
  const byCode = await ctx.loginThrottle.secondStep(userId, ip)
  const good = await judge(
    byCode,
    async () => (await checkSecondFactor(ctx.db, ctx.box, userId, { code })) === 'code',
  )
  if (!good) throw byCode.refusal(badRequest(ACCESS_MSG.codeWrong))
  await byCode.succeeded()
}

/**
 * Activation: with approvals 0 the role is linked until now + minutes, in the granter's name — the
 * granter's power and reach are checked again now, so an eligibility never outlives its granter's
 * power; with approvals 1 or 2 an access request is made.
 */
export async function activateEligibility(
  ctx: AccessCtx,
  userId: number,
  body: EligibilityActivateBody,
  ip: string,
): Promise<EligibilityActivated> {
  const [e] = await ctx.db.select().from(eligibilities).where(eq(eligibilities.id, body.id))
  if (!e) throw notFound(ACCESS_MSG.eligibilityNotFound)
  if (e.userId !== userId) throw forbidden(ACCESS_MSG.notYourEligibility)
  requireMinutesWithin(body.minutes, e.maxMinutes)
  const reason = e.requireReason ? requireReason(body.reason) : (body.reason ?? '').trim()
  await requireRole(ctx.db, e.roleId, { enabled: true })
  if (e.requireMfa) await requireCode(ctx, userId, body.code, ip)
  if (e.approvals > 0) {
    const requestId = await createRequest(ctx, {
      requesterId: userId,
      roleId: e.roleId,
      minutes: body.minutes,
      reason,
      eligibilityId: e.id,
      approvalsNeeded: e.approvals,
    })
    return { requestId }
  }
  if (e.grantedBy === null) throw forbidden(ACCESS_MSG.granterGone)
  const expiresAt = new Date(Date.now() + body.minutes * 60_000)
  try {
    await linkAs(ctx.links, await granterCaller(ctx.authz, e.grantedBy), userId, e.roleId, expiresAt)
  } catch (err) {
    // the granter's power or reach no longer covers the role: say so, not the granter's missing codes
    if (err instanceof AppError && err.status === 403) throw forbidden(ACCESS_MSG.granterGone)
    throw err
  }
  return { active: true, expiresAt }
}
