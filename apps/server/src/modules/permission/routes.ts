import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authApi, MSG } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { authDetail, authTree, deleteAuth, insertAuth, markTreeGrantable, updateAuth } from './service'

/** The permission (auth) tree of SPEC.md §7 "Auth". */
export const permissionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, catalogue, power, authz } = app.ctx

  route(app, authApi.tree, async (req) =>
    ok(markTreeGrantable(await authTree(db), await power.lackedNodes(db, currentUser(req).id))),
  )

  route(app, authApi.detail, async (req) => ok(await authDetail(db, req.query.authCode)))

  route(app, authApi.insert, async (req) =>
    ok(await insertAuth(db, authz, power, req.body, currentUser(req).id), MSG.created),
  )

  route(app, authApi.update, async (req) => {
    await updateAuth(db, authz, power, req.body, currentUser(req).id)
    return ok(null, MSG.updated)
  })

  route(app, authApi.delete, async (req) => {
    await deleteAuth(db, power, req.query.authCode, currentUser(req).id)
    return ok(null, MSG.deleted)
  })

  route(app, authApi.backEnd, async () => ok({ urlMap: catalogue.urlMap() }))
}
