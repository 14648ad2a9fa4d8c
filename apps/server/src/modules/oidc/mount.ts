import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import middie from '@fastify/middie'
import type { Database } from '../../db/connection'
import { KEYS_CHANGED, type OidcHost } from './host'
import { registerInteractionRoutes } from './interaction-routes'
import { OIDC_PREFIX } from './provider'

export { oidcHost } from './host'

/**
 * The provider answers in middie's hook every request its mount path matches, before any handler; one
 * that reaches a handler here is not the provider's, and gets the app's not-found answer.
 */
function providerAnswered(_req: FastifyRequest, reply: FastifyReply) {
  reply.callNotFound()
}

/**
 * Mounts the provider under /oidc with @fastify/middie (oidc-provider is a Koa app: it answers the raw
 * request itself), and the login and consent calls beside it. A key rotation on any instance is heard
 * here and the provider rebuilt from the database.
 *
 * Middie lives in a context of its own under /oidc, so that only requests there run its engine: on the
 * app's root it ran for every call of the API, to find each time that the path was not the provider's.
 * The context's catch-all routes exist so that Fastify routes every path under /oidc into it (and so
 * through middie's hook, which answers before any handler); the app's own hooks run before it, as
 * they did when middie was on the root.
 */
export async function mountOidc(app: FastifyInstance, host: OidcHost, database: Pick<Database, 'onNotify'>) {
  await app.register(
    async (provider) => {
      await provider.register(middie)
      provider.use('/', (req: IncomingMessage, res: ServerResponse) => host.handle(req, res))
      // not the API's: kept out of its documentation
      provider.all('/', { schema: { hide: true } }, providerAnswered)
      provider.all('/*', { schema: { hide: true } }, providerAnswered)
    },
    { prefix: OIDC_PREFIX },
  )
  registerInteractionRoutes(app, host)
  database.onNotify((payload) => {
    if (payload === KEYS_CHANGED)
      host
        .load()
        .catch((err: Error) => app.log.error({ err: { message: err.message } }, 'signing keys not reloaded'))
  })
}
