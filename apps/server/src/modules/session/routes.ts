import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ChangePasswordBody, sessionApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { endSession, login } from '../../auth/sessions'
import { recordLogin } from '../../audit/login-log'
import { recordLoginRefusal } from './login-log'
import { ThrottledError } from '../../auth/login-throttle'
import { dummyPasswordHash } from '../../auth/password'
import { changeOwnPassword, checkPasswordChange, getCurrentUser } from './service'
import { beforeTransaction } from '../../lib/before-transaction'

/** A refusal by the throttle tells the client when to come back (the error handler writes the envelope). */
async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof ThrottledError) reply.header('retry-after', String(err.retryAfterSeconds))
    throw err
  }
}

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

  route(app, sessionApi.login, async (req, reply) => {
    const attempt = {
      nickName: req.body.nickName,
      address: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
    }
    try {
      const signedIn = await withRetryAfter(reply, () =>
        login(db, config, throttle, { ...attempt, password: req.body.password }),
      )
      await recordLogin(db, {
        ...attempt,
        ip: req.ip,
        userId: signedIn.user.id,
        result: 'success',
        msg: '登录成功',
      })
      return ok(signedIn, '登录成功')
    } catch (err) {
      await recordLoginRefusal(db, attempt, err)
      throw err
    }
  })

  route(app, sessionApi.logout, async (req) => {
    if (req.token) {
      const user = await app.ctx.sessions.find(req.token)
      await endSession(db, req.token)
      if (user)
        await recordLogin(db, {
          nickName: user.nickName,
          userId: user.id,
          ip: req.ip,
          userAgent: req.headers['user-agent'] ?? null,
          result: 'logout',
          msg: '已退出登录',
        })
    }
    return ok(null, '已退出登录')
  })

  route(app, sessionApi.current, async (req) => ok(await getCurrentUser(db, authz, currentUser(req))))

  route(
    app,
    sessionApi.changePassword,
    async (req) => {
      const userId = currentUser(req).id
      await changeOwnPassword(db, { userId, token: req.token! }, passwordChange.resultFor(req))
      return ok(null, '密码修改成功')
    },
    { preHandler: passwordChange.preHandler },
  )
}
