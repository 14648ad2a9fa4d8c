import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import middie from '@fastify/middie'
import type { Database } from '../../db/connection'
import { KEYS_CHANGED, type OidcHost } from './host'
import { registerInteractionRoutes } from './interaction-routes'
import { OIDC_PREFIX } from './provider'

export { oidcHost } from './host'

/**
 * Mounts the provider under /oidc with @fastify/middie (oidc-provider is a Koa app: it answers the raw
 * request itself), and the login and consent calls beside it. A key rotation on any instance is heard
 * here and the provider rebuilt from the database.
 */
export async function mountOidc(app: FastifyInstance, host: OidcHost, database: Pick<Database, 'onNotify'>) {
  await app.register(middie)
  app.use(OIDC_PREFIX, (req: IncomingMessage, res: ServerResponse) => host.handle(req, res))
  registerInteractionRoutes(app, host)
  database.onNotify((payload) => {
    if (payload === KEYS_CHANGED)
      host
        .load()
        .catch((err: Error) => app.log.error({ err: { message: err.message } }, 'signing keys not reloaded'))
  })
}
