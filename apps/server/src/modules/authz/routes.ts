import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authzApi, batchTooLarge, MAX_BATCH_CHECKS } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { badRequest } from '../../lib/errors'
import { check, checkBatch, effective, explain } from './service'
import { whoCan } from './who-can'
import { callerOf } from '../../auth/user-scope'
import { roleImpact } from './role-impact'
import { forwardUserHeaders, forwardedUser, type ForwardAnswer } from './forward'

/** The user's and the scope's headers of a 200, as the fast path writes them (forward-fast-path.ts). */
function setForwardHeaders(reply: FastifyReply, answer: ForwardAnswer) {
  const headers = forwardUserHeaders(answer)
  for (let i = 0; i < headers.length; i += 2) reply.header(headers[i], headers[i + 1])
}

/** DESIGN.md §10: answering other systems' questions. Every route here is a read. */
export const authzRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, authz } = app.ctx

  // Public to the hook: it authenticates the END user from the forwarded headers itself. Over HTTP,
  // the server answers this path before Fastify sees the request (forward-fast-path.ts); this route
  // gives the same answer to everything else (injected requests) and documents the call.
  route(app, authzApi.forward, async (req, reply) => {
    const answer = await forwardedUser(app.ctx.sessions, authz, req.headers)
    setForwardHeaders(reply, answer)
    return ok(null)
  })

  // DESIGN.md §10a: the same question in one service's namespace (the bare URL above is ams's).
  route(app, authzApi.forwardService, async (req, reply) => {
    const answer = await forwardedUser(app.ctx.sessions, authz, req.headers, req.params.service)
    setForwardHeaders(reply, answer)
    return ok(null)
  })

  // A session is enough to check oneself; checking another user is decided inside (service.ts).
  // asked with an API key or a machine token (no session token): the checked user's use (DESIGN.md §21)
  route(app, authzApi.check, async (req) =>
    ok(await check(db, authz, currentUser(req).id, req.body, req.token === null)),
  )

  route(
    app,
    authzApi.checkBatch,
    async (req) => ok(await checkBatch(db, authz, currentUser(req).id, req.body, req.token === null)),
    {
      // its own message for too many checks (the schema's generic one would name no limit)
      preValidation: async (req) => {
        const checks = (req.body as { checks?: unknown } | null)?.checks
        if (Array.isArray(checks) && checks.length > MAX_BATCH_CHECKS) throw badRequest(batchTooLarge)
      },
    },
  )

  route(app, authzApi.explain, async (req) => ok(await explain(db, authz, req.body)))

  route(app, authzApi.effective, async (req) =>
    ok(await effective(db, authz, req.query.userId, req.query.service)),
  )

  route(app, authzApi.whoCan, async (req) =>
    ok(await whoCan(db, authz, req.body, await callerOf(authz, req))),
  )

  route(app, authzApi.roleImpact, async (req) => ok(await roleImpact(db, authz, req.body)))
}
