import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { eq } from 'drizzle-orm'
import { AUTH_HEADER, MSG, PASSKEY_MSG, SIGN_IN_MSG } from '@amg/contract'
import { errors } from 'oidc-provider'
import { users } from '../../db/schema'
import type { Restriction } from '@amg/contract'
import { checkCredentials, openMfaChallenge, signInDemands } from '../../auth/sessions'
import { passSecondStep, SecondStepRefused } from '../../auth/mfa-login'
import { signInGate } from '../../auth/mfa-due'
import { AppError, badRequest, forbidden } from '../../lib/errors'
import { ok } from '../../lib/reply'
import { clientGone } from '../../lib/client-gone'
import { recordUserLogin } from '../../audit/login-log'
import { recordLoginRefusal, recordSecondStep, recordSecondStepRefusal } from '../session/login-log'
import { ThrottledError } from '../../auth/login-throttle'
import type { OidcHost } from './host'
import { registerPasskeyInteraction } from '../passkey/oidc-interaction'
import { INTERACTION_PREFIX } from './provider'
import { directoryBind } from '../directory/bind'

/**
 * The calls behind the console's login and consent screens (DESIGN.md §16), under the interaction's
 * own path: the provider binds an interaction to the browser that started it with a cookie scoped to
 * `/oidc-login/<uid>`, so only that browser can finish it (a link to someone else's interaction does
 * nothing with the victim's console session). Answers are our envelope; `redirectTo` is where the
 * browser goes next (back to the provider, which answers the application).
 */
const SSO_SIGNED_IN = '单点登录成功'

