import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { orgApi, type OrgTreeQuery } from '@amg/contract'
import { JSON_TYPE, ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { orgTree } from './tree'
import { orgDetail } from './detail'
import { deleteOrg, insertOrg, updateOrg } from './writes'
import { askedPart, orgLevel, orgWithPath, searchOrgs } from './tree-parts'
import { callerOf } from '../../auth/user-scope'
import { scopedPart } from './scoped-parts'
import { acceptedEncoding, encoded, type TreePayload } from './tree-payload'
import { VersionedCache } from '../../cache/versioned-cache'
import type { Db } from '../../db/connection'
import { fastReadsOf } from '../authz/forward-fast-path'
import { TREE_URL, keptTree, treeFastPathCount } from './tree-fast-path'
import { HeldRead } from '../authz/held-read'

/** The part of the tree a query asks for, as a cache key and the read that answers it. */
function treePart(db: Db, query: OrgTreeQuery): { key: string; read: () => Promise<unknown> } {
  const part = askedPart(query)
  switch (part.kind) {
    case 'level':
      return { key: `level:${part.parentId}`, read: () => orgLevel(db, part.parentId) }
    case 'roots':
      return { key: 'roots', read: () => orgLevel(db, null) }
    case 'path':
      return { key: `path:${part.id}`, read: () => orgWithPath(db, part.id) }
    case 'search':
      return { key: `search:${part.text}`, read: () => searchOrgs(db, part.text) }
    default:
      return { key: 'tree', read: () => orgTree(db) }
  }
}

/** Sends an answer kept serialized (the contract's schema documents it), compressed when accepted. */
function sendPayload(req: FastifyRequest, reply: FastifyReply, payload: TreePayload) {
  reply.type(JSON_TYPE).header('vary', 'accept-encoding')
  const encoding = acceptedEncoding(req.headers['accept-encoding'])
  if (!encoding) return reply.send(payload.json as never)
  return reply.header('content-encoding', encoding).send(encoded(payload, encoding) as never)
}

export const orgRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, authz } = app.ctx
  const caller = (req: Parameters<typeof callerOf>[1]) => callerOf(authz, req)

  // The whole tree (the pickers) and the parts (levels, searches: up to 100 kept) are kept apart, so
  // many searches never push the whole tree out. Both are dropped on any department change.
  const whole = new VersionedCache(app.ctx, 'org')
  const parts = new VersionedCache(app.ctx, 'org')
  // the kept whole tree, over HTTP, is answered before Fastify when it can be (tree-fast-path.ts)
  if (app.heldCaller)
    fastReadsOf(app.server)?.serveRead(
      TREE_URL,
      new HeldRead(app.heldCaller, app.log, keptTree(whole, authz), treeFastPathCount),
    )
  route(app, orgApi.tree, async (req, reply) => {
    const who = await caller(req)
    // a scoped administrator's tree is cut to their scope (DESIGN.md §13), read afresh each time
    if (!who.scope.all) return reply.send(ok(await scopedPart(db, req.query, who)) as never)
    const { key, read } = treePart(db, req.query)
    const cache = key === 'tree' ? whole : parts
    const payload = await cache.get<TreePayload>(key, async () => ({
      json: JSON.stringify(ok(await read())),
    }))
    return sendPayload(req, reply, payload)
  })

  route(app, orgApi.detail, async (req) => ok(await orgDetail(db, req.query.orgId, await caller(req))))

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
