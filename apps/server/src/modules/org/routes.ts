import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  Envelope,
  NullData,
  OrgDetail,
  OrgIdQuery,
  OrgInsertBody,
  OrgTree,
  OrgUpdateBody,
} from '@amg/contract'
import { ok } from '../../lib/reply'
import { currentUser } from '../../lib/context'
import { deleteOrg, insertOrg, orgDetail, orgTree, updateOrg } from './service'
import { acceptedEncoding, encoded, type TreePayload } from './tree-payload'
import { VersionedCache } from '../../cache/versioned-cache'

const TAGS = ['部门管理']

export const orgRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power } = app.ctx

  const tree = new VersionedCache(app.ctx, 'org')
  app.get(
    '/org/tree',
    { schema: { tags: TAGS, summary: '部门树', response: { 200: Envelope(OrgTree) } } },
    async (req, reply) => {
      const payload = await tree.get<TreePayload>('tree', async () => ({
        json: JSON.stringify(ok(await orgTree(db))),
      }))
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding')
      const encoding = acceptedEncoding(req.headers['accept-encoding'])
      // already serialized (the schema above documents it): sent as it is
      if (!encoding) return reply.send(payload.json as never)
      return reply.header('content-encoding', encoding).send(encoded(payload, encoding) as never)
    },
  )

  app.get(
    '/org/detail',
    {
      schema: {
        tags: TAGS,
        summary: '部门详情',
        querystring: OrgIdQuery,
        response: { 200: Envelope(OrgDetail) },
      },
    },
    async (req) => ok(await orgDetail(db, req.query.orgId)),
  )

  app.post(
    '/org/insert',
    {
      schema: {
        tags: TAGS,
        summary: '新建部门',
        body: OrgInsertBody,
        response: { 200: Envelope(Type.Integer({ description: '新部门的 id' })) },
      },
    },
    async (req) => ok(await insertOrg(db, req.body, currentUser(req).id), '创建成功'),
  )

  app.put(
    '/org/update',
    { schema: { tags: TAGS, summary: '修改部门', body: OrgUpdateBody, response: { 200: NullData } } },
    async (req) => {
      await updateOrg(db, power, req.body, currentUser(req).id)
      return ok(null, '修改成功')
    },
  )

  app.delete(
    '/org/delete',
    { schema: { tags: TAGS, summary: '删除部门', querystring: OrgIdQuery, response: { 200: NullData } } },
    async (req) => {
      await deleteOrg(db, power, req.query.orgId, currentUser(req).id)
      return ok(null, '删除成功')
    },
  )
}
