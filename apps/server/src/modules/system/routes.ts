import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { systemApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'

export const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { database, config } = app.ctx

  route(app, systemApi.health, async (_req, reply) => {
    try {
      await database.ping()
      return ok({ status: 'ok', database: database.kind })
    } catch {
      // `database: 'down'` (not the engine): what a load balancer's or orchestrator's probe looks for
      return reply
        .status(503)
        .send({ code: 503, msg: '数据库不可用', data: { status: 'down', database: 'down' } })
    }
  })

  route(app, systemApi.config, async () =>
    ok({
      showOperatorUser: config.showOperatorUser,
      isAms: config.isAms,
      hideUserBaseInfo: config.hideUserBaseInfo,
      uploadMaxSizeMb: config.uploadMaxMb,
    }),
  )
}
