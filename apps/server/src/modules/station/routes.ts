import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { stationApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import {
  deleteStation,
  insertStation,
  listStations,
  simpleStations,
  stationDetail,
  updateStation,
} from './service'

export const stationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power } = app.ctx

  route(app, stationApi.simpleList, async (req) => ok(await simpleStations(db, req.body)))

  route(app, stationApi.list, async (req) => ok(await listStations(db, req.body)))

  route(app, stationApi.insert, async (req) =>
    ok(await insertStation(db, req.body, currentUser(req).id), '创建成功'),
  )

  route(app, stationApi.detail, async (req) => ok(await stationDetail(db, req.query.stationId)))

  route(app, stationApi.update, async (req) => {
    await updateStation(db, power, req.body, currentUser(req).id)
    return ok(null, '修改成功')
  })

  route(app, stationApi.delete, async (req) => {
    await deleteStation(db, power, req.query.stationId, currentUser(req).id)
    return ok(null, '删除成功')
  })
}
