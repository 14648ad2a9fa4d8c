import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { ACCESS_MSG, accessRequestApi, eligibilityApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { forbidden } from '../../lib/errors'
import { callerOf, callerOfCall } from '../../auth/user-scope'
import { approverCaller } from './link-as'
import { withRetryAfter } from '../../auth/retry-after'
import { activateEligibility, deleteEligibility, insertEligibility, listEligibilities } from './eligibility'
import { cancelRequest, insertRequest } from './requests'
import { approveRequest, rejectRequest } from './decide'
import { listRequests, myRoles, requestableRoles } from './lists'
import { expirePendingRequests } from './expiry'
import type { AccessCtx } from './context'

/** How often pending requests past their days are marked expired (they read as expired before that). */
const SWEEP_EVERY_MS = 10 * 60_000

/** Eligibility and access requests (DESIGN.md §20). */
export const accessRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: AccessCtx = app.ctx
  const { authz } = ctx
  const me = (req: FastifyRequest) => currentUser(req).id
  /** whether the user may make a call (the self-service routes ask for the wider boxes) */
  const may = (userId: number, method: string, path: string) => authz.can(userId, method, path)

  route(app, eligibilityApi.insert, async (req) =>
    ok(await insertEligibility(ctx, await callerOf(authz, req), req.body), '新增成功'),
  )

  route(app, eligibilityApi.list, async (req) => {
    const id = me(req)
    const manages = await may(id, 'POST', '/eligibility/insert')
    const manager = manages ? await callerOfCall(authz, id, 'POST', '/eligibility/insert') : null
    return ok(await listEligibilities(ctx, id, req.body?.userId, manager))
  })

  route(app, eligibilityApi.delete, async (req) => {
    await deleteEligibility(ctx, await callerOf(authz, req), req.query.id)
    return ok(null, '删除成功')
  })

  route(app, eligibilityApi.activate, async (req, reply) =>
    withRetryAfter(reply, async () => {
      const answer = await activateEligibility(ctx, me(req), req.body, req.ip)
      return ok(answer, 'active' in answer ? ACCESS_MSG.activated : ACCESS_MSG.requested)
    }),
  )

  route(app, accessRequestApi.insert, async (req) =>
    ok(await insertRequest(ctx, me(req), req.body), ACCESS_MSG.requested),
  )

  route(app, accessRequestApi.list, async (req) => {
    const id = me(req)
    let linker = null
    if (req.body.box === 'approve') {
      if (!(await may(id, 'PUT', '/access-request/approve'))) throw forbidden(ACCESS_MSG.approveBoxDenied)
      linker = await approverCaller(authz, id)
    }
    return ok(await listRequests(ctx, id, req.body, linker))
  })

  route(app, accessRequestApi.approve, async (req) => {
    const done = await approveRequest(ctx, me(req), req.body)
    return ok(null, done ? ACCESS_MSG.approved : ACCESS_MSG.approvedOnce)
  })

  route(app, accessRequestApi.reject, async (req) => {
    await rejectRequest(ctx, me(req), req.body)
    return ok(null, ACCESS_MSG.rejected)
  })

  route(app, accessRequestApi.cancel, async (req) => {
    await cancelRequest(ctx, me(req), req.body.id)
    return ok(null, ACCESS_MSG.cancelled)
  })

  route(app, accessRequestApi.requestable, async (req) =>
    ok(await requestableRoles(ctx, me(req), req.body?.path)),
  )

  route(app, accessRequestApi.myRoles, async (req) => ok(await myRoles(ctx, me(req))))

  const sweep = () =>
    expirePendingRequests(app.ctx.database.db).catch((err: Error) =>
      app.log.error({ err: { message: err.message } }, 'access request sweep failed'),
    )
  const timer = setInterval(sweep, SWEEP_EVERY_MS)
  timer.unref()
  app.addHook('onReady', async () => {
    void sweep()
  })
  app.addHook('onClose', async () => {
    clearInterval(timer)
  })
}
