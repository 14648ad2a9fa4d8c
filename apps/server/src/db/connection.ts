import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm'
import type * as schema from './schema'
import type { OpenOptions, Database } from './open-options'
import { openPglite } from './open-pglite'
import { openPostgres } from './open-postgres'
import { keepTickShape } from './tick-shape'

export { EVENTS_CHANNEL, type Database, type OpenOptions, type SessionLimits } from './open-options'

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

/**
 * Opens the database: PostgreSQL when a URL is given (open-postgres.ts), else the embedded PGlite
 * (open-pglite.ts), migrated either way.
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  // before the embedded database's start, whose collections would otherwise slow every nextTick
  await keepTickShape()
  if ('databaseUrl' in options) return openPostgres(options.databaseUrl, options)
  return openPglite(options)
}
