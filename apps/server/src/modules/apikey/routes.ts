import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { apiKeyApi, MSG } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { callerOf } from '../../auth/user-scope'
import { insertApiKey, listApiKeys, revokeApiKey } from './service'

/** DESIGN.md §16: API keys for services that cannot do OAuth. The key is answered once, here. */
export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, authz } = app.ctx
  const caller = (req: Parameters<typeof callerOf>[1]) => callerOf(authz, req)

  route(app, apiKeyApi.list, async (req) => ok(await listApiKeys(db, req.body ?? {}, await caller(req))))

  route(app, apiKeyApi.insert, async (req) =>
    ok(await insertApiKey(db, power, await caller(req), req.body), MSG.created),
  )

  route(app, apiKeyApi.revoke, async (req) => {
    await revokeApiKey(db, power, await caller(req), req.query.id)
    return ok(null, MSG.apiKeyRevoked)
  })
}
