import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { eq } from 'drizzle-orm'
import { MSG, PASSKEY_MSG, type Restriction } from '@amg/contract'
import { users } from '../../db/schema'
import { AppError, badRequest } from '../../lib/errors'
import { recordLogin } from '../../audit/login-log'
import { relyingPartyOf } from './relying-party'
import { PasskeyRefused, verifyLogin } from './authenticate'

const RESTRICTIONS: readonly string[] = ['password_change', 'mfa_enroll', 'passkey_enroll']

/** What the single sign-on login screen's calls share (modules/oidc/interaction-routes.ts). */
export interface InteractionSteps {
  /** the interaction's prompt name, refusing a gone interaction */
  prompt: (req: FastifyRequest, reply: FastifyReply) => Promise<string>
  signIn: (
    req: FastifyRequest,
    reply: FastifyReply,
    user: { id: number; nickName: string },
  ) => Promise<unknown>
  refuseRestricted: (
    req: FastifyRequest,
    user: { id: number; nickName: string },
    restricted: Restriction,
    expired: boolean,
  ) => Promise<never>
}

/**
 * A passkey on the single sign-on login screen (DESIGN.md §23): alone or as the second step, checked
 * as the console's sign-in checks it (authenticate.ts), refusals in the login log. `path`: the
 * interaction's own path, where the browser's interaction cookie goes.
 */
export function registerPasskeyInteraction(app: FastifyInstance, path: string, steps: InteractionSteps) {
  const { db, config } = app.ctx
  app.post<{ Body: { challengeId?: unknown; response?: unknown; mfaToken?: unknown } }>(
    path,
    async (req, reply) => {
      if ((await steps.prompt(req, reply)) !== 'login') throw badRequest(MSG.oidcWrongStep)
      const { challengeId, response, mfaToken } = req.body ?? {}
      // the console's sign-in call's own answers (PasskeyLoginBody): the step is right, the answer is not
      if (typeof challengeId !== 'string' || !challengeId || challengeId.length > 128)
        throw badRequest(PASSKEY_MSG.challengeInvalid)
      const id = response && typeof response === 'object' ? (response as { id?: unknown }).id : undefined
      if (typeof id !== 'string' || !id || id.length > 1024) throw badRequest(PASSKEY_MSG.responseRequired)
      const token = typeof mfaToken === 'string' && mfaToken && mfaToken.length <= 128 ? mfaToken : undefined
      try {
        const passed = await verifyLogin(db, relyingPartyOf(config, req), {
          challengeId,
          response,
          mfaToken: token,
        })
        const [user] = await db.select().from(users).where(eq(users.id, passed.userId))
        const who = { id: user.id, nickName: user.nickName }
        if (user.status !== 1) throw new PasskeyRefused(who, new AppError(403, MSG.loginFrozen))
        if (passed.secondStep && passed.restricted && RESTRICTIONS.includes(passed.restricted))
          return await steps.refuseRestricted(req, who, passed.restricted as Restriction, false)
        return await steps.signIn(req, reply, who)
      } catch (err) {
        if (!(err instanceof PasskeyRefused)) throw err
        await recordLogin(db, {
          nickName: err.user?.nickName ?? null,
          userId: err.user?.id ?? null,
          ip: req.ip,
          userAgent: req.headers['user-agent'] ?? null,
          result: token ? 'mfa_failure' : 'failure',
          msg: err.refusal.message,
        })
        throw err.refusal
      }
    },
  )
}
