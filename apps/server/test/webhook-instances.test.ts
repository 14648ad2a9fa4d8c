import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app'
import { postgresSettings } from '../src/config'
import { openDatabase, queryRows, type Database } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'
import { startReceiver, waitFor } from './helpers/receiver'

/**
 * DESIGN.md §17: every instance runs a delivery worker, and instances sharing one PostgreSQL database
 * claim work with FOR UPDATE SKIP LOCKED, so each event reaches a receiver once — never twice because
 * two workers saw it due at the same moment.
 */
describe.skipIf(!inject('pgTemplate'))('two instances on one PostgreSQL database', () => {
  let a: TestApp
  let second: { app: FastifyInstance; database: Database }
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  const settings = { webhookAllowPrivate: true, webhookWorkerIntervalMs: 5, webhookRetryScale: 0.002 }

  beforeAll(async () => {
    a = await createTestApp(settings)
    const database = await openDatabase({
      databaseUrl: a.databaseUrl!,
      stageAuditRows: true,
      ...postgresSettings(a.config),
    })
    const app = await buildApp({ config: a.config, database, logger: false })
    await app.ready()
    second = { app, database }
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await second?.app.close()
    await second?.database.close()
    await a?.close()
    await receiver?.close()
  })

  it('deliver each event once', async () => {
    const hook = await a.call('POST', '/api/webhook/insert', {
      token: a.adminToken,
      body: { name: 'both', url: receiver.url, eventTypes: ['user.created'] },
    })
    expect(hook.status).toBe(200)
    // the events are written while both workers poll every few milliseconds
    const count = 40
    for (let i = 0; i < count; i++) {
      const res = await a.call('POST', '/api/user/insert', {
        token: a.adminToken,
        body: { nickName: `twice_${i}` },
      })
      expect(res.status).toBe(200)
    }
    await waitFor(async () => {
      const [row] = await queryRows<{ n: number }>(
        a.db,
        sql`select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
      )
      return row.n === count
    }, 20_000)
    await new Promise((r) => setTimeout(r, 200))
    const ids = receiver.received.map((r) => r.headers['webhook-id'])
    expect(ids).toHaveLength(count)
    expect(new Set(ids).size).toBe(count)
    const attempts = await queryRows<{ n: number }>(
      a.db,
      sql`select count(*)::int as n from webhook_attempts`,
    )
    expect(attempts[0].n).toBe(count)
  })
})
