import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import { API_KEY_PREFIX, API_PREFIX, AUTH_HEADER, MSG } from '@amg/contract'
import { forbidden, unauthorized } from '../lib/errors'
import { mayWrite } from '../lib/route-kind'
import { addOnSend, routeMayWrite } from '../lib/route-hooks'
import { LastSeen } from './last-seen'
import { FROZEN, type SessionCache, type SessionUser } from '../cache/session-cache'
import type { ChangeWatch } from '../cache/change-watch'
import type { MachineTokenIdentity } from '../cache/machine-token-denials'
import type { Database, Db } from '../db/connection'
import { hashToken } from '../lib/tokens'
import type { Authorizer } from './authorizer'
import { restrictedMayCall, restrictionRefusal } from './restriction'

declare module 'fastify' {
  interface FastifyInstance {
    /** the hook's reading of a caller memory holds, for the answers given before Fastify (API routes only) */
    heldCaller?: (headers: IncomingHttpHeaders) => HeldCaller | undefined
  }
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
  /** checks a machine client's token (DESIGN.md §16, §19): oidc/host.ts */
  machineTokens?: MachineTokens
}

/** A machine token checked by its signature in memory, and whether it was denied since (revoked, client off). */
export interface MachineTokens {
  machineToken(token: string): (MachineTokenIdentity & { userId: number }) | null
  denials: {
    refusesFromMemory(token: MachineTokenIdentity): boolean | undefined
    refuses(token: MachineTokenIdentity): Promise<boolean>
  }
}

/** The token of `Authorization: Bearer …`: an API key (`ak_…`) or a machine token (DESIGN.md §16). */
function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined
  const match = /^Bearer\s+([A-Za-z0-9_.-]{20,4096})\s*$/.exec(header)
  return match?.[1]
}

/**
 * The session token of `x-auth-token`, trimmed; null when none is given. `req.token`, and what the
 * check calls read to tell a console session from an API key or machine token (DESIGN.md §21).
 */
export function sessionTokenOf(headers: IncomingHttpHeaders): string | null {
  const header = headers[AUTH_HEADER]
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : null
}

/** What a request presents to say who calls: `key` is what its last use is recorded under. */
type Credential =
  | { kind: 'session' | 'apiKey'; key: string }
  | { kind: 'machine'; key: string; token: (MachineTokenIdentity & { userId: number }) | null }

/**
 * A caller memory holds, admitted as the hook would admit them to a route that needs only a session
 * (forward-fast-path.ts answers such a route before Fastify): `touch` records the use as the hook does.
 */
export interface HeldCaller {
  user: SessionUser
  touch(log: FastifyBaseLogger): void
}

/** A held caller (a class, not a closure per request: see forward-fast-path.ts). */
class Admitted implements HeldCaller {
  constructor(
    readonly user: SessionUser,
    private readonly seen: LastSeen | null,
    private readonly key: string,
  ) {}

  touch(log: FastifyBaseLogger) {
    this.seen
      ?.touch(this.key)
      ?.catch((err: Error) => log.warn({ err: { message: err.message } }, 'last seen not written'))
  }
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
    if (user.restricted && !restrictedMayCall(req.method, req.routeOptions.url, user.restricted))
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
        authz.used(user.id, method, path)
      })
    if (!allowed) throw forbidden(MSG.forbidden)
    // the user's own call: the nodes that allowed it count as used (DESIGN.md §21)
    authz.used(user.id, method, path)
  }

  /** What the request presents: a session token, an API key or a machine token; null for none. */
  const credentialOf = (token: string | null, authorization: string | undefined): Credential | null => {
    if (token) return { kind: 'session', key: hashToken(token) }
    const bearer = bearerOf(authorization)
    if (bearer?.startsWith(API_KEY_PREFIX)) return { kind: 'apiKey', key: hashToken(bearer) }
    if (bearer) return { kind: 'machine', key: bearer, token: machineTokens?.machineToken(bearer) ?? null }
    return null
  }

  /** The user a credential stands for when memory holds them: no query, no promise. */
  const heldUserOf = (credential: Credential): SessionUser | undefined => {
    switch (credential.kind) {
      case 'session':
        return sessions.held(credential.key)
      case 'apiKey':
        return sessions.heldApiKey(credential.key)
      case 'machine':
        // held only while memory also knows the token is not denied
        return credential.token && machineTokens?.denials.refusesFromMemory(credential.token) === false
          ? sessions.heldUser(credential.token.userId)
          : undefined
    }
  }

  /** The same from the database (the machine token's signature is checked in memory: oidc/host.ts). */
  const lookupUserOf = async (credential: Credential) => {
    if (credential.kind !== 'machine')
      return credential.kind === 'session'
        ? sessions.lookupByHash(credential.key)
        : sessions.lookupApiKey(credential.key)
    // a revoked token, or one of a client turned off or deleted, is refused on its next use (DESIGN.md §19)
    if (await machineTokens!.denials.refuses(credential.token!)) return null
    return sessions.lookupUser(credential.token!.userId)
  }

  /** Where a credential's last use is recorded: a session's and an API key's, not a machine token's. */
  const seenOf = (credential: Credential) =>
    credential.kind === 'session' ? lastSeen : credential.kind === 'apiKey' ? keyLastUsed : null

  /** Settles at once when the session and the user's access are held in memory (the usual case). */
  const authenticate = (req: FastifyRequest): Promise<void> | void => {
    req.token = sessionTokenOf(req.headers)
    if (req.routeOptions.config.access === 'public') return
    const credential = credentialOf(req.token, req.headers.authorization)
    if (!credential || (credential.kind === 'machine' && credential.token === null))
      throw unauthorized(MSG.unauthorized)
    const held = heldUserOf(credential)
    if (held) return admit(req, credential.key, held, seenOf(credential))
    return lookupUserOf(credential).then((user) => {
      // the owner learns why their session (or key, or account) ended: the token proves who they are
      if (user === FROZEN) throw unauthorized(MSG.loginFrozen)
      return admit(req, credential.key, user, seenOf(credential))
    })
  }

  /**
   * The caller of a request to a route that needs only a session, when memory holds them and the hook
   * would admit them at once; undefined whenever the hook has more to do (a lookup, a refusal, a
   * restricted session's rule).
   */
  const heldCaller = (headers: IncomingHttpHeaders): HeldCaller | undefined => {
    const credential = credentialOf(sessionTokenOf(headers), headers.authorization)
    const user = credential ? heldUserOf(credential) : undefined
    if (!credential || !user || user.restricted) return undefined
    return new Admitted(user, seenOf(credential), credential.key)
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

  installWriteRefresh(api, { changes, database })

  api.decorate('heldCaller', heldCaller)
  return { heldCaller }
}

/**
 * After a request that may have written, the change watch looks whether a session or an access table
 * changed and clears what is stale before the answer leaves (the API's routes, and SCIM's).
 */
export function installWriteRefresh(
  api: FastifyInstance,
  { changes, database }: Pick<AuthHookContext, 'changes' | 'database'>,
) {
  // Only a route that may write has anything to wait for after its answer: reads get no onSend hook,
  // nor does any route where the commit itself is heard (ChangeWatch.looksAfterWrites).
  api.addHook('onRoute', (route) => {
    if (!changes.looksAfterWrites || !routeMayWrite(route)) return
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
