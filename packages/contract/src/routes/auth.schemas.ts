import { Type } from '@sinclair/typebox'
import { Envelope, NullData } from '../schemas/common'
import {
  AuthCodeQuery,
  AuthInsertBody,
  AuthNode,
  AuthTreeNode,
  AuthUpdateBody,
  BackEndCatalogue,
} from '../schemas/permission'
import { bindSchemas } from './route'
import { authRoutes } from './auth'

export const authSchemas = {
  tree: { response: { 200: Envelope(Type.Array(AuthTreeNode)) } },
  detail: { querystring: AuthCodeQuery, response: { 200: Envelope(AuthNode) } },
  insert: { body: AuthInsertBody, response: { 200: Envelope(Type.String()) } },
  update: { body: AuthUpdateBody, response: { 200: NullData } },
  delete: { querystring: AuthCodeQuery, response: { 200: NullData } },
  backEnd: { response: { 200: Envelope(BackEndCatalogue) } },
}

export const authApi = bindSchemas(authRoutes, authSchemas)
