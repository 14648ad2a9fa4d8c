import { loggableError } from '../../lib/error-handler'
import { clientGone } from '../../lib/client-gone'
import { directoryBind } from '../directory/bind'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ChangePasswordBody, SIGN_IN_MSG, sessionApi } from '@amg/contract'
import { JSON_TYPE, ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { endSession, login } from '../../auth/sessions'
import { loginSecondStep, SecondStepRefused } from '../../auth/mfa-login'
import { signInGate } from '../../auth/mfa-due'
import { recordLogin, recordUserLogin } from '../../audit/login-log'
import { recordLoginRefusal, recordSecondStep, recordSecondStepRefusal } from './login-log'
import { ThrottledError } from '../../auth/login-throttle'
import { withRetryAfter } from '../../auth/retry-after'
import { dummyPasswordHash } from '../../auth/password'
import { changeOwnPassword, checkPasswordChange, getCurrentUser } from './service'
import { beforeTransaction } from '../../lib/before-transaction'
import { KeptCurrentAnswers } from './current-answer'
import { CURRENT_URL, currentFastPathCount, keptCurrent } from './current-fast-path'
import { fastReadsOf } from '../authz/forward-fast-path'
import { HeldRead } from '../authz/held-read'

export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, authz } = app.ctx
  // One throttle per app: sign-in, password change and the single sign-on login share the per-address count.
  const throttle = app.ctx.loginThrottle
  // the hash an unknown name is checked against, made as the server starts (without holding the start
  // up), so that the first unknown name is not answered slower than a known one
  app.addHook('onReady', async () => void dummyPasswordHash())
  // the old password's check and the new hash run before the write's transaction opens
  const passwordChange = beforeTransaction((req, reply) =>
    withRetryAfter(reply, () =>
      checkPasswordChange(
        db,
        { userId: currentUser(req).id, address: req.ip },
        throttle,
        req.body as ChangePasswordBody,
      ),
    ),
  )

  // what the settings ask of this user at sign-in and after a password change (DESIGN.md §14)
  const gate = signInGate(db, authz)
  // directory users sign in by binding to the directory (DESIGN.md §22)
  const bind = directoryBind(db, app.ctx.box, (err) =>
    app.log.warn({ err: loggableError(err) }, 'directory sign-in failed'),
  )

  route(app, sessionApi.login, async (req, reply) => {
    const attempt = {
      nickName: req.body.nickName,
      address: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
    }
    try {
      const outcome = await withRetryAfter(reply, () =>
        login(
          db,
          config,
          throttle,
          gate,
          { ...attempt, password: req.body.password, wanted: clientGone(reply) },
          bind,
        ),
      )
      if (outcome.kind === 'mfa')
        return ok(
          { mfaRequired: true, mfaToken: outcome.mfaToken, methods: outcome.methods },
          SIGN_IN_MSG.mfaRequired,
        )
      const { token, user, expired } = outcome
      await recordLogin(db, {
        ...attempt,
        ip: req.ip,
        userId: user.id,
        result: expired ? 'password_expired' : 'success',
        msg: expired ? SIGN_IN_MSG.passwordExpired : '登录成功',
      })
      const { restricted, ...shown } = user
      return ok({ token, user: shown, ...(restricted ? { restricted } : {}) }, '登录成功')
    } catch (err) {
      await recordLoginRefusal(db, attempt, err)
      throw err
    }
  })

  route(app, sessionApi.loginMfa, async (req, reply) => {
    const attempt = { address: req.ip, userAgent: req.headers['user-agent'] ?? null }
    try {
      const { token, user, via } = await loginSecondStep(db, config, throttle, app.ctx.box, req.body, attempt)
      await recordSecondStep(db, { user, via }, attempt, '登录成功')
      const { restricted, ...shown } = user
      return ok({ token, user: shown, ...(restricted ? { restricted } : {}) }, '登录成功')
    } catch (err) {
      if (!(err instanceof SecondStepRefused)) throw err
      const refusal = await recordSecondStepRefusal(db, err, attempt)
      if (refusal instanceof ThrottledError) reply.header('retry-after', String(refusal.retryAfterSeconds))
      throw refusal
    }
  })

  route(app, sessionApi.logout, async (req) => {
    if (req.token) {
      const user = await app.ctx.sessions.find(req.token)
      await endSession(db, req.token)
      if (user) await recordUserLogin(db, req, user, 'logout', '已退出登录')
    }
    return ok(null, '已退出登录')
  })

  // the answer kept per user and access (current-answer.ts), and over HTTP sent before Fastify when it
  // is kept (current-fast-path.ts)
  const currentAnswers = new KeptCurrentAnswers()
  if (app.heldCaller)
    fastReadsOf(app.server)?.serveRead(
      CURRENT_URL,
      new HeldRead(app.heldCaller, app.log, keptCurrent(currentAnswers, authz), currentFastPathCount),
    )
  route(app, sessionApi.current, async (req, reply) => {
    const user = currentUser(req)
    const access = await authz.resolve(user.id)
    let body = currentAnswers.of(user, access)
    if (!body) {
      const current = await getCurrentUser(db, authz, user, access)
      body = currentAnswers.made(
        user,
        access,
        reply.serialize(ok(current)) as string,
        current.manageScope === null,
      )
    }
    return reply.type(JSON_TYPE).send(body as never)
  })

  route(
    app,
    sessionApi.changePassword,
    async (req) => {
      const userId = currentUser(req).id
      await changeOwnPassword(db, { userId, token: req.token! }, passwordChange.resultFor(req), (id) =>
        gate.enrolmentDue(passwordChange.resultFor(req).settings, id),
      )
      return ok(null, '密码修改成功')
    },
    { preHandler: passwordChange.preHandler },
  )
}
