import { Type } from '@sinclair/typebox'
import { EmptyBody, Envelope, NullData } from '../schemas/common'
import {
  ServiceIdQuery,
  ServiceInsertBody,
  ServiceListBody,
  ServicePage,
  ServiceUpdateBody,
} from '../schemas/service'
import {
  OidcClientBody,
  OidcClientInfo,
  OidcClientSaved,
  OidcServiceBody,
  OidcServiceQuery,
} from '../schemas/oidc'
import { bindSchemas } from './route'
import { serviceRoutes } from './service'

export const serviceSchemas = {
  list: { body: ServiceListBody, response: { 200: Envelope(ServicePage) } },
  insert: { body: ServiceInsertBody, response: { 200: Envelope(Type.Integer()) } },
  update: { body: ServiceUpdateBody, response: { 200: NullData } },
  delete: { querystring: ServiceIdQuery, response: { 200: NullData } },
  oidcDetail: { querystring: OidcServiceQuery, response: { 200: Envelope(OidcClientInfo) } },
  oidcSave: { body: OidcClientBody, response: { 200: Envelope(OidcClientSaved) } },
  oidcRotateSecret: {
    body: OidcServiceBody,
    response: { 200: Envelope(Type.Object({ clientSecret: Type.String() })) },
  },
  oidcOff: { querystring: OidcServiceQuery, response: { 200: NullData } },
  oidcRotateKeys: { body: EmptyBody, response: { 200: Envelope(Type.Object({ kid: Type.String() })) } },
}

export const serviceApi = bindSchemas(serviceRoutes, serviceSchemas)
