/**
 * Requests per second and p99 latency of the server's hot paths against a bare Fastify hello-world
 * on the same Node, measured in one run: each load runs in turn for a few seconds, five rounds
 * interleaved, medians reported. 20 connections, as a gateway would hold.
 */
import autocannon from 'autocannon'
import { machineLoads, prepareForwardUsers, serverLoads } from './throughput-loads'
import { cpuSecondsOf, startAccessServer, startProcess, type Running } from './processes'
import { throwawayDatabaseUrl } from '../throwaway-database'

export interface LoadFigure {
  name: string
  engine: 'none' | 'pglite' | 'postgres'
  reqPerSec: number
  p99Ms: number
  /** req/s as a share of the bare hello-world's in the same run */
  ofBare: number
  /** the server process's CPU time per request, µs: its own cost, whatever the load generator's */
  serverCpuUs: number | undefined
}

export interface Load {
  name: string
  engine: LoadFigure['engine']
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
  /** run before each firing (a machine token lives five minutes: a fresh one each time) */
  before?: () => Promise<void>
}

/** Fires `load` for `seconds`; with the server's `pid`, also what each request cost it in CPU. */
export async function fire(base: string, load: Load, seconds: number, pid?: number) {
  await load.before?.()
  const cpuBefore = pid === undefined ? undefined : cpuSecondsOf(pid)
  const result = await autocannon({
    url: base + load.path,
    method: load.method,
    headers: { 'accept-encoding': 'gzip, br', ...load.headers },
    body: load.body,
    connections: 20,
    duration: seconds,
  })
  const cpuAfter = pid === undefined ? undefined : cpuSecondsOf(pid)
  if (result.non2xx > 0) throw new Error(`${load.name}: ${result.non2xx} answers were not 2xx`)
  const serverCpuUs =
    cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
      ? undefined
      : Math.round(((cpuAfter - cpuBefore) * 1e6) / result.requests.total)
  return { reqPerSec: result.requests.average, p99Ms: result.latency.p99, serverCpuUs }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** A bare Fastify hello-world and the access server measured against it, as `withBareAndServer` hands them over. */
export interface BareAndServer {
  hello: Running
  server: Running & { token: string }
  engine: 'pglite' | 'postgres'
}

/**
 * Runs `use` while a bare Fastify hello-world and the access server run beside it: the server on the
 * embedded database, or with DATABASE_URL on PostgreSQL in a database of its own, dropped after.
 */
export async function withBareAndServer<T>(use: (running: BareAndServer) => Promise<T>): Promise<T> {
  const hello = await startProcess('scripts/bench/hello.ts', {}, '/')
  let fresh: Awaited<ReturnType<typeof throwawayDatabaseUrl>> | undefined
  let server: BareAndServer['server'] | undefined
  try {
    fresh = process.env.DATABASE_URL ? await throwawayDatabaseUrl(process.env.DATABASE_URL) : undefined
    server = await startAccessServer(fresh?.url)
    return await use({ hello, server, engine: fresh ? 'postgres' : 'pglite' })
  } finally {
    await server?.stop()
    await hello.stop()
    await fresh?.drop()
  }
}

/** The yardstick of every figure: a bare Fastify hello-world on the same Node. */
export const BARE_LOAD: Load = { name: '裸 Fastify hello-world', engine: 'none', method: 'GET', path: '/' }

/** req/s as a percentage of the bare hello-world's, to one decimal. */
const shareOfBare = (reqPerSec: number, bareReqPerSec: number) =>
  Math.round((reqPerSec / bareReqPerSec) * 1000) / 10

/**
 * Fires the bare hello-world, then each load in turn (a second's warm-up, then `seconds` measured),
 * and prints one row each: req/s, p99 and the share of the bare figure.
 */
export async function printAgainstBare({ hello, server }: BareAndServer, loads: Load[], seconds: number) {
  const bare = await fire(hello.url, BARE_LOAD, seconds, hello.pid)
  const rows = [{ name: BARE_LOAD.name, ...bare, ofBare: 100 }]
  for (const load of loads) {
    await fire(server.url, load, 1)
    const r = await fire(server.url, load, seconds, server.pid)
    rows.push({ name: load.name, ...r, ofBare: shareOfBare(r.reqPerSec, bare.reqPerSec) })
  }
  console.table(rows)
}

/** An access server's loads: its hot paths, the forward-auth decision and the machine clients' calls. */
async function serverTarget(
  kept: (loads: Load[]) => Load[],
  engine: 'pglite' | 'postgres',
  server: { url: string; pid: number; token: string },
) {
  const forwardUsers = await prepareForwardUsers(server.url, server.token)
  return {
    base: server.url,
    pid: server.pid,
    loads: kept([
      ...serverLoads(engine, server.token, forwardUsers),
      ...(await machineLoads(server.url, server.token, engine)),
    ]),
  }
}

/**
 * `BENCH_ROUNDS` sets the rounds (5) and `BENCH_ONLY` (a regular expression on a row's name) keeps only
 * the rows it names, the bare hello-world always, for a short run while working on one path.
 */
export async function measureThroughput(options: { seconds?: number; rounds?: number } = {}) {
  const seconds = options.seconds ?? 5
  const rounds = options.rounds ?? Number(process.env.BENCH_ROUNDS ?? 5)
  const only = process.env.BENCH_ONLY === undefined ? undefined : new RegExp(process.env.BENCH_ONLY)
  const kept = (loads: Load[]) => (only ? loads.filter((l) => only.test(l.name)) : loads)
  const running: Running[] = []
  let dropDatabase = async () => {}
  try {
    const hello = await startProcess('scripts/bench/hello.ts', {}, '/')
    running.push(hello)
    const targets: { base: string; pid: number; loads: Load[] }[] = [
      {
        base: hello.url,
        pid: hello.pid,
        loads: [BARE_LOAD],
      },
    ]
    const pglite = await startAccessServer()
    running.push(pglite)
    targets.push(await serverTarget(kept, 'pglite', pglite))
    const pgUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL
    if (pgUrl) {
      const fresh = await throwawayDatabaseUrl(pgUrl)
      dropDatabase = fresh.drop
      const postgres = await startAccessServer(fresh.url)
      running.push(postgres)
      targets.push(await serverTarget(kept, 'postgres', postgres))
    }
    const all = targets.flatMap((t) => t.loads.map((load) => ({ base: t.base, pid: t.pid, load })))
    // warm every path once (caches, JIT), then the measured rounds
    for (const { base, load } of all) await fire(base, load, 1)
    const samples = new Map<Load, { reqPerSec: number[]; p99Ms: number[]; cpuUs: number[] }>()
    for (let round = 0; round < rounds; round++)
      for (const { base, pid, load } of all) {
        const r = await fire(base, load, seconds, pid)
        const s = samples.get(load) ?? { reqPerSec: [], p99Ms: [], cpuUs: [] }
        s.reqPerSec.push(r.reqPerSec)
        s.p99Ms.push(r.p99Ms)
        if (r.serverCpuUs !== undefined) s.cpuUs.push(r.serverCpuUs)
        samples.set(load, s)
      }
    const figures = all.map(({ load }) => ({
      name: load.name,
      engine: load.engine,
      reqPerSec: Math.round(median(samples.get(load)!.reqPerSec)),
      p99Ms: median(samples.get(load)!.p99Ms),
      ofBare: 0,
      serverCpuUs: samples.get(load)!.cpuUs.length ? median(samples.get(load)!.cpuUs) : undefined,
    }))
    const bare = figures[0].reqPerSec
    for (const f of figures) f.ofBare = shareOfBare(f.reqPerSec, bare)
    return figures
  } finally {
    for (const r of running.reverse()) await r.stop()
    await dropDatabase()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureThroughput({ seconds: Number(process.env.BENCH_SECONDS ?? 5) })
  console.table(figures)
}
