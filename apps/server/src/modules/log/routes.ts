import { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { monitorApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { mayReadUsers } from '../../audit/personal-fields'
import { exportOperations, listLogins, listOperations, operationDetail, sweepLogs } from './index'

/** The operation and login logs (DESIGN.md §9): read and export only; no route edits or deletes a row. */
import { callerOf } from '../../auth/user-scope'
import { downloadStamp } from '../../lib/workbook'

export const logRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, authz } = app.ctx
  // users' personal fields in the changes show only to a reader who may read users (personal-fields.ts)
  const readerOf = async (req: FastifyRequest) => ({
    mayReadUsers: await mayReadUsers(authz, currentUser(req).id),
  })

  // Retention: rows older than AUDIT_RETENTION_DAYS go, once at start and every six hours.
  if (config.auditRetentionDays > 0) {
    const sweep = () =>
      sweepLogs(db, config.auditRetentionDays).catch((err: Error) =>
        app.log.error({ err: { message: err.message } }, 'log sweep failed'),
      )
    app.addHook('onReady', async () => void sweep())
    const timer = setInterval(sweep, 6 * 3_600_000)
    timer.unref()
    app.addHook('onClose', async () => clearInterval(timer))
  }

  route(app, monitorApi.operationList, async (req) =>
    ok(await listOperations(db, req.body ?? {}, config.timeZone, await callerOf(app.ctx.authz, req))),
  )

  route(app, monitorApi.operationDetail, async (req) =>
    ok(
      await operationDetail(
        db,
        req.query.id,
        await readerOf(req),
        config.timeZone,
        await callerOf(app.ctx.authz, req),
      ),
    ),
  )

  route(app, monitorApi.operationExport, async (req, reply) => {
    const reader = await readerOf(req)
    const caller = await callerOf(app.ctx.authz, req)
    const stamp = downloadStamp(config.timeZone)
    const name = encodeURIComponent(`操作日志-${stamp}.csv`)
    return reply
      .type('text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="operation-log-${stamp}.csv"; filename*=UTF-8''${name}`,
      )
      .send(Readable.from(exportOperations(db, req.query, reader, config.timeZone, caller)))
  })

  route(app, monitorApi.loginList, async (req) =>
    ok(await listLogins(db, req.body ?? {}, config.timeZone, await callerOf(app.ctx.authz, req))),
  )
}
