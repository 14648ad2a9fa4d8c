import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { eq } from 'drizzle-orm'
import { AUTH_HEADER, MSG, SIGN_IN_MSG } from '@amg/contract'
import { errors } from 'oidc-provider'
import { oidcClients } from '../../db/schema'
import { checkCredentials, signInDemands } from '../../auth/sessions'
import { signInGate } from '../../auth/mfa-due'
import { AppError, badRequest, forbidden } from '../../lib/errors'
import { ok } from '../../lib/reply'
import { recordLogin } from '../../audit/login-log'
import { recordLoginRefusal } from '../session/login-log'
import { ThrottledError } from '../../auth/login-throttle'
import type { OidcHost } from './host'
import { INTERACTION_PREFIX } from './provider'

/**
 * The calls behind the console's login and consent screens (DESIGN.md §16), under the interaction's
 * own path: the provider binds an interaction to the browser that started it with a cookie scoped to
 * `/oidc-login/<uid>`, so only that browser can finish it (a link to someone else's interaction does
 * nothing with the victim's console session). Answers are our envelope; `redirectTo` is where the
 * browser goes next (back to the provider, which answers the application).
 */
export function registerInteractionRoutes(app: FastifyInstance, host: OidcHost) {
  const { db, sessions, authz } = app.ctx
  const throttle = app.ctx.loginThrottle
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
      .select({ id: oidcClients.serviceId })
      .from(oidcClients)
      .where(eq(oidcClients.serviceUserId, userId))
      .limit(1)
    if (row) throw forbidden(MSG.oidcServiceAccount)
  }

  const signIn = async (req: FastifyRequest, reply: FastifyReply, user: { id: number; nickName: string }) => {
    await refuseServiceAccount(user.id)
    await recordLogin(db, {
      nickName: user.nickName,
      userId: user.id,
      ip: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
      result: 'success',
      msg: '单点登录成功',
    })
    return finish(req, reply, { login: { accountId: String(user.id) } })
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

  // name and password, with the console sign-in's throttle and answers
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
      try {
        const user = await checkCredentials(db, throttle, { nickName, password, address: req.ip })
        // a password alone is not enough where the console asks for more (DESIGN.md §14): a second
        // step or a forced change is done by signing in to the console, whose session then carries on
        const demands = await signInDemands(db, gate, user)
        if (demands.mfa || demands.restricted) throw forbidden(MSG.oidcConsoleFirst)
        return await signIn(req, reply, user)
      } catch (err) {
        // refused attempts land in the login log as the console's do
        await recordLoginRefusal(db, attempt, err)
        if (err instanceof ThrottledError) reply.header('retry-after', String(err.retryAfterSeconds))
        throw err
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
