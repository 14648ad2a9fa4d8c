import type { FastifyInstance, FastifyRequest } from 'fastify'
import { API_KEY_PREFIX, API_PREFIX, AUTH_HEADER, MSG } from '@amg/contract'
import { forbidden, unauthorized } from '../lib/errors'
import { mayWrite } from '../lib/route-kind'
import { addOnSend, routeMayWrite } from '../lib/route-hooks'
import { LastSeen } from './last-seen'
import { FROZEN, type SessionCache, type SessionUser } from '../cache/session-cache'
import type { ChangeWatch } from '../cache/change-watch'
import type { Database, Db } from '../db/connection'
import { hashToken } from '../lib/tokens'
import type { Authorizer } from './authorizer'
import { restrictedMayCall, restrictionRefusal } from './restriction'

declare module 'fastify' {
  interface FastifyRequest {
    /** the signed-in user, set here on session and permission routes */
    user: SessionUser | null
    token: string | null
  }
}

/** What the hook answers from, and the watch that clears it after a write (the app's context). */
export interface AuthHookContext {
  db: Db
  database: Pick<Database, 'heardSoFar'>
  authz: Authorizer
  sessions: SessionCache
  changes: ChangeWatch
  /** checks a machine client's token (DESIGN.md §16) in memory: the service account it acts as, or null */
  machineTokens?: { machineUser(token: string): number | null }
}

/** The token of `Authorization: Bearer …`: an API key (`ak_…`) or a machine token (DESIGN.md §16). */
function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined
  const match = /^Bearer\s+([A-Za-z0-9_.-]{20,4096})\s*$/.exec(header)
  return match?.[1]
}

/**
 * The authorization hook (DESIGN.md §6) for every route of the API plugin: a valid session
 * unless the route is public, and a permission matching the method and path unless the route
 * only needs a session. Both answers come from memory once warm (cache/session-cache.ts, authorizer.ts),
 * so a signed-in read costs no query. After a request that may have written, the change watch looks
 * whether a session or an access table changed and clears what is stale before the answer leaves, so
 * a change takes effect on the very next request, and a read sent as POST clears nothing.
 */
export function installAuthHooks(api: FastifyInstance, ctx: AuthHookContext) {
  const { db, database, authz, sessions, changes, machineTokens } = ctx
  const lastSeen = new LastSeen(db)
  const keyLastUsed = new LastSeen(db, 'apiKeys')
  api.decorateRequest('user', null)
  api.decorateRequest('token', null)

  /** Admits a signed-in user: the route's permission unless it needs only a session. */
  const admit = (
    req: FastifyRequest,
    tokenHash: string,
    user: SessionUser | null,
    seen: LastSeen | null = lastSeen,
  ): Promise<void> | void => {
    if (!user) throw unauthorized(MSG.unauthorized)
    // a session that must first change its password or enrol MFA may call nothing else (§14)
    if (user.restricted && !restrictedMayCall(req.method, req.routeOptions.url))
      throw restrictionRefusal(user.restricted)
    req.user = user
    // at most one small write a minute per session (or API key), and never in the way of the answer
    seen
      ?.touch(tokenHash)
      ?.catch((err: Error) => req.log.warn({ err: { message: err.message } }, 'last seen not written'))
    if (req.routeOptions.config.access === 'session') return
    const method = req.method === 'HEAD' ? 'GET' : req.method
    const path = req.url.split('?')[0].slice(API_PREFIX.length)
    const allowed = authz.canFromMemory(user.id, method, path)
    if (allowed === undefined)
      return authz.can(user.id, method, path).then((yes) => {
        if (!yes) throw forbidden(MSG.forbidden)
      })
    if (!allowed) throw forbidden(MSG.forbidden)
  }

  /** Settles at once when the session and the user's access are held in memory (the usual case). */
  const authenticate = (req: FastifyRequest): Promise<void> | void => {
    const header = req.headers[AUTH_HEADER]
    req.token = typeof header === 'string' && header.trim() !== '' ? header.trim() : null
    if (req.routeOptions.config.access === 'public') return
    if (!req.token) {
      const bearer = bearerOf(req.headers.authorization)
      if (bearer?.startsWith(API_KEY_PREFIX)) return authenticateApiKey(req, hashToken(bearer))
      if (bearer) return authenticateMachine(req, bearer)
      throw unauthorized(MSG.unauthorized)
    }
    const tokenHash = hashToken(req.token)
    const held = sessions.held(tokenHash)
    if (held) return admit(req, tokenHash, held)
    return sessions.lookupByHash(tokenHash).then((user) => {
      // the session's owner learns why it ended (the token proves who they are)
      if (user === FROZEN) throw unauthorized(MSG.loginFrozen)
      return admit(req, tokenHash, user)
    })
  }

  /** A service's API key (DESIGN.md §16): it acts as its user, decided from memory once warm like a session. */
  const authenticateApiKey = (req: FastifyRequest, keyHash: string): Promise<void> | void => {
    const held = sessions.heldApiKey(keyHash)
    if (held) return admit(req, keyHash, held, keyLastUsed)
    return sessions.lookupApiKey(keyHash).then((user) => {
      if (user === FROZEN) throw unauthorized(MSG.loginFrozen)
      return admit(req, keyHash, user, keyLastUsed)
    })
  }

  /** A machine client's token: the service account it names, the token checked in memory. */
  const authenticateMachine = (req: FastifyRequest, token: string): Promise<void> | void => {
    const userId = machineTokens?.machineUser(token) ?? null
    if (userId === null) throw unauthorized(MSG.unauthorized)
    const held = sessions.heldUser(userId)
    if (held) return admit(req, token, held, null)
    return sessions.lookupUser(userId).then((user) => {
      if (user === FROZEN) throw unauthorized(MSG.loginFrozen)
      return admit(req, token, user, null)
    })
  }

  // A callback hook: a warm request is decided without a promise or a turn of the event loop.
  api.addHook('onRequest', (req, _reply, done) => {
    let pending: Promise<void> | void
    try {
      pending = authenticate(req)
    } catch (error) {
      return done(error as Error)
    }
    if (pending) pending.then(() => done(), done)
    else done()
  })

  // Only a route that may write has anything to wait for after its answer: reads get no onSend hook.
  api.addHook('onRoute', (route) => {
    if (!routeMayWrite(route)) return
    addOnSend(route, (req, reply, payload, done) => {
      // a read sent to the same route (GET of a route that also takes POST) passes at once
      if (!mayWrite(req.method, req.routeOptions.config)) return done(null, payload)
      // A write that failed before its commit (a bug, or the database away) changed nothing: no look,
      // which during an outage would only wait for a connection that is not there.
      // (`auditLogged`: the handler finished and its log row was written, so the commit was reached.)
      const wrote = req.auditLogged === true || reply.statusCode < 400
      if (reply.statusCode >= 500 && !wrote) return done(null, payload)
      // A write that changed sessions or access answers only once this instance has heard its
      // notification, which every other instance is sent at the same moment: so the next request,
      // wherever it lands, sees the change.
      changes
        .refreshIfChanged()
        .then((changed) => (changed ? database.heardSoFar() : undefined))
        // The database went away after the write: what it changed cannot be looked up, so every cache
        // is dropped instead (a refusal changed nothing: warm caches keep answering during an outage),
        // and the answer leaves as it is: a committed change is never reported as a failure.
        .catch(() => {
          if (wrote) changes.dropAll()
        })
        .then(() => done(null, payload))
    })
  })
}
