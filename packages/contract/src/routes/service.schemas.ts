import { Type } from '@sinclair/typebox'
import { Envelope, NullData } from '../schemas/common'
import {
  ServiceIdQuery,
  ServiceInsertBody,
  ServiceListBody,
  ServicePage,
  ServiceUpdateBody,
} from '../schemas/service'
import { bindSchemas } from './route'
import { serviceRoutes } from './service'

export const serviceSchemas = {
  list: { body: ServiceListBody, response: { 200: Envelope(ServicePage) } },
  insert: { body: ServiceInsertBody, response: { 200: Envelope(Type.Integer()) } },
  update: { body: ServiceUpdateBody, response: { 200: NullData } },
  delete: { querystring: ServiceIdQuery, response: { 200: NullData } },
}

export const serviceApi = bindSchemas(serviceRoutes, serviceSchemas)