export function registerInteractionRoutes(app: FastifyInstance, host: OidcHost) {
  const { db, sessions, authz } = app.ctx
  const throttle = app.ctx.loginThrottle
  const bind = directoryBind(db, app.ctx.box, (err) => app.log.warn({ err }, 'directory sign-in failed'))
  const gate = signInGate(db, authz)

  const details = async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await host.current.interactionDetails(req.raw, reply.raw)
    } catch (err) {
      if (err instanceof errors.SessionNotFound) throw badRequest(MSG.oidcInteractionGone)
      throw err
    }
  }

  const finish = async (req: FastifyRequest, reply: FastifyReply, result: Record<string, unknown>) => {
    const redirectTo = await host.current.interactionResult(req.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    })
    return ok({ redirectTo })
  }

  /** A machine client's service account never signs in interactively. */
  const refuseServiceAccount = async (userId: number) => {
    const [row] = await db
      .select({ serviceAccount: users.serviceAccount })
      .from(users)
      .where(eq(users.id, userId))
    if (row?.serviceAccount) throw forbidden(MSG.oidcServiceAccount)
  }

  /** The login step's end: the user is the interaction's account. `logged`: the second step wrote the log row. */
  const signIn = async (
    req: FastifyRequest,
    reply: FastifyReply,
    user: { id: number; nickName: string },
    logged = false,
  ) => {
    await refuseServiceAccount(user.id)
    if (!logged) await recordUserLogin(db, req, user, 'success', SSO_SIGNED_IN)
    return finish(req, reply, { login: { accountId: String(user.id) } })
  }

  /**
   * A password to change or two-step sign-in to bind (DESIGN.md §14) is done in the console, not on
   * this screen (docs/decisions.md): the answer says which, and the login log keeps it.
   */
  const refuseRestricted = async (
    req: FastifyRequest,
    user: { id: number; nickName: string },
    restricted: Restriction,
    expired: boolean,
  ): Promise<never> => {
    const refusal = forbidden(
      restricted === 'password_change' ? MSG.oidcChangePasswordFirst : MSG.oidcEnrollMfaFirst,
    )
    await recordUserLogin(db, req, user, expired ? 'password_expired' : 'failure', refusal.message)
    throw refusal
  }

  app.get(`${INTERACTION_PREFIX}/:uid/details`, async (req, reply) => {
    const interaction = await details(req, reply)
    const client = await host.current.Client.find(String(interaction.params.client_id))
    return ok({
      prompt: interaction.prompt.name,
      clientId: String(interaction.params.client_id),
      clientName: (client?.clientName as string | undefined) ?? String(interaction.params.client_id),
      scopes: String(interaction.params.scope ?? '')
        .split(' ')
        .filter(Boolean),
    })
  })

  // name and password, with the console sign-in's throttle and answers; with two-step sign-in bound,
  // the second step's token as the console's sign-in answers it
  app.post<{ Body: { nickName?: unknown; password?: unknown } }>(
    `${INTERACTION_PREFIX}/:uid/login`,
    async (req, reply) => {
      const interaction = await details(req, reply)
      if (interaction.prompt.name !== 'login') throw badRequest(MSG.oidcWrongStep)
      const { nickName, password } = req.body ?? {}
      if (typeof nickName !== 'string' || !nickName.trim() || nickName.length > 64)
        throw badRequest(MSG.nickNameRequired)
      if (typeof password !== 'string' || !password || password.length > 128) throw badRequest('请输入密码')
      const attempt = { nickName, address: req.ip, userAgent: req.headers['user-agent'] ?? null }
      let user: Awaited<ReturnType<typeof checkCredentials>>
      try {
        const wanted = clientGone(reply)
        user = await checkCredentials(db, throttle, { nickName, password, address: req.ip, wanted }, bind)
      } catch (err) {
        // refused attempts land in the login log as the console's do
        await recordLoginRefusal(db, attempt, err)
        if (err instanceof ThrottledError) reply.header('retry-after', String(err.retryAfterSeconds))
        throw err
      }
      const { restricted, expired, mfa, methods, passkeyOnly } = await signInDemands(db, gate, user)
      // the second step comes first, as in the console: a restriction is told only to whoever passed it
      if (mfa)
        return ok(
          {
            mfaRequired: true,
            mfaToken: await openMfaChallenge(db, user.id, restricted, passkeyOnly),
            methods,
          },
          SIGN_IN_MSG.mfaRequired,
        )
      if (restricted) return refuseRestricted(req, user, restricted, expired)
      return signIn(req, reply, user)
    },
  )

  // a passkey, alone or as the second step (DESIGN.md §23)
  registerPasskeyInteraction(app, `${INTERACTION_PREFIX}/:uid/passkey`, {
    prompt: async (req, reply) => (await details(req, reply)).prompt.name,
    signIn,
    refuseRestricted,
  })

  // the second step (DESIGN.md §14): the console's own check, tries, throttle and login log rows
  app.post<{ Body: { mfaToken?: unknown; code?: unknown; recoveryCode?: unknown } }>(
    `${INTERACTION_PREFIX}/:uid/mfa`,
    async (req, reply) => {
      const interaction = await details(req, reply)
      if (interaction.prompt.name !== 'login') throw badRequest(MSG.oidcWrongStep)
      const { mfaToken, code, recoveryCode } = req.body ?? {}
      if (typeof mfaToken !== 'string' || !mfaToken || mfaToken.length > 128)
        throw badRequest(SIGN_IN_MSG.mfaTokenInvalid)
      const proof = {
        code: typeof code === 'string' && code.length <= 16 ? code.replace(/\s+/g, '') : undefined,
        recoveryCode:
          typeof recoveryCode === 'string' && recoveryCode.length <= 32 ? recoveryCode : undefined,
      }
      if (!proof.code && !proof.recoveryCode) throw badRequest(SIGN_IN_MSG.mfaCodeWrong)
      const attempt = { address: req.ip, userAgent: req.headers['user-agent'] ?? null }
      try {
        const passed = await passSecondStep(db, throttle, app.ctx.box, { mfaToken, ...proof }, attempt)
        if (passed.user.restricted) {
          // a spent recovery code is logged even so: the user must see it gone
          if (passed.via === 'recovery') await recordSecondStep(db, passed, attempt, SSO_SIGNED_IN)
          return await refuseRestricted(req, passed.user, passed.user.restricted, false)
        }
        await recordSecondStep(db, passed, attempt, SSO_SIGNED_IN)
        return await signIn(req, reply, passed.user, true)
      } catch (err) {
        if (!(err instanceof SecondStepRefused)) throw err
        const refusal = await recordSecondStepRefusal(db, err, attempt)
        if (refusal instanceof ThrottledError) reply.header('retry-after', String(refusal.retryAfterSeconds))
        throw refusal
      }
    },
  )

  // an existing console session skips the password
  app.post(`${INTERACTION_PREFIX}/:uid/session`, async (req, reply) => {
    const interaction = await details(req, reply)
    if (interaction.prompt.name !== 'login') throw badRequest(MSG.oidcWrongStep)
    const token = req.headers[AUTH_HEADER]
    const user = typeof token === 'string' && token ? await sessions.find(token) : null
    if (!user) throw new AppError(401, MSG.unauthorized)
    // a restricted session may do nothing else, here either (DESIGN.md §14)
    if (user.restricted === 'password_change') throw forbidden(SIGN_IN_MSG.mustChangePassword)
    if (user.restricted === 'mfa_enroll') throw forbidden(SIGN_IN_MSG.mustEnrollMfa)
    if (user.restricted === 'passkey_enroll') throw forbidden(PASSKEY_MSG.mustEnroll)
    return signIn(req, reply, user)
  })

  app.post(`${INTERACTION_PREFIX}/:uid/consent`, async (req, reply) => {
    const interaction = await details(req, reply)
    if (interaction.prompt.name !== 'consent' || !interaction.session?.accountId)
      throw badRequest(MSG.oidcWrongStep)
    const { Grant } = host.current
    const grant = interaction.grantId
      ? (await Grant.find(interaction.grantId))!
      : new Grant({
          accountId: interaction.session.accountId,
          clientId: String(interaction.params.client_id),
        })
    const missing = interaction.prompt.details as {
      missingOIDCScope?: string[]
      missingOIDCClaims?: string[]
      missingResourceScopes?: Record<string, string[]>
    }
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '))
    const grantId = await grant.save()
    return finish(req, reply, { consent: { grantId } })
  })

  app.post(`${INTERACTION_PREFIX}/:uid/abort`, async (req, reply) => {
    await details(req, reply)
    return finish(req, reply, { error: 'access_denied', error_description: '用户取消了登录' })
  })
}
