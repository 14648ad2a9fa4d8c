import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ChangePasswordBody, CurrentUser, Envelope, LoginBody, LoginResult, NullData } from '@amg/contract'
import { ok } from '../../lib/reply'
import { currentUser } from '../../lib/context'
import { endSession, login } from '../../auth/sessions'
import { changeOwnPassword, getCurrentUser } from './service'

export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, authz } = app.ctx

  app.post(
    '/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['登录'],
        summary: '登录',
        security: [],
        body: LoginBody,
        response: { 200: Envelope(LoginResult) },
      },
    },
    async (req) => ok(await login(db, config, req.body.nickName, req.body.password), '登录成功'),
  )

  app.post(
    '/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['登录'], summary: '退出登录', response: { 200: NullData } },
    },
    async (req) => {
      if (req.token) await endSession(db, req.token)
      return ok(null, '已退出登录')
    },
  )

  app.get(
    '/user/current',
    {
      config: { access: 'session' },
      schema: { tags: ['登录'], summary: '当前用户', response: { 200: Envelope(CurrentUser) } },
    },
    async (req) => ok(await getCurrentUser(db, authz, currentUser(req).id)),
  )

  app.put(
    '/user/password',
    {
      config: { access: 'session' },
      schema: {
        tags: ['登录'],
        summary: '修改自己的密码',
        body: ChangePasswordBody,
        response: { 200: NullData },
      },
    },
    async (req) => {
      await changeOwnPassword(db, currentUser(req).id, req.token!, req.body)
      return ok(null, '密码修改成功')
    },
  )
}
