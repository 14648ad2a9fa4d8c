import type { Config } from '../config'
import type { Database, Db } from '../db/connection'
import type { Authorizer } from '../auth/authorizer'
import type { ChangeWatch } from '../auth/change-watch'
import type { SessionCache } from '../auth/session-cache'
import type { PowerGuard } from '../auth/power'
import type { Links } from '../modules/links/service'
import type { SessionUser } from '../auth/sessions'
import type { RouteCatalogue } from './route-catalogue'

/** What every module needs, hung on the app as `app.ctx`. */
export interface AppContext {
  config: Config
  database: Database
  db: Db
  authz: Authorizer
  /** signed-in sessions, from memory once read */
  sessions: SessionCache
  /** clears what a write made stale, after each request that may write */
  changes: ChangeWatch
  /** the power check of DESIGN.md §6a: every grant path asks it */
  power: PowerGuard
  /** the seven link tables, served by one module */
  links: Links
  catalogue: RouteCatalogue
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext
  }
  interface FastifyRequest {
    /** the signed-in user, set by the authorization hook on session and permission routes */
    user: SessionUser | null
    token: string | null
  }
  interface FastifyContextConfig {
    /**
     * 'public': no session needed; 'session': any signed-in user;
     * default: a session and a permission whose back-end pattern matches the call.
     */
    access?: 'public' | 'session'
    /**
     * A read sent as POST (lists, pickers): no operation-log row, no transaction, and no look at
     * whether access changed. A write left unmarked is logged, so forgetting errs on the safe side.
     */
    readOnly?: boolean
  }
}

/** The signed-in user of a route that requires one (the hook guarantees it). */
export function currentUser(req: { user: SessionUser | null }): SessionUser {
  if (!req.user) throw new Error('route requires a session')
  return req.user
}
