import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope, NullData, OnlineSessionListBody, OnlineSessionPage, SessionIdQuery } from '@amg/contract'
import { ok } from '../../lib/reply'
import { currentUser } from '../../lib/context'
import { listOnline, revokeSession } from './service'

const tags = ['系统监控']

/** Who is signed in, and ending a session (DESIGN.md §9). */
export const onlineRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power } = app.ctx

  app.post(
    '/session/online/list',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '在线会话列表',
        body: OnlineSessionListBody,
        response: { 200: Envelope(OnlineSessionPage) },
      },
    },
    async (req) => ok(await listOnline(db, req.body ?? {}, req.token)),
  )

  app.delete(
    '/session/online/revoke',
    { schema: { tags, summary: '强制下线', querystring: SessionIdQuery, response: { 200: NullData } } },
    async (req) => {
      await revokeSession(
        db,
        power,
        { id: currentUser(req).id, ip: req.ip, userAgent: req.headers['user-agent'] ?? null },
        req.query.id,
      )
      return ok(null, '已强制下线')
    },
  )
}
