import pg from 'pg'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'

/**
 * Faults a PostgreSQL server inflicts on its clients, from a separate administrator connection (to
 * the server's own `postgres` database, never one of the test's): terminating a test database's
 * backends is what a restart, a failover, a pooler restart, an idle-in-transaction timeout or a
 * network reset does to the server's sessions.
 */
export class PgFaults {
  private admin: pg.Client | undefined

  async open() {
    this.admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await this.admin.connect()
  }

  async close() {
    await this.admin?.end()
  }

  /**
   * Terminates the backends of `databaseUrl`'s database (only its listeners with `listenersOnly`, only
   * those waiting for a lock with `lockWaitersOnly`, only those in `pg_sleep` with `sleepersOnly`);
   * answers how many.
   */
  async terminate(
    databaseUrl: string,
    { listenersOnly = false, lockWaitersOnly = false, sleepersOnly = false } = {},
  ): Promise<number> {
    const { rows } = await this.admin!.query<{ done: boolean }>(
      `select pg_terminate_backend(pid) as done from pg_stat_activity
       where datname = $1 and pid <> pg_backend_pid() ${listenersOnly ? `and query ilike 'LISTEN%'` : ''}
       ${lockWaitersOnly ? `and wait_event_type = 'Lock'` : ''} ${sleepersOnly ? `and wait_event = 'PgSleep'` : ''}`,
      [databaseOf(databaseUrl)],
    )
    return rows.filter((r) => r.done).length
  }

  /** The backends of `databaseUrl`'s database: their state, wait event and current query. */
  async backends(databaseUrl: string) {
    const { rows } = await this.admin!.query<{
      state: string | null
      wait_event: string | null
      wait_event_type: string | null
      query: string
    }>(
      `select state, wait_event, wait_event_type, query from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [databaseOf(databaseUrl)],
    )
    return rows
  }
}

export const databaseOf = (url: string) => new URL(url).pathname.slice(1)

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `probe` until it answers true, or fails after `timeoutMs`. */
export async function eventually(probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`)
    await sleep(50)
  }
}

/**
 * Records every uncaught exception and unhandled rejection of this test process (an 'error' event
 * nobody hears on a database client is one: in a served process it ends the process), and fails the
 * test that raised one.
 */
export function failOnUncaughtErrors() {
  const uncaught: unknown[] = []
  const record = (err: unknown) => uncaught.push(err)
  beforeAll(() => {
    process.on('uncaughtException', record)
    process.on('unhandledRejection', record)
  })
  afterEach(() => {
    const seen = uncaught.splice(0)
    expect(seen.map((e) => String((e as Error)?.message ?? e))).toEqual([])
  })
  afterAll(() => {
    process.off('uncaughtException', record)
    process.off('unhandledRejection', record)
  })
}
