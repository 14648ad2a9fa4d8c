import type { FastifyInstance } from 'fastify'
import { installOperationLog } from '../../audit/operation-log'
import { installWriteRefresh } from '../../auth/hook'
import type { DeliveriesCommitted } from '../../events/committed'
import { installScimAuth } from './auth'
import { installScimErrors } from './errors'
import { scimDiscoveryRoutes } from './discovery'
import { scimUserRoutes } from './users'
import { scimGroupRoutes } from './groups'

export { SCIM_PREFIX } from './http'

/**
 * The SCIM 2.0 server (DESIGN.md §22, RFC 7643/7644) at /scim/v2, beside the API rather than under
 * it: its own media type, error schema and authentication (a bearer API key holding `scim`), and the
 * API's operation log and cache refresh, so its writes are logged and take effect as the console's do.
 */
export function scimPlugin(outbox: { audit: boolean; events: boolean; committed: DeliveriesCommitted }) {
  return async (scim: FastifyInstance) => {
    const { database, changes } = scim.ctx
    // application/scim+json is JSON (RFC 7644 §3.1); application/json is taken as well
    scim.addContentTypeParser(
      'application/scim+json',
      { parseAs: 'string' },
      scim.getDefaultJsonParser('error', 'ignore'),
    )
    installScimErrors(scim)
    installScimAuth(scim)
    installWriteRefresh(scim, { changes, database })
    if (outbox.audit)
      installOperationLog(scim, database.db, { events: outbox.events, committed: outbox.committed })
    scimDiscoveryRoutes(scim)
    scimUserRoutes(scim)
    scimGroupRoutes(scim)
  }
}
