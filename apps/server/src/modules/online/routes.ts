import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { monitorApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { listOnline, revokeSession } from './service'
import { callerOf } from '../../auth/user-scope'

/** Who is signed in, and ending a session (DESIGN.md §9). */
export const onlineRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, authz, config } = app.ctx

  route(app, monitorApi.onlineList, async (req) =>
    ok(await listOnline(db, req.body ?? {}, req.token, await callerOf(authz, req), config.timeZone)),
  )

  route(app, monitorApi.revoke, async (req) => {
    await revokeSession(
      db,
      power,
      {
        id: currentUser(req).id,
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
        scoped: await callerOf(authz, req),
      },
      req.query.id,
    )
    return ok(null, '已强制下线')
  })
}
