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

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Anything queries can run on: the database or an open transaction. */
export type DbOrTx = Db | Tx

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
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if ('databaseUrl' in options) return openPostgres(options.databaseUrl, options.stageAuditRows ?? false)
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

async function openPostgres(url: string, stageAuditRows: boolean): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(stageAuditRows ? { options: '-c amg.audit=on' } : {}),
  })
  pool.on('error', () => {}) // idle client errors are retried on next checkout
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  await migratePg(drizzlePg({ client: pool }), { migrationsFolder })
  const listeners: ((payload: string) => void)[] = []
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
    }, 1000)
  }
  const listen = async () => {
    const client = new pg.Client({ connectionString: url })
    client.on('notification', (msg) => {
      if (msg.channel === EVENTS_CHANNEL) for (const l of listeners) l(msg.payload ?? '')
    })
    client.on('error', () => {
      // a client that never became the listener failed its connect, which listen's caller handles
      if (client !== listener || !listening) return
      // A lost listener means missed notifications: tell listeners to drop their caches, then reconnect.
      listening = false
      client.end().catch(() => {})
      for (const l of listeners) l('*')
      reconnectSoon()
    })
    await client.connect()
    await client.query(`LISTEN ${EVENTS_CHANNEL}`)
    listener = client
    listening = true
    // whatever changed while nobody listened
    for (const l of listeners) l('*')
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
      await pool.query('select 1')
    },
    async close() {
      closed = true
      await listener?.end().catch(() => {})
      await pool.end()
    },
  }
}
