import pg from 'pg'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { buildApp } from '../../src/app'
import { postgresSettings } from '../../src/config'
import { openDatabase, type Database } from '../../src/db/connection'
import { databaseOf, eventually } from './pg-faults'
import type { TestApp } from './app'

/** A second instance on a test app's PostgreSQL database. */
export interface SecondInstance {
  app: FastifyInstance
  database: Database
  /** the backend of its LISTEN session */
  listenerPid: number
  close(): Promise<void>
}

/** The backends LISTENing on `databaseUrl`'s database (the listener names itself amg-listener). */
async function listenerPids(admin: pg.Client, databaseUrl: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and application_name = 'amg-listener'`,
    [databaseOf(databaseUrl)],
  )
  return rows.map((r) => r.pid)
}

/**
 * Starts a second instance on `first`'s database, whose listener, once cut, stays lost for the test
 * (it would otherwise be back within a second and clear everything on its own): found as the LISTEN
 * session that was not there before it started.
 */
export async function secondInstance(first: TestApp, admin: pg.Client): Promise<SecondInstance> {
  const before = new Set(await listenerPids(admin, first.databaseUrl!))
  const second = await startSecondInstance(first, { listenerRetryMs: 600_000 })
  const mine = (await listenerPids(admin, first.databaseUrl!)).filter((pid) => !before.has(pid))
  expect(mine).toHaveLength(1)
  return { ...second, listenerPid: mine[0] }
}

/** Another app on `first`'s PostgreSQL database, opened as the server opens it. */
export async function startSecondInstance(
  first: TestApp,
  options: { listenerRetryMs?: number } = {},
): Promise<Omit<SecondInstance, 'listenerPid'>> {
  const database = await openDatabase({
    databaseUrl: first.databaseUrl!,
    stageAuditRows: true,
    ...postgresSettings(first.config),
    ...options,
  })
  const app = await buildApp({ config: first.config, database, logger: false })
  await app.ready()
  return {
    app,
    database,
    async close() {
      await app.close()
      await database.close()
    },
  }
}

/** Terminates the instance's LISTEN session, as a network reset or a failover would, and waits until it knows. */
export async function cutListener(admin: pg.Client, instance: SecondInstance) {
  const { rows } = await admin.query<{ done: boolean }>('select pg_terminate_backend($1) as done', [
    instance.listenerPid,
  ])
  expect(rows[0].done).toBe(true)
  await eventually(async () => !instance.database.hearsEveryChange(), 'the listener lost', 5_000)
}

/**
 * Polls `refused` every 10 ms from the moment the change was answered until it says yes; answers how
 * many milliseconds that took (fails after two seconds).
 */
export async function msUntil(refused: () => Promise<boolean>): Promise<number> {
  const started = performance.now()
  while (!(await refused())) {
    if (performance.now() - started > 2_000) throw new Error('not refused within two seconds')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return performance.now() - started
}
