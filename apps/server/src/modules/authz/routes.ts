import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
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
  batchTooLarge,
  MAX_BATCH_CHECKS,
  Envelope,
  MSG,
  NullData,
} from '@amg/contract'
import { ok } from '../../lib/reply'
import { currentUser } from '../../lib/context'
import { badRequest, forbidden, unauthorized } from '../../lib/errors'
import { check, checkBatch, effective, explain } from './service'
import { whoCan } from './who-can'
import { roleImpact } from './role-impact'
import { forwardedCall, forwardedToken } from './forward'

const tags = ['权限分析']

/** DESIGN.md §10: answering other systems' questions. Every route here is a read. */
export const authzRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, authz } = app.ctx

  // Public to the hook: it authenticates the END user from the forwarded headers itself.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
    url: '/authz/forward',
    config: { access: 'public', readOnly: true },
    schema: { tags, summary: '网关转发鉴权', response: { 200: NullData } },
    handler: async (req, reply) => {
      const token = forwardedToken(req.headers)
      const user = token ? await app.ctx.sessions.find(token) : null
      if (!user) throw unauthorized(MSG.unauthorized)
      const call = forwardedCall(req.headers)
      if (!(await authz.can(user.id, call.method, call.path))) throw forbidden(MSG.forbidden)
      // Header values must be ASCII: the name travels percent-encoded.
      reply.header('X-Auth-User-Id', String(user.id))
      reply.header('X-Auth-User-Name', encodeURIComponent(user.nickName))
      return ok(null)
    },
  })

  app.post(
    '/authz/check',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '检查权限',
        body: AuthzCheckBody,
        response: { 200: Envelope(AuthzCheckResult) },
      },
    },
    async (req) => ok(await check(db, authz, currentUser(req).id, req.body)),
  )

  app.post(
    '/authz/check-batch',
    {
      config: { readOnly: true },
      // Its own message for too many checks (the schema's generic one would name no limit).
      preValidation: async (req) => {
        const checks = (req.body as { checks?: unknown } | null)?.checks
        if (Array.isArray(checks) && checks.length > MAX_BATCH_CHECKS) throw badRequest(batchTooLarge)
      },
      schema: {
        tags,
        summary: '批量检查权限',
        body: AuthzCheckBatchBody,
        response: { 200: Envelope(AuthzCheckBatchResult) },
      },
    },
    async (req) => ok(await checkBatch(db, authz, currentUser(req).id, req.body)),
  )

  app.post(
    '/authz/explain',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '权限来源解释',
        body: AuthzExplainBody,
        response: { 200: Envelope(AuthzExplainResult) },
      },
    },
    async (req) => ok(await explain(db, authz, req.body)),
  )

  app.get(
    '/authz/effective',
    {
      schema: {
        tags,
        summary: '用户有效权限',
        querystring: AuthzEffectiveQuery,
        response: { 200: Envelope(AuthzEffectiveResult) },
      },
    },
    async (req) => ok(await effective(db, authz, req.query.userId)),
  )

  app.post(
    '/authz/who-can',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '谁能访问',
        body: AuthzWhoCanBody,
        response: { 200: Envelope(AuthzWhoCanPage) },
      },
    },
    async (req) => ok(await whoCan(db, authz, req.body)),
  )

  app.post(
    '/authz/role-impact',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '角色变更影响预览',
        body: AuthzRoleImpactBody,
        response: { 200: Envelope(AuthzRoleImpactResult) },
      },
    },
    async (req) => ok(await roleImpact(db, authz, req.body)),
  )
}
