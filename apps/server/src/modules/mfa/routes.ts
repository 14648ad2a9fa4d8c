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
import { pause } from '../../auth/login-throttle'
import { withRetryAfter } from '../../auth/retry-after'
import { endUserSessions } from '../../auth/sessions'
import { callerOf, requireWritableUsers } from '../../auth/user-scope'
import { guardedChange } from '../../auth/super-admin-guard'
import { USER_MSG } from '../user/service'

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
    return ok({ recoveryCodes }, '两步验证已绑定')
  })

  // The password and the code are guesses like sign-in's (a stolen session plus a phished password
  // must not buy unlimited tries at six digits): each is counted on the key its sign-in counterpart
  // uses (own password change, second step), so moving between the calls buys no extra tries.
  route(app, mfaApi.disable, async (req, reply) =>
    withRetryAfter(reply, async () => {
      const user = currentUser(req)
      if (!(await mfaEnabled(db, user.id))) throw badRequest(SIGN_IN_MSG.mfaNotOn)
      const byPassword = throttle.passwordChange(user.id, req.ip)
      await pause(byPassword.pauseMs)
      const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id))
      if (!row || !(await verifyPassword(req.body.password, row.hash)))
        throw byPassword.refusal(badRequest(SIGN_IN_MSG.passwordWrong))
      byPassword.succeeded()
      const byCode = throttle.secondStep(user.id, req.ip)
      await pause(byCode.pauseMs)
      if ((await checkSecondFactor(db, secrets, user.id, { code: req.body.code })) === null)
        throw byCode.refusal(badRequest(SIGN_IN_MSG.mfaCodeWrong))
      byCode.succeeded()
      await removeMfa(db, user.id)
      return ok(null, '两步验证已解绑')
    }),
  )

  route(app, mfaApi.reset, async (req) => {
    const userId = req.query.userId
    const operator = await callerOf(authz, req)
    const [target] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId))
    if (!target) throw notFound(USER_MSG.notFound)
    await guardedChange(db, async (tx) => {
      // within the administrator's reach (§13), and not beyond their own power (§6a)
      await requireWritableUsers(tx, operator, [userId])
      await power.require(tx, operator.id, { userIds: [userId] })
      await removeMfa(tx, userId)
      // whoever holds the lost device holds no session of this user any more
      await endUserSessions(tx, userId)
    })
    return ok(null, SIGN_IN_MSG.mfaReset)
  })
}
