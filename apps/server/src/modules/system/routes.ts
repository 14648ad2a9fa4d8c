import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ConsoleConfig, Envelope, Health } from '@amg/contract'
import { ok } from '../../lib/reply'

export const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { database, config } = app.ctx

  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['系统'],
        summary: '健康检查',
        security: [],
        response: { 200: Envelope(Health), 503: Envelope(Health) },
      },
    },
    async (_req, reply) => {
      try {
        await database.ping()
        return ok({ status: 'ok', database: database.kind })
      } catch {
        // `database: 'down'` (not the engine): what a load balancer's or orchestrator's probe looks for
        return reply
          .status(503)
          .send({ code: 503, msg: '数据库不可用', data: { status: 'down', database: 'down' } })
      }
    },
  )

  app.get(
    '/config',
    {
      config: { access: 'public' },
      schema: {
        tags: ['系统'],
        summary: '控制台运行参数',
        security: [],
        response: { 200: Envelope(ConsoleConfig) },
      },
    },
    async () =>
      ok({
        showOperatorUser: config.showOperatorUser,
        isAms: config.isAms,
        hideUserBaseInfo: config.hideUserBaseInfo,
        uploadMaxSizeMb: config.uploadMaxMb,
      }),
  )
}
