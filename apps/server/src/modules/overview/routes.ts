import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { systemApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { overviewFor } from './service'

/** The home page's figures: open to every signed-in user, answered as far as their lists go. */
export const overviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, authz, config } = app.ctx
  route(app, systemApi.overview, async (req) =>
    ok(await overviewFor(db, authz, currentUser(req).id, config.timeZone)),
  )
}
