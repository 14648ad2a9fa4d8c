import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Db } from './connection'

/** What an opened database offers the app, and how it is opened (connection.ts opens it). */

/** The channel the triggers NOTIFY changes on (migrations 0001, 0004, 0005, 0008). */
export const EVENTS_CHANNEL = 'amg_events'

/** The SQL migrations, applied at every start. */
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Tell every server instance (this one included) about a change; PostgreSQL carries it with NOTIFY. */
  notify(payload: string): Promise<void>
  /** Hear changes announced by any instance. */
  onNotify(listener: (payload: string) => void): void
  /**
   * Whether every change is being heard right now. In-memory caches store nothing while it is false
   * (PostgreSQL's listener reconnecting), since a change made meanwhile would never clear them.
   */
  hearsEveryChange(): boolean
  /**
   * Resolves once this instance has heard every notification sent before the call (PostgreSQL delivers
   * them in order to every listener at once), so a change is known everywhere before its answer leaves.
   */
  heardSoFar(): Promise<void>
  /**
   * Whether a change's notification reaches this instance before the statement that committed it
   * returns (PGlite: one process, whose listener runs as the commit's answer is read). Then what a
   * write made stale here is cleared by the time its handler returns, with no look at the counters.
   */
  heardAtCommit: boolean
  ping(): Promise<void>
  close(): Promise<void>
  /** PGlite only: the whole database as a tarball (tests clone a migrated, seeded template). */
  dump?(): Promise<Blob>
}

export type OpenOptions = (
  | { databaseUrl: string }
  | { dataDir: string }
  /** An in-memory PGlite, optionally loaded from a dump (tests clone a migrated template this way). */
  | { memory: true; loadDataDir?: Blob | File }
) & {
  /**
   * Every connection stages what audited writes change (`amg.audit = on`, migration 0003), for the
   * operation log. A served app needs it and checks for it; seeds and scripts leave it off and pay
   * nothing. Set per connection rather than per transaction: one round trip less on every write.
   */
  stageAuditRows?: boolean
  /** PostgreSQL only: limits on the server's own sessions (the served app sets them; scripts need none) */
  sessionLimits?: SessionLimits
  /**
   * PostgreSQL only: while the listener is lost, how long caches keep answering what they hold before
   * everything is dropped (0: at once). Default 60 s.
   */
  outageGraceMs?: number
  /**
   * PostgreSQL only: how long after losing its listener the instance connects a new one (default 1 s;
   * tests that cut the listener hold the loss open longer).
   */
  listenerRetryMs?: number
}

/** `statement_timeout` and `idle_in_transaction_session_timeout` of the pool's sessions, in ms (0: none). */
export interface SessionLimits {
  statementTimeoutMs: number
  idleInTransactionTimeoutMs: number
}
