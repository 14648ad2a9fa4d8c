import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { MSG, orgApi, type OrgTreeQuery } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { badRequest } from '../../lib/errors'
import { deleteOrg, insertOrg, orgDetail, orgTree, updateOrg } from './service'
import { orgLevel, orgWithPath, searchOrgs } from './tree-parts'
import { acceptedEncoding, encoded, type TreePayload } from './tree-payload'
import { VersionedCache } from '../../cache/versioned-cache'
import type { Db } from '../../db/connection'

/** The part of the tree a query asks for, as a cache key and the read that answers it. */
function treePart(db: Db, query: OrgTreeQuery): { key: string; read: () => Promise<unknown> } {
  const asked = (['parentId', 'roots', 'keyword', 'pathTo'] as const).filter((k) => query[k] !== undefined)
  if (asked.length > 1) throw badRequest(MSG.orgTreeOneQuery)
  const { parentId, roots, keyword, pathTo } = query
  if (parentId !== undefined) return { key: `level:${parentId}`, read: () => orgLevel(db, parentId) }
  if (roots !== undefined) return { key: 'roots', read: () => orgLevel(db, null) }
  if (pathTo !== undefined) return { key: `path:${pathTo}`, read: () => orgWithPath(db, pathTo) }
  if (keyword !== undefined) {
    const text = keyword.trim()
    if (!text) throw badRequest(MSG.orgTreeKeywordInvalid)
    return { key: `search:${text}`, read: () => searchOrgs(db, text) }
  }
  return { key: 'tree', read: () => orgTree(db) }
}

/** Sends an answer kept serialized (the contract's schema documents it), compressed when accepted. */
function sendPayload(req: FastifyRequest, reply: FastifyReply, payload: TreePayload) {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding')
  const encoding = acceptedEncoding(req.headers['accept-encoding'])
  if (!encoding) return reply.send(payload.json as never)
  return reply.header('content-encoding', encoding).send(encoded(payload, encoding) as never)
}

export const orgRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power } = app.ctx

  // The whole tree (the pickers) and the parts (levels, searches: up to 100 kept) are kept apart, so
  // many searches never push the whole tree out. Both are dropped on any department change.
  const whole = new VersionedCache(app.ctx, 'org')
  const parts = new VersionedCache(app.ctx, 'org')
  route(app, orgApi.tree, async (req, reply) => {
    const { key, read } = treePart(db, req.query)
    const cache = key === 'tree' ? whole : parts
    const payload = await cache.get<TreePayload>(key, async () => ({
      json: JSON.stringify(ok(await read())),
    }))
    return sendPayload(req, reply, payload)
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
