import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Db } from './connection'

/** Tables whose rows come and go in ordinary use: sessions are made, touched once a minute and ended. */
const CHURNING_TABLES = ['sessions']

/** How often the embedded database is tidied. */
export const UPKEEP_EVERY_MS = 3_600_000

/**
 * PostgreSQL's autovacuum reclaims the space of deleted and updated rows; PGlite has no autovacuum.
 * Without a VACUUM, `sessions` keeps every dead version of its rows (each sign-in, sign-out and
 * once-a-minute touch leaves one), and every session lookup that misses the cache scans past them. A
 * VACUUM of the churning tables (small: they hold a few live rows each) keeps them at their working size. PGlite runs it between transactions.
 */
export async function vacuumChurningTables(db: Db): Promise<void> {
  for (const table of CHURNING_TABLES) await db.execute(sql`vacuum ${sql.identifier(table)}`)
}

/** For the embedded database: tidy the churning tables once ready, then every hour. */
export function installPgliteUpkeep(app: FastifyInstance, db: Db) {
  const tidy = () =>
    vacuumChurningTables(db).catch((err: Error) =>
      app.log.error({ err: { message: err.message } }, 'embedded database upkeep failed'),
    )
  app.addHook('onReady', async () => void tidy())
  const timer = setInterval(tidy, UPKEEP_EVERY_MS)
  timer.unref()
  app.addHook('onClose', async () => clearInterval(timer))
}
