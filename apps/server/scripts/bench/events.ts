/**
 * Change events (DESIGN.md §17), two figures per engine:
 *
 * - Latency: the real server (its own process, the default worker interval) with one webhook endpoint
 *   on a receiver in this process. Each user update is awaited, then the time from its answer to the
 *   receiver getting its `user.updated` message is taken; one write at a time, so each message is the
 *   last write's. p50 / p95 / max over `writes`.
 * - The outbox's cost on a write: the same user update through two apps on one database, interleaved,
 *   both with the operation log; one writes the change's events and their deliveries (an endpoint is
 *   subscribed to every event), the other is built with `events: false` and writes neither — the only
 *   difference. Both apps' deliveries are left unsent while timed (sending follows the answer and is
 *   what the latency figure times). Medians; PostgreSQL gives each app connections of its own.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { openDatabase } from '../../src/db/connection'
import { seedBase } from '../../src/seed/base'
import { openThrowawayDatabase, throwawayDatabaseUrl } from '../throwaway-database'
import { startAccessServer } from './processes'
import { adminToken } from './admin-session'
import { apiCall } from './api-call'

export interface EventFigures {
  engine: 'pglite' | 'postgres'
  latency: { p50Ms: number; p95Ms: number; maxMs: number; writes: number }
  write: { withEventsMs: number; withoutMs: number; overheadPct: number; writes: number }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)]
const round2 = (x: number) => Math.round(x * 100) / 100

/** A receiver that notes when each message arrives and answers 200 at once. */
async function startReceiver() {
  let waiting: ((at: number) => void) | null = null
  const server = http.createServer((req, res) => {
    const at = performance.now()
    req.resume()
    req.on('end', () => {
      res.writeHead(200).end('ok')
      waiting?.(at)
      waiting = null
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    /** the arrival time of the next message; fails after 10 s */
    next: () =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no message within 10 s')), 10_000)
        waiting = (at) => {
          clearTimeout(timer)
          resolve(at)
        }
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const api = apiCall

async function measureLatency(databaseUrl: string | undefined, writes: number) {
  const receiver = await startReceiver()
  const server = await startAccessServer(databaseUrl, { WEBHOOK_ALLOW_PRIVATE: 'true' })
  try {
    const base = `${server.url}/api`
    await api(base, server.token, 'POST', '/webhook/insert', {
      name: 'bench',
      url: receiver.url,
      eventTypes: ['user.updated'],
      enabled: true,
    })
    const userId = await api<number>(base, server.token, 'POST', '/user/insert', { nickName: 'bench_events' })
    const took: number[] = []
    for (let i = 0; i < writes + 10; i++) {
      const arrival = receiver.next()
      await api(base, server.token, 'PUT', '/user/update', {
        id: userId,
        nickName: 'bench_events',
        realName: `第${i}次`,
        status: 1,
      })
      const answered = performance.now()
      const at = await arrival
      // the first ten warm the paths up
      if (i >= 10) took.push(Math.max(0, at - answered))
    }
    return {
      p50Ms: round2(quantile(took, 0.5)),
      p95Ms: round2(quantile(took, 0.95)),
      maxMs: round2(Math.max(...took)),
      writes,
    }
  } finally {
    await server.stop()
    await receiver.close()
  }
}

async function measureWriteCost(writes: number) {
  // the deliveries are written but not sent here: sending comes after the answer, off the write's path
  // (the latency figure times it), and on the embedded database it would share the one connection
  // with the writes being timed; so the worker's rounds are an hour apart and the app does not poke it
  const config = loadConfig(
    {},
    {
      logLevel: 'warn',
      // the admin's own password: the built-in default would have to be changed first (DESIGN.md §14)
      initialAdminPassword: 'Bench@Admin2026',
      passwordHashCost: 14,
      webhookAllowPrivate: true,
      webhookWorkerIntervalMs: 3_600_000,
    },
  )
  const { database, url, drop } = await openThrowawayDatabase({ stageAuditRows: true })
  const bareDatabase = url ? await openDatabase({ databaseUrl: url, stageAuditRows: true }) : database
  const receiver = await startReceiver()
  try {
    await seedBase(database.db, config)
    const app = await buildApp({ config, database, logger: false })
    const bare = await buildApp({ config, database: bareDatabase, logger: false, events: false })
    await app.ready()
    await bare.ready()
    app.ctx.deliveriesCommitted.listen(() => {})
    const token = await adminToken(app, config.initialAdminPassword)
    const bareToken = await adminToken(bare, config.initialAdminPassword)
    const inject = (
      target: FastifyInstance,
      t: string,
      method: 'POST' | 'PUT',
      path: string,
      payload: object,
    ) =>
      target.inject({ method, url: path, headers: { 'x-auth-token': t }, payload }).then((res) => {
        if (res.statusCode !== 200) throw new Error(res.body)
        return res.json().data as number
      })
    // every event of the write has a delivery too, as when an endpoint listens to everything
    await inject(app, token, 'POST', '/api/webhook/insert', {
      name: 'bench',
      url: receiver.url,
      eventTypes: ['*'],
      enabled: true,
    })
    const userId = await inject(app, token, 'POST', '/api/user/insert', { nickName: 'bench_outbox' })
    const withEvents: number[] = []
    const without: number[] = []
    for (let i = 0; i < writes + 20; i++) {
      for (const [target, t, out] of [
        [app, token, withEvents],
        [bare, bareToken, without],
      ] as const) {
        const started = performance.now()
        await inject(target, t, 'PUT', '/api/user/update', {
          id: userId,
          nickName: 'bench_outbox',
          realName: `第${i}次`,
          status: 1,
        })
        if (i >= 20) out.push(performance.now() - started)
      }
    }
    await app.close()
    await bare.close()
    const w = quantile(withEvents, 0.5)
    const wo = quantile(without, 0.5)
    return {
      withEventsMs: round2(w),
      withoutMs: round2(wo),
      overheadPct: Math.round(((w - wo) / wo) * 1000) / 10,
      writes,
    }
  } finally {
    await receiver.close()
    if (bareDatabase !== database) await bareDatabase.close()
    await database.close()
    await drop()
  }
}

/** Both figures on the embedded database and, given `postgresUrl`, on PostgreSQL. */
export async function measureEvents(
  options: { postgresUrl?: string; writes?: number } = {},
): Promise<EventFigures[]> {
  const writes = options.writes ?? 200
  const figures: EventFigures[] = []
  for (const engine of ['pglite', 'postgres'] as const) {
    if (engine === 'postgres' && !options.postgresUrl) continue
    const fresh = engine === 'postgres' ? await throwawayDatabaseUrl(options.postgresUrl!) : undefined
    const before = process.env.DATABASE_URL
    try {
      const latency = await measureLatency(fresh?.url, writes)
      // openThrowawayDatabase reads DATABASE_URL: the engine's server, or none for the embedded one
      if (engine === 'postgres') process.env.DATABASE_URL = options.postgresUrl
      else delete process.env.DATABASE_URL
      const write = await measureWriteCost(writes)
      figures.push({ engine, latency, write })
    } finally {
      if (before === undefined) delete process.env.DATABASE_URL
      else process.env.DATABASE_URL = before
      await fresh?.drop()
    }
  }
  return figures
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureEvents({ postgresUrl: process.env.DATABASE_URL, writes: 200 })
  console.log(JSON.stringify(figures, null, 2))
}
