import type { FastifyInstance } from 'fastify'
import { API_PREFIX, AUTH_HEADER, MSG } from '@amg/contract'
import { forbidden, unauthorized } from '../lib/errors'
import { findSessionUser } from './sessions'
import { LastSeen } from './last-seen'

/**
 * The authorization hook (DESIGN.md §6) for every route of the API plugin: a valid session
 * unless the route is public, and a permission matching the method and path unless the route
 * only needs a session. After a request that may have written, the authorizer looks whether any
 * access table changed (database triggers keep that count) and clears its caches before the answer
 * leaves, so a change takes effect on the very next request, and a read sent as POST clears nothing.
 */
export function installAuthHooks(api: FastifyInstance) {
  const { db, authz } = api.ctx
  const lastSeen = new LastSeen(db)
  api.decorateRequest('user', null)
  api.decorateRequest('token', null)

  api.addHook('onRequest', async (req) => {
    const header = req.headers[AUTH_HEADER]
    req.token = typeof header === 'string' && header.trim() !== '' ? header.trim() : null
    const access = req.routeOptions.config.access
    if (access === 'public') return
    req.user = req.token ? await findSessionUser(db, req.token) : null
    if (!req.user) throw unauthorized(MSG.unauthorized)
    await lastSeen.touch(req.token!)
    if (access === 'session') return
    const method = req.method === 'HEAD' ? 'GET' : req.method
    const path = req.url.split('?')[0].slice(API_PREFIX.length)
    if (!(await authz.can(req.user.id, method, path))) throw forbidden(MSG.forbidden)
  })

  api.addHook('onSend', async (req, reply, payload) => {
    const mayWrite =
      req.method !== 'GET' &&
      req.method !== 'HEAD' &&
      req.method !== 'OPTIONS' &&
      !req.routeOptions.config.readOnly
    if (mayWrite) await authz.refreshIfChanged()
    return payload
  })
}
