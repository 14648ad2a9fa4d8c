import type { FastifyInstance } from 'fastify'
import { eq } from 'drizzle-orm'
import { MSG, PASSKEY_MSG, passkeyApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { AppError } from '../../lib/errors'
import { userMfa, users } from '../../db/schema'
import { openSession, sessionUserOf } from '../../auth/sessions'
import { recordLogin } from '../../audit/login-log'
import { relyingPartyOf } from './relying-party'
import { restrictionOf } from '../../lib/restriction-of'
import { loginOptions, logRefusal, PasskeyRefused, verifyLogin } from './authenticate'

/**
 * Sign-in with a passkey (DESIGN.md §23): alone, or as the second step. A passkey alone counts as
 * both factors, so that session is never restricted — not for two-step sign-in, nor for a password
 * someone else set (the user did not use it): a user may live on passkeys alone. As a second step the
 * session carries what the first step found (an expired password still must change).
 */
export async function passkeyLoginRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx

  route(app, passkeyApi.loginOptions, async (req) =>
    ok(await loginOptions(db, relyingPartyOf(config, req), req.body.mfaToken || undefined)),
  )

  route(app, passkeyApi.loginVerify, async (req) => {
    const attempt = { address: req.ip, userAgent: req.headers['user-agent'] ?? null }
    const mfaToken = req.body.mfaToken || undefined
    try {
      const passed = await verifyLogin(db, relyingPartyOf(config, req), { ...req.body, mfaToken })
      const [row] = await db
        .select({ user: users, mfa: userMfa.enabled })
        .from(users)
        .leftJoin(userMfa, eq(userMfa.userId, users.id))
        .where(eq(users.id, passed.userId))
      const who = { id: passed.userId, nickName: row.user.nickName }
      // a service account never signs in interactively (DESIGN.md §11)
      if (row.user.serviceAccount)
        throw new PasskeyRefused(who, new AppError(401, PASSKEY_MSG.unknownCredential))
      if (row.user.status !== 1) throw new PasskeyRefused(who, new AppError(403, MSG.loginFrozen))
      const restricted = passed.secondStep ? restrictionOf(passed.restricted) : null
      const user = sessionUserOf(row.user, restricted, row.mfa === true)
      const token = await openSession(db, config, user, attempt)
      await recordLogin(db, {
        nickName: user.nickName,
        userId: user.id,
        ip: req.ip,
        userAgent: attempt.userAgent,
        result: 'success',
        msg: PASSKEY_MSG.signedIn,
      })
      const { restricted: r, ...shown } = user
      return ok({ token, user: shown, ...(r ? { restricted: r } : {}) }, '登录成功')
    } catch (err) {
      return logRefusal(db, err, { ip: req.ip, userAgent: attempt.userAgent }, mfaToken !== undefined)
    }
  })
}
