import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { eq } from 'drizzle-orm'
import { MSG, PASSKEY_MSG, type Restriction } from '@amg/contract'
import { users } from '../../db/schema'
import { AppError, badRequest } from '../../lib/errors'
import { relyingPartyOf } from './relying-party'
import { restrictionOf } from '../../lib/restriction-of'
import { logRefusal, PasskeyRefused, verifyLogin } from './authenticate'

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
        const restricted = passed.secondStep ? restrictionOf(passed.restricted) : null
        if (restricted) return await steps.refuseRestricted(req, who, restricted, false)
        return await steps.signIn(req, reply, who)
      } catch (err) {
        const from = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null }
        return logRefusal(db, err, from, token !== undefined)
      }
    },
  )
}
