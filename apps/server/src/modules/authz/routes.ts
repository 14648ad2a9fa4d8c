import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
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
  NullData,
} from '@amg/contract'
import { ok } from '../../lib/reply'
import { currentUser } from '../../lib/context'
import { badRequest } from '../../lib/errors'
import { check, checkBatch, effective, explain } from './service'
import { whoCan } from './who-can'
import { roleImpact } from './role-impact'
import { FORWARD_METHODS, FORWARD_URL, forwardUserHeaders, forwardedUser } from './forward'

const tags = ['权限分析']

/** DESIGN.md §10: answering other systems' questions. Every route here is a read. */
export const authzRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, authz } = app.ctx

  // Public to the hook: it authenticates the END user from the forwarded headers itself. Over HTTP,
  // the server answers this path before Fastify sees the request (forward-fast-path.ts); this route
  // gives the same answer to everything else (injected requests) and documents the call.
  app.route({
    method: [...FORWARD_METHODS],
    url: FORWARD_URL,
    config: { access: 'public', readOnly: true },
    schema: { tags, summary: '网关转发鉴权', response: { 200: NullData } },
    handler: async (req, reply) => {
      const user = await forwardedUser(app.ctx.sessions, authz, req.headers)
      for (const [name, value] of forwardUserHeaders(user)) reply.header(name, value)
      return ok(null)
    },
  })

  // DESIGN.md §10a: the same question in one service's namespace (the bare URL above is ams's).
  app.route({
    method: [...FORWARD_METHODS],
    url: `${FORWARD_URL}/:service`,
    config: { access: 'public', readOnly: true },
    schema: {
      tags,
      summary: '网关转发鉴权（指定服务）',
      params: Type.Object({ service: Type.String({ maxLength: 64 }) }),
      response: { 200: NullData },
    },
    handler: async (req, reply) => {
      const user = await forwardedUser(app.ctx.sessions, authz, req.headers, req.params.service)
      for (const [name, value] of forwardUserHeaders(user)) reply.header(name, value)
      return ok(null)
    },
  })

  // A session is enough to check oneself; checking another user is decided inside (service.ts).
  app.post(
    '/authz/check',
    {
      config: { access: 'session', readOnly: true },
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
      config: { access: 'session', readOnly: true },
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
    async (req) => ok(await effective(db, authz, req.query.userId, req.query.service)),
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
