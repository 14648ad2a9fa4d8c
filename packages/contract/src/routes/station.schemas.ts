import { Type } from '@sinclair/typebox'
import { Envelope, NullData, Page } from '../schemas/common'
import {
  StationDetail,
  StationIdQuery,
  StationInsertBody,
  StationListBody,
  StationRow,
  StationSimple,
  StationSimpleBody,
  StationUpdateBody,
} from '../schemas/station'
import { bindSchemas } from './route'
import { stationRoutes } from './station'

export const stationSchemas = {
  simpleList: {
    description: '带 orgId 时返回尚未关联到该部门的职位（linked=true 时返回已关联的职位）',
    body: StationSimpleBody,
    response: { 200: Envelope(Type.Array(StationSimple)) },
  },
  list: { body: StationListBody, response: { 200: Envelope(Page(StationRow)) } },
  insert: {
    body: StationInsertBody,
    response: { 200: Envelope(Type.Integer({ description: '新职位的 id' })) },
  },
  detail: { querystring: StationIdQuery, response: { 200: Envelope(StationDetail) } },
  update: { body: StationUpdateBody, response: { 200: NullData } },
  delete: { querystring: StationIdQuery, response: { 200: NullData } },
}

export const stationApi = bindSchemas(stationRoutes, stationSchemas)
