import { NodePgSession } from 'drizzle-orm/node-postgres'
import type pg from 'pg'
import { isDatabaseUnavailable } from './unavailable'
import type { Db } from './connection'

type SessionParts = ConstructorParameters<typeof NodePgSession>

/**
 * `db.transaction` for the PostgreSQL pool, in place of drizzle's own, for two reasons:
 *
 * - drizzle checks a client out and releases it only once `BEGIN` has succeeded: a `BEGIN` that fails
 *   (a connection that died while idle in the pool, its end not yet heard) never returns the client,
 *   and after ten of them the pool has no connection left to give, for good.
 * - A failed `BEGIN` ran nothing, so the transaction is tried again on another connection (each dead one
 *   found leaves the pool, so at most as many tries as the pool holds, plus one): after a restart or
 *   failover, writes do not fail just for finding the pool's dead connections first.
 *
 * The transaction itself is drizzle's, run by a session on the one client checked out here (built from
 * the pool session's dialect, schema and options: building a whole drizzle instance per transaction
 * would cost half a millisecond).
 */
export function pooledTransaction(pool: pg.Pool, db: Db): Db['transaction'] {
  const base = db._.session as unknown as {
    dialect: SessionParts[1]
    schema: SessionParts[2]
    options: SessionParts[3]
  }
  const tries = (pool.options.max ?? 10) + 1
  return async function transaction(work, config) {
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect()
      let started = false
      let failure: unknown
      try {
        const session = new NodePgSession(client, base.dialect, base.schema, base.options)
        return await session.transaction((tx) => {
          started = true
          return work(tx as never)
        }, config)
      } catch (err) {
        failure = err
      } finally {
        // a client whose connection failed leaves the pool; any other goes back to it
        client.release(isDatabaseUnavailable(failure) ? (failure as Error) : undefined)
      }
      if (started || attempt >= tries || !isDatabaseUnavailable(failure)) throw failure
      // let the ends of the pool's other dead connections be heard before the next try
      await new Promise((resolve) => setImmediate(resolve))
    }
  } as Db['transaction']
}
