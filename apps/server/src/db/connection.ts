import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm'
import pg from 'pg'
import * as schema from './schema'
import { acquireDataDirLock } from './data-dir-lock'
import { securePrivateDir, tightenTree } from './private-files'
import { pooledTransaction } from './pg-transaction'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Anything queries can run on: the database or an open transaction. */
export type DbOrTx = Db | Tx
/**
 * The database or an open transaction, for a service that opens a transaction of its own: on an open
 * transaction that one is a savepoint inside it (an import runs the single calls' services on the
 * transaction of its row this way).
 */
export type Transactable = Omit<Tx, 'rollback' | 'setTransaction'>

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}

export const EVENTS_CHANNEL = 'amg_events'

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
  ping(): Promise<void>
  close(): Promise<void>
  /** PGlite only: the whole database as a tarball (tests clone a migrated, seeded template). */
  dump?(): Promise<Blob>
}

/** Extensions the migrations create (pg_trgm: the trigram indexes of substring filters). */
const extensions = { pg_trgm }

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

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
}

/** `statement_timeout` and `idle_in_transaction_session_timeout` of the pool's sessions, in ms (0: none). */
export interface SessionLimits {
  statementTimeoutMs: number
  idleInTransactionTimeoutMs: number
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if ('databaseUrl' in options) return openPostgres(options.databaseUrl, options)
  return openPglite(options)
}

async function openPglite(options: Exclude<OpenOptions, { databaseUrl: string }>): Promise<Database> {
  let releaseLock = () => {}
  let client: PGlite
  if ('dataDir' in options) {
    securePrivateDir(options.dataDir)
    releaseLock = acquireDataDirLock(options.dataDir)
    const pgliteDir = path.join(options.dataDir, 'pglite')
    try {
      client = await PGlite.create(pgliteDir, { extensions })
    } catch (err) {
      releaseLock()
      throw err
    }
    // A database initialised just now has its files at 0666 (PGlite sets them so); later ones follow the umask.
    tightenTree(pgliteDir)
  } else {
    client = await PGlite.create({
      extensions,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    })
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db
  await migratePglite(drizzlePglite({ client }), { migrationsFolder })
  // one connection, one session: set once, after the migrations
  if (options.stageAuditRows) await client.exec(`set amg.audit = 'on'`)
  const listeners: ((payload: string) => void)[] = []
  // One process owns an embedded database; its triggers' NOTIFY reaches this process when the
  // change commits, before the statement that committed it returns.
  await client.listen(EVENTS_CHANNEL, (payload) => {
    for (const l of listeners) l(payload)
  })
  return {
    db,
    kind: 'pglite',
    async notify(payload) {
      await client.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, payload])
    },
    onNotify(listener) {
      listeners.push(listener)
    },
    hearsEveryChange: () => true,
    // PGlite's listener runs as the change commits
    heardSoFar: async () => {},
    async ping() {
      await client.query('select 1')
    },
    async close() {
      await client.close()
      releaseLock()
    },
    async dump() {
      return client.dumpDataDir('none')
    },
  }
}

/** How long getting a connection may take before the request is answered 503. */
const CONNECT_TIMEOUT_MS = 5_000
/** How long the health check waits for `select 1`. */
const PING_TIMEOUT_MS = 3_000
const DEFAULT_OUTAGE_GRACE_MS = 60_000

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

async function openPostgres(
  url: string,
  { stageAuditRows = false, sessionLimits, outageGraceMs = DEFAULT_OUTAGE_GRACE_MS }: OpenOptions,
): Promise<Database> {
  // Migrations first, on a connection of their own: a long index build must not meet the limits below.
  const migrator = new pg.Client({ connectionString: url })
  migrator.on('error', () => {}) // a failure surfaces as the failed migration
  await migrator.connect()
  try {
    await migratePg(drizzlePg({ client: migrator }), { migrationsFolder })
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
  const tellAll = (payload: string) => {
    for (const l of listeners) l(payload)
  }
  const barriers = new Map<string, () => void>()
  listeners.push((payload) => barriers.get(payload)?.())
  let listener: pg.Client | undefined
  let listening = false
  let closed = false

  let reconnectPending = false
  // One reconnection at a time: a dying client may report more than one error, and two listeners
  // would hear every notification twice (and the second's catch-up would clear what the first let keep).
  const reconnectSoon = () => {
    if (closed || reconnectPending) return
    reconnectPending = true
    setTimeout(() => {
      reconnectPending = false
      listen().catch(reconnectSoon)
    }, 1000).unref()
  }
  // While the listener is lost, changes made elsewhere go unheard. Caches keep nothing new meanwhile
  // (hearsEveryChange is false), but what they hold keeps answering for a grace period, so signed-in
  // users and gateways are not refused during a restart or failover of a few seconds. Everything is
  // dropped once the listener is back, or when the grace runs out first.
  let graceTimer: NodeJS.Timeout | undefined
  const lost = () => {
    listening = false
    if (outageGraceMs <= 0) tellAll('*')
    else
      graceTimer ??= setTimeout(() => {
        graceTimer = undefined
        if (!listening) tellAll('*')
      }, outageGraceMs).unref()
    reconnectSoon()
  }
  const listen = async () => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    })
    client.on('notification', (msg) => {
      if (msg.channel === EVENTS_CHANNEL) tellAll(msg.payload ?? '')
    })
    client.on('error', () => {
      // a client that never became the listener failed its connect, which listen's caller handles
      if (client !== listener || !listening) return
      client.end().catch(() => {})
      lost()
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${EVENTS_CHANNEL}`)
    } catch (err) {
      client.end().catch(() => {})
      throw err
    }
    if (closed) return void client.end().catch(() => {})
    listener = client
    listening = true
    clearTimeout(graceTimer)
    graceTimer = undefined
    // whatever changed while nobody listened
    tellAll('*')
  }
  await listen()

  return {
    db,
    kind: 'postgres',
    async notify(payload) {
      await pool.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, payload])
    },
    onNotify(l) {
      listeners.push(l)
    },
    hearsEveryChange: () => listening,
    async heardSoFar() {
      if (!listening) return
      const mark = `heard:${randomUUID()}`
      const heard = new Promise<void>((resolve) => {
        barriers.set(mark, resolve)
        setTimeout(resolve, 1000).unref() // a lost listener must not hold answers up
      })
      try {
        await pool.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, mark])
        await heard
      } finally {
        barriers.delete(mark)
      }
      // Every listener was sent the change before this mark. One more turn of the event loop lets
      // another listener of this process (a second app, as in the two-instance tests) read what has
      // reached its socket too, before the answer leaves.
      await new Promise((resolve) => setImmediate(resolve))
    },
    async ping() {
      await withTimeout(pool.query('select 1'), PING_TIMEOUT_MS)
    },
    async close() {
      closed = true
      clearTimeout(graceTimer)
      await listener?.end().catch(() => {})
      await pool.end()
    },
  }
}
