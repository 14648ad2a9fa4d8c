import { Type } from '@sinclair/typebox'
import { Envelope, NullData } from '../schemas/common'
import {
  AccessRequestApproveBody,
  AccessRequestIdBody,
  AccessRequestInsertBody,
  AccessRequestListBody,
  AccessRequestPage,
  AccessRequestRejectBody,
  EligibilityActivateBody,
  EligibilityActivated,
  EligibilityIdQuery,
  EligibilityInsertBody,
  EligibilityListBody,
  EligibilityRow,
  MyRole,
  RequestableRole,
  RequestableRolesBody,
} from '../schemas/access-request'
import { bindSchemas } from './route'
import { accessRequestRoutes, eligibilityRoutes } from './access-request'

export const eligibilitySchemas = {
  insert: { body: EligibilityInsertBody, response: { 200: Envelope(Type.Integer()) } },
  list: { body: EligibilityListBody, response: { 200: Envelope(Type.Array(EligibilityRow)) } },
  delete: { querystring: EligibilityIdQuery, response: { 200: NullData } },
  activate: { body: EligibilityActivateBody, response: { 200: Envelope(EligibilityActivated) } },
}

export const accessRequestSchemas = {
  insert: { body: AccessRequestInsertBody, response: { 200: Envelope(Type.Integer()) } },
  list: { body: AccessRequestListBody, response: { 200: Envelope(AccessRequestPage) } },
  approve: { body: AccessRequestApproveBody, response: { 200: NullData } },
  reject: { body: AccessRequestRejectBody, response: { 200: NullData } },
  cancel: { body: AccessRequestIdBody, response: { 200: NullData } },
  requestable: { body: RequestableRolesBody, response: { 200: Envelope(Type.Array(RequestableRole)) } },
  myRoles: { response: { 200: Envelope(Type.Array(MyRole)) } },
}

export const eligibilityApi = bindSchemas(eligibilityRoutes, eligibilitySchemas)
export const accessRequestApi = bindSchemas(accessRequestRoutes, accessRequestSchemas)
