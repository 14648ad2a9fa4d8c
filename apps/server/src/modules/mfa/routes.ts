import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { eq } from 'drizzle-orm'
import { SIGN_IN_MSG, mfaApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { badRequest, notFound } from '../../lib/errors'
import { hashToken } from '../../lib/tokens'
import { sessions, users } from '../../db/schema'
import { checkSecondFactor, enableMfa, mfaEnabled, removeMfa, setupMfa } from '../../auth/mfa'
import { verifyPassword } from '../../auth/password'
import { judge } from '../../auth/login-throttle'
import { withRetryAfter } from '../../auth/retry-after'
import { endUserSessions } from '../../auth/sessions'
import { callerOf, requireWritableUsers } from '../../auth/user-scope'
import { guardedChange } from '../../auth/super-admin-guard'
import { USER_MSG } from '../user'
import type { AuditNote } from '../../audit/operation-log'

/**
 * The log row of a two-step change (DESIGN.md §9): about the user whose two-step sign-in changed,
 * named as they were, with the change itself. Its tables stage nothing the log could name them from,
 * and the request names no user (the own-account calls) or only a code, which is no record.
 */
const mfaNote = (user: { id: number; nickName: string }, bound: boolean): AuditNote => ({
  resourceId: String(user.id),
  changes: [
    {
      field: 'mfa',
      before: bound ? MFA_STATE.off : MFA_STATE.on,
      after: bound ? MFA_STATE.on : MFA_STATE.off,
      target: { type: 'user', id: user.id, name: user.nickName },
    },
  ],
})
const MFA_STATE = { on: '已绑定', off: '未绑定' } as const

/**
 * Two-step sign-in of one's own account (enrol, confirm, disable with proof) and an administrator's
 * reset of someone else's (DESIGN.md §14).
 */
export const mfaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, box: secrets, authz, power, loginThrottle: throttle } = app.ctx

  route(app, mfaApi.setup, async (req) => {
    const user = currentUser(req)
    return ok(await setupMfa(db, secrets, user))
  })

  route(app, mfaApi.enable, async (req) => {
    const user = currentUser(req)
    const recoveryCodes = await enableMfa(db, secrets, user.id, req.body.code)
    // a session restricted until enrolment is free from now on
    if (user.restricted === 'mfa_enroll')
      await db
        .update(sessions)
        .set({ restricted: null })
        .where(eq(sessions.tokenHash, hashToken(req.token!)))
    req.auditNote = mfaNote(user, true)
    return ok({ recoveryCodes }, '两步验证已绑定')
  })

  // The password and the code are guesses like sign-in's (a stolen session plus a phished password
  // must not buy unlimited tries at six digits): each is counted on the key its sign-in counterpart
  // uses (own password change, second step), so moving between the calls buys no extra tries.
  route(app, mfaApi.disable, async (req, reply) =>
    withRetryAfter(reply, async () => {
      const user = currentUser(req)
      if (!(await mfaEnabled(db, user.id))) throw badRequest(SIGN_IN_MSG.mfaNotOn)
      const byPassword = await throttle.passwordChange(user.id, req.ip)
      const passwordOk = await judge(byPassword, async () => {
        const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id))
        return !!row && (await verifyPassword(req.body.password, row.hash))
      })
      if (!passwordOk) throw byPassword.refusal(badRequest(SIGN_IN_MSG.passwordWrong))
      await byPassword.succeeded()
      const byCode = await throttle.secondStep(user.id, req.ip)
      const codeOk = await judge(
        byCode,
        async () => (await checkSecondFactor(db, secrets, user.id, { code: req.body.code })) !== null,
      )
      if (!codeOk) throw byCode.refusal(badRequest(SIGN_IN_MSG.mfaCodeWrong))
      await byCode.succeeded()
      await removeMfa(db, user.id)
      req.auditNote = mfaNote(user, false)
      return ok(null, '两步验证已解绑')
    }),
  )

  route(app, mfaApi.reset, async (req) => {
    const userId = req.query.userId
    const operator = await callerOf(authz, req)
    const [target] = await db
      .select({ id: users.id, nickName: users.nickName })
      .from(users)
      .where(eq(users.id, userId))
    if (!target) throw notFound(USER_MSG.notFound)
    await guardedChange(db, async (tx) => {
      // within the administrator's reach (§13), and not beyond their own power (§6a)
      await requireWritableUsers(tx, operator, [userId])
      await power.require(tx, operator.id, { userIds: [userId] })
      await removeMfa(tx, userId)
      // whoever holds the lost device holds no session of this user any more
      await endUserSessions(tx, userId)
    })
    req.auditNote = mfaNote(target, false)
    return ok(null, SIGN_IN_MSG.mfaReset)
  })
}
