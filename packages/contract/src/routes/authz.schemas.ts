import { Type } from '@sinclair/typebox'
import { Envelope, NullData } from '../schemas/common'
import {
  AuthzCheckBatchBody,
  AuthzCheckBatchResult,
  AuthzCheckBody,
  AuthzCheckResult,
  AuthzEffectiveQuery,
  AuthzEffectiveResult,
  AuthzExplainBody,
  AuthzExplainResult,
  AuthzRoleImpactBody,
  AuthzRoleImpactResult,
  AuthzWhoCanBody,
  AuthzWhoCanPage,
} from '../schemas/authz'
import { bindSchemas } from './route'
import { authzRoutes } from './authz'

export const authzSchemas = {
  forward: { response: { 200: NullData } },
  forwardService: {
    params: Type.Object({ service: Type.String({ maxLength: 64 }) }),
    response: { 200: NullData },
  },
  check: { body: AuthzCheckBody, response: { 200: Envelope(AuthzCheckResult) } },
  checkBatch: { body: AuthzCheckBatchBody, response: { 200: Envelope(AuthzCheckBatchResult) } },
  explain: { body: AuthzExplainBody, response: { 200: Envelope(AuthzExplainResult) } },
  effective: { querystring: AuthzEffectiveQuery, response: { 200: Envelope(AuthzEffectiveResult) } },
  whoCan: { body: AuthzWhoCanBody, response: { 200: Envelope(AuthzWhoCanPage) } },
  roleImpact: { body: AuthzRoleImpactBody, response: { 200: Envelope(AuthzRoleImpactResult) } },
}

export const authzApi = bindSchemas(authzRoutes, authzSchemas)
