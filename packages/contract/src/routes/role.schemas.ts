import { Type } from '@sinclair/typebox'
import { Envelope, NullData, Page } from '../schemas/common'
import {
  AdminRoleInsertBody,
  AdminRoleUpdateBody,
  RoleDetail,
  RoleIdQuery,
  RoleInsertBody,
  RoleListBody,
  RoleNameListBody,
  RoleRow,
  RoleSimple,
  RoleUpdateBody,
} from '../schemas/role'
import { bindSchemas } from './route'
import { roleRoutes } from './role'

export const roleSchemas = {
  nameList: { body: RoleNameListBody, response: { 200: Envelope(Type.Array(RoleSimple)) } },
  list: { body: RoleListBody, response: { 200: Envelope(Page(RoleRow)) } },
  detail: { querystring: RoleIdQuery, response: { 200: Envelope(RoleDetail) } },
  insert: { body: RoleInsertBody, response: { 200: Envelope(Type.Integer()) } },
  update: { body: RoleUpdateBody, response: { 200: NullData } },
  delete: { querystring: RoleIdQuery, response: { 200: NullData } },
  adminInsert: { body: AdminRoleInsertBody, response: { 200: Envelope(Type.Integer()) } },
  adminUpdate: { body: AdminRoleUpdateBody, response: { 200: NullData } },
  adminDelete: { querystring: RoleIdQuery, response: { 200: NullData } },
}

export const roleApi = bindSchemas(roleRoutes, roleSchemas)
