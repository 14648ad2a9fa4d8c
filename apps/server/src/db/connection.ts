import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm'
import pg from 'pg'
import * as schema from './schema'
import { acquireDataDirLock } from './data-dir-lock'

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
  ping(): Promise<void>
  close(): Promise<void>
  /** PGlite only: the whole database as a tarball (tests clone a migrated, seeded template). */
  dump?(): Promise<Blob>
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

export type OpenOptions =
  | { databaseUrl: string }
  | { dataDir: string }
  /** An in-memory PGlite, optionally loaded from a dump (tests clone a migrated template this way). */
  | { memory: true; loadDataDir?: Blob | File }

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if ('databaseUrl' in options) return openPostgres(options.databaseUrl)
  return openPglite(options)
}

async function openPglite(
  options: { dataDir: string } | { memory: true; loadDataDir?: Blob | File },
): Promise<Database> {
  let releaseLock = () => {}
  let client: PGlite
  if ('dataDir' in options) {
    fs.mkdirSync(options.dataDir, { recursive: true })
    releaseLock = acquireDataDirLock(options.dataDir)
    try {
      client = await PGlite.create(path.join(options.dataDir, 'pglite'))
    } catch (err) {
      releaseLock()
      throw err
    }
  } else {
    client = await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {})
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db
  await migratePglite(drizzlePglite({ client }), { migrationsFolder })
  const listeners: ((payload: string) => void)[] = []
  return {
    db,
    kind: 'pglite',
    // One process owns an embedded database, so a change only needs to reach this process.
    async notify(payload) {
      for (const l of listeners) l(payload)
    },
    onNotify(listener) {
      listeners.push(listener)
    },
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

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  pool.on('error', () => {}) // idle client errors are retried on next checkout
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  await migratePg(drizzlePg({ client: pool }), { migrationsFolder })
  const listeners: ((payload: string) => void)[] = []
  let listener: pg.Client | undefined
  let closed = false

  const listen = async () => {
    const client = new pg.Client({ connectionString: url })
    client.on('notification', (msg) => {
      if (msg.channel === EVENTS_CHANNEL) for (const l of listeners) l(msg.payload ?? '')
    })
    client.on('error', () => {
      // A lost listener means missed notifications: tell listeners to drop their caches, then reconnect.
      for (const l of listeners) l('*')
      if (!closed) setTimeout(() => void listen().catch(() => {}), 1000)
    })
    await client.connect()
    await client.query(`LISTEN ${EVENTS_CHANNEL}`)
    listener = client
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
