import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, serviceApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { deleteService, insertService, listServices, updateService } from './service'

/** DESIGN.md §10a: the services behind gateways, each with its own permission namespace. */
export const serviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power } = app.ctx

  route(app, serviceApi.list, async (req) => ok(await listServices(db, req.body ?? {})))

  route(app, serviceApi.insert, async (req) =>
    ok(await insertService(db, power, req.body, currentUser(req).id), MSG.created),
  )

  route(app, serviceApi.update, async (req) => {
    await updateService(db, req.body, currentUser(req).id)
    return ok(null, MSG.updated)
  })

  route(app, serviceApi.delete, async (req) => {
    await deleteService(db, power, req.query.id, currentUser(req).id)
    return ok(null, MSG.deleted)
  })
}
