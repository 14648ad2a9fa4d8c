import type { Config } from '../config'
import type { Database, Db } from '../db/connection'
import type { Authorizer } from '../auth/authorizer'
import type { ChangeWatch } from '../cache/change-watch'
import type { SessionCache } from '../cache/session-cache'
import type { PowerGuard } from '../auth/power'
import type { Links } from './links/service'
import type { RouteCatalogue } from '../lib/route-catalogue'
import type { DeliveriesCommitted } from '../events/committed'
import type { LoginThrottle } from '../auth/login-throttle'
import type { SecretBox } from '../lib/secret-box'
import type { OidcHost } from './oidc/host'
import type { UsageRecorder } from '../auth/usage'

/** What every module needs, hung on the app as `app.ctx` (app.ts makes it). */
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
  /** a write that committed webhook deliveries says so here; the worker sends them at once */
  deliveriesCommitted: DeliveriesCommitted
  /** one sign-in throttle for the console's sign-in, password changes and the single sign-on login */
  loginThrottle: LoginThrottle
  /** secrets at rest: TOTP keys, recovery codes (DESIGN.md §14), client secrets, signing keys (§16) */
  box: SecretBox
  /** the OpenID Connect provider (DESIGN.md §16) */
  oidc: OidcHost
  /** permission usage (DESIGN.md §21): recorded in memory, flushed once a minute */
  usage: UsageRecorder
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext
  }
}
