import type { FastifyInstance } from 'fastify'
import { API_PREFIX, AUTH_HEADER, MSG } from '@amg/contract'
import { forbidden, unauthorized } from '../lib/errors'
import { mayWrite } from '../lib/route-kind'
import { LastSeen } from './last-seen'
import { hashToken } from './tokens'

/**
 * The authorization hook (DESIGN.md §6) for every route of the API plugin: a valid session
 * unless the route is public, and a permission matching the method and path unless the route
 * only needs a session. Both answers come from memory once warm (session-cache.ts, authorizer.ts),
 * so a signed-in read costs no query. After a request that may have written, the change watch looks
 * whether a session or an access table changed and clears what is stale before the answer leaves, so
 * a change takes effect on the very next request, and a read sent as POST clears nothing.
 */
export function installAuthHooks(api: FastifyInstance) {
  const { db, authz, sessions, changes } = api.ctx
  const lastSeen = new LastSeen(db)
  api.decorateRequest('user', null)
  api.decorateRequest('token', null)

  api.addHook('onRequest', async (req) => {
    const header = req.headers[AUTH_HEADER]
    req.token = typeof header === 'string' && header.trim() !== '' ? header.trim() : null
    const access = req.routeOptions.config.access
    if (access === 'public') return
    if (!req.token) throw unauthorized(MSG.unauthorized)
    const tokenHash = hashToken(req.token)
    req.user = await sessions.findByHash(tokenHash)
    if (!req.user) throw unauthorized(MSG.unauthorized)
    // at most one small write a minute per session, and never in the way of the answer
    lastSeen
      .touch(tokenHash)
      .catch((err: Error) => req.log.warn({ err: { message: err.message } }, 'last seen not written'))
    if (access === 'session') return
    const method = req.method === 'HEAD' ? 'GET' : req.method
    const path = req.url.split('?')[0].slice(API_PREFIX.length)
    if (!(await authz.can(req.user.id, method, path))) throw forbidden(MSG.forbidden)
  })

  api.addHook('onSend', (req, _reply, payload, done) => {
    // A read has nothing to wait for here: a callback hook lets it pass without a promise.
    if (!mayWrite(req.method, req.routeOptions.config)) return done(null, payload)
    // A write that changed sessions or access answers only once this instance has heard its
    // notification, which every other instance is sent at the same moment: so the next request,
    // wherever it lands, sees the change.
    changes
      .refreshIfChanged()
      .then((changed) => (changed ? api.ctx.database.heardSoFar() : undefined))
      .then(() => done(null, payload), done)
  })
}
