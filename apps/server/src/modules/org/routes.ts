import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { orgApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { deleteOrg, insertOrg, orgDetail, orgTree, updateOrg } from './service'
import { acceptedEncoding, encoded, type TreePayload } from './tree-payload'
import { VersionedCache } from '../../cache/versioned-cache'

export const orgRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power } = app.ctx

  const tree = new VersionedCache(app.ctx, 'org')
  route(app, orgApi.tree, async (req, reply) => {
    const payload = await tree.get<TreePayload>('tree', async () => ({
      json: JSON.stringify(ok(await orgTree(db))),
    }))
    reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding')
    const encoding = acceptedEncoding(req.headers['accept-encoding'])
    // already serialized (the contract's schema documents it): sent as it is
    if (!encoding) return reply.send(payload.json as never)
    return reply.header('content-encoding', encoding).send(encoded(payload, encoding) as never)
  })

  route(app, orgApi.detail, async (req) => ok(await orgDetail(db, req.query.orgId)))

  route(app, orgApi.insert, async (req) => ok(await insertOrg(db, req.body, currentUser(req).id), '创建成功'))

  route(app, orgApi.update, async (req) => {
    await updateOrg(db, power, req.body, currentUser(req).id)
    return ok(null, '修改成功')
  })

  route(app, orgApi.delete, async (req) => {
    await deleteOrg(db, power, req.query.orgId, currentUser(req).id)
    return ok(null, '删除成功')
  })
}
