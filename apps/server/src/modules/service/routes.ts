import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  Envelope,
  MSG,
  NullData,
  ServiceIdQuery,
  ServiceInsertBody,
  ServiceListBody,
  ServicePage,
  ServiceUpdateBody,
} from '@amg/contract'
import { ok } from '../../lib/reply'
import { currentUser } from '../../lib/context'
import { deleteService, insertService, listServices, updateService } from './service'

const tags = ['服务管理']

/** DESIGN.md §10a: the services behind gateways, each with its own permission namespace. */
export const serviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power } = app.ctx

  app.post(
    '/service/list',
    {
      config: { readOnly: true },
      schema: { tags, summary: '服务列表', body: ServiceListBody, response: { 200: Envelope(ServicePage) } },
    },
    async (req) => ok(await listServices(db, req.body ?? {})),
  )

  app.post(
    '/service/insert',
    {
      schema: {
        tags,
        summary: '新建服务',
        body: ServiceInsertBody,
        response: { 200: Envelope(Type.Integer()) },
      },
    },
    async (req) => ok(await insertService(db, power, req.body, currentUser(req).id), MSG.created),
  )

  app.put(
    '/service/update',
    { schema: { tags, summary: '修改服务', body: ServiceUpdateBody, response: { 200: NullData } } },
    async (req) => {
      await updateService(db, req.body, currentUser(req).id)
      return ok(null, MSG.updated)
    },
  )

  app.delete(
    '/service/delete',
    { schema: { tags, summary: '删除服务', querystring: ServiceIdQuery, response: { 200: NullData } } },
    async (req) => {
      await deleteService(db, power, req.query.id, currentUser(req).id)
      return ok(null, MSG.deleted)
    },
  )
}
