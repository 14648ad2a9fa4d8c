import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { orgApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { deleteOrg, insertOrg, orgDetail, orgTree, scopedTree, updateOrg } from './service'
import { callerOf } from '../../auth/user-scope'
import { acceptedEncoding, encoded, type TreePayload } from './tree-payload'
import { VersionedCache } from '../../cache/versioned-cache'

export const orgRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, authz } = app.ctx
  const caller = (req: Parameters<typeof callerOf>[1]) => callerOf(authz, req)

  const tree = new VersionedCache(app.ctx, 'org')
  route(app, orgApi.tree, async (req, reply) => {
    const who = await caller(req)
    // a scoped administrator's tree is cut to their scope (DESIGN.md §13), read afresh each time
    if (!who.scope.all) return reply.send(ok(scopedTree(await orgTree(db), who)) as never)
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

  route(app, orgApi.insert, async (req) => ok(await insertOrg(db, req.body, await caller(req)), '创建成功'))

  route(app, orgApi.update, async (req) => {
    await updateOrg(db, power, req.body, await caller(req))
    return ok(null, '修改成功')
  })

  route(app, orgApi.delete, async (req) => {
    await deleteOrg(db, power, req.query.orgId, await caller(req))
    return ok(null, '删除成功')
  })
}
