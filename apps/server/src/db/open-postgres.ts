import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import * as schema from './schema'
import type { Db } from './connection'
import {
  EVENTS_CHANNEL,
  migrationsFolder,
  type Database,
  type OpenOptions,
  type SessionLimits,
} from './open-options'
import { pooledTransaction } from './pg-transaction'
import { migrateOrExplain } from './migration-refusal'
import { PgListener } from './pg-listener'

/** How long getting a connection may take before the request is answered 503. */
const CONNECT_TIMEOUT_MS = 5_000
/** How long the health check waits for `select 1`. */
const PING_TIMEOUT_MS = 3_000
const DEFAULT_OUTAGE_GRACE_MS = 60_000
const DEFAULT_LISTENER_RETRY_MS = 1_000

const withTimeout = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the database did not answer in time')), ms)
    work.then(resolve, reject).finally(() => clearTimeout(timer))
  })

/** `-c name=value` startup settings of the pool's sessions. */
function sessionSettings(stageAuditRows: boolean, limits: SessionLimits | undefined): string | undefined {
  const settings: string[] = []
  if (stageAuditRows) settings.push('-c amg.audit=on')
  if (limits) {
    settings.push(`-c statement_timeout=${Math.round(limits.statementTimeoutMs)}`)
    settings.push(`-c idle_in_transaction_session_timeout=${Math.round(limits.idleInTransactionTimeoutMs)}`)
  }
  return settings.length ? settings.join(' ') : undefined
}

/** PostgreSQL: migrated, a pool for the queries, and a listener of its own for the changes (pg-listener.ts). */
export async function openPostgres(
  url: string,
  {
    stageAuditRows = false,
    sessionLimits,
    outageGraceMs = DEFAULT_OUTAGE_GRACE_MS,
    listenerRetryMs = DEFAULT_LISTENER_RETRY_MS,
  }: OpenOptions,
): Promise<Database> {
  // Migrations first, on a connection of their own: a long index build must not meet the limits below.
  const migrator = new pg.Client({ connectionString: url })
  migrator.on('error', () => {}) // a failure surfaces as the failed migration
  await migrator.connect()
  try {
    await migrateOrExplain(() => migratePg(drizzlePg({ client: migrator }), { migrationsFolder }))
  } finally {
    await migrator.end().catch(() => {})
  }

  const options = sessionSettings(stageAuditRows, sessionLimits)
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    ...(options ? { options } : {}),
  })
  // A connection can die at any moment: a restart, a failover, a pooler or network reset, or one of the
  // session timeouts above. node-postgres reports it as an 'error' event on the client, and an 'error'
  // event nobody hears ends the process. The pool hears its idle clients; every client also gets a
  // listener of its own for the time it is checked out (a request's transaction running JavaScript
  // between two statements): its next statement then fails, the request answers 503, and the pool
  // drops the dead client when it is released, so the next request gets a fresh connection.
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  db.transaction = pooledTransaction(pool, db)
  const listeners: ((payload: string) => void)[] = []
  const listener = new PgListener(
    url,
    (payload) => {
      for (const l of listeners) l(payload)
    },
    { outageGraceMs, retryMs: listenerRetryMs },
  )
  listeners.push((payload) => listener.heard(payload))
  await listener.start()

  return {
    db,
    kind: 'postgres',
    async notify(payload) {
      await pool.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, payload])
    },
    onNotify(l) {
      listeners.push(l)
    },
    hearsEveryChange: () => listener.hearsEveryChange,
    heardSoFar: () =>
      listener.heardSoFar((mark) => pool.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, mark])),
    heardAtCommit: false,
    async ping() {
      await withTimeout(pool.query('select 1'), PING_TIMEOUT_MS)
    },
    async close() {
      await listener.close()
      await pool.end()
    },
  }
}
