import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authApi, MSG } from '@amg/contract'
import { done, JSON_TYPE, ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { acceptedEncoding, encoded, type TreePayload } from '../org/tree-payload'
import { authDetail, authTree, deleteAuth, insertAuth, markTreeGrantable, updateAuth } from './index'

/** The permission (auth) tree of SPEC.md §7 "Auth". */
export const permissionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, catalogue, power, authz } = app.ctx
  const editor = { db, authz, power }

  route(app, authApi.tree, async (req) =>
    ok(markTreeGrantable(await authTree(db), await power.lackedNodes(db, currentUser(req).id))),
  )

  route(app, authApi.detail, async (req) => ok(await authDetail(db, req.query.authCode)))

  route(app, authApi.insert, async (req) =>
    ok(await insertAuth(editor, req.body, currentUser(req).id), MSG.created),
  )

  route(app, authApi.update, async (req) =>
    done(updateAuth(editor, req.body, currentUser(req).id), MSG.updated),
  )

  route(app, authApi.delete, async (req) =>
    done(deleteAuth(db, power, req.query.authCode, currentUser(req).id), MSG.deleted),
  )

  // The route table is fixed once the server is up: its answer (over 8 KB) is serialized and
  // compressed once, not on every call, and sent as the compression plugin sends it (vary and
  // content-encoding only when compressed; `x-no-compression` honoured).
  let backEnd: TreePayload | undefined
  route(app, authApi.backEnd, async (req, reply) => {
    backEnd ??= { json: JSON.stringify(ok({ urlMap: catalogue.urlMap() })) }
    reply.type(JSON_TYPE)
    const encoding =
      req.headers['x-no-compression'] === undefined ? acceptedEncoding(req.headers['accept-encoding']) : null
    if (!encoding) return reply.send(backEnd.json as never)
    return reply
      .header('vary', 'accept-encoding')
      .header('content-encoding', encoding)
      .send(encoded(backEnd, encoding) as never)
  })
}
