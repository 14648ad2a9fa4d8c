import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  Envelope,
  NullData,
  Page,
  StationDetail,
  StationIdQuery,
  StationInsertBody,
  StationListBody,
  StationRow,
  StationSimple,
  StationSimpleBody,
  StationUpdateBody,
} from '@amg/contract'
import { ok } from '../../lib/reply'
import { currentUser } from '../../lib/context'
import {
  deleteStation,
  insertStation,
  listStations,
  simpleStations,
  stationDetail,
  updateStation,
} from './service'

const TAGS = ['职位管理']

export const stationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power } = app.ctx

  app.post(
    '/station/list/simple',
    {
      config: { readOnly: true },
      schema: {
        tags: TAGS,
        summary: '职位简单列表',
        description: '带 orgId 时返回尚未关联到该部门的职位（linked=true 时返回已关联的职位）',
        body: StationSimpleBody,
        response: { 200: Envelope(Type.Array(StationSimple)) },
      },
    },
    async (req) => ok(await simpleStations(db, req.body)),
  )

  app.post(
    '/station/list',
    {
      config: { readOnly: true },
      schema: {
        tags: TAGS,
        summary: '职位列表',
        body: StationListBody,
        response: { 200: Envelope(Page(StationRow)) },
      },
    },
    async (req) => ok(await listStations(db, req.body)),
  )

  app.post(
    '/station/insert',
    {
      schema: {
        tags: TAGS,
        summary: '新建职位',
        body: StationInsertBody,
        response: { 200: Envelope(Type.Integer({ description: '新职位的 id' })) },
      },
    },
    async (req) => ok(await insertStation(db, req.body, currentUser(req).id), '创建成功'),
  )

  app.get(
    '/station/detail',
    {
      schema: {
        tags: TAGS,
        summary: '职位详情',
        querystring: StationIdQuery,
        response: { 200: Envelope(StationDetail) },
      },
    },
    async (req) => ok(await stationDetail(db, req.query.stationId)),
  )

  app.put(
    '/station/update',
    { schema: { tags: TAGS, summary: '修改职位', body: StationUpdateBody, response: { 200: NullData } } },
    async (req) => {
      await updateStation(db, power, req.body, currentUser(req).id)
      return ok(null, '修改成功')
    },
  )

  app.delete(
    '/station/delete',
    { schema: { tags: TAGS, summary: '删除职位', querystring: StationIdQuery, response: { 200: NullData } } },
    async (req) => {
      await deleteStation(db, power, req.query.stationId, currentUser(req).id)
      return ok(null, '删除成功')
    },
  )
}
