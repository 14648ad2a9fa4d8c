import { Type } from '@sinclair/typebox'
import { Envelope, NullData } from '../schemas/common'
import {
  OrgDetail,
  OrgIdQuery,
  OrgInsertBody,
  OrgTreeAnswer,
  OrgTreeQuery,
  OrgUpdateBody,
} from '../schemas/org'
import { bindSchemas } from './route'
import { orgRoutes } from './org'

export const orgSchemas = {
  tree: { querystring: OrgTreeQuery, response: { 200: Envelope(OrgTreeAnswer) } },
  detail: { querystring: OrgIdQuery, response: { 200: Envelope(OrgDetail) } },
  insert: { body: OrgInsertBody, response: { 200: Envelope(Type.Integer({ description: '新部门的 id' })) } },
  update: { body: OrgUpdateBody, response: { 200: NullData } },
  delete: { querystring: OrgIdQuery, response: { 200: NullData } },
}

export const orgApi = bindSchemas(orgRoutes, orgSchemas)
