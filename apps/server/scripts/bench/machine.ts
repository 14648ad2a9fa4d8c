/**
 * The machine-client figures alone (DESIGN.md §16), for working on them: client-credentials tokens
 * per second and a call with a machine token, against a bare Fastify hello-world in the same run.
 * `BENCH_PROFILE_DIR=dir` writes CPU profiles of the servers (processes.ts); `DATABASE_URL` measures on
 * PostgreSQL. Run: `npx tsx scripts/bench/machine.ts` in apps/server.
 */
import { startAccessServer, startProcess } from './processes'
import { fire, machineLoads } from './throughput'
import { throwawayDatabaseUrl } from '../throwaway-database'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const hello = await startProcess('scripts/bench/hello.ts', {}, '/')
// PostgreSQL (DATABASE_URL) in a database of its own, dropped after
const fresh = process.env.DATABASE_URL ? await throwawayDatabaseUrl(process.env.DATABASE_URL) : undefined
const server = await startAccessServer(fresh?.url)
try {
  const loads = await machineLoads(server.url, server.token, fresh ? 'postgres' : 'pglite')
  const bare = await fire(hello.url, { name: 'bare', engine: 'none', method: 'GET', path: '/' }, seconds)
  const rows = [{ name: '裸 Fastify hello-world', ...bare, ofBare: 100 }]
  for (const load of loads) {
    await fire(server.url, load, 1)
    const r = await fire(server.url, load, seconds)
    rows.push({ name: load.name, ...r, ofBare: Math.round((r.reqPerSec / bare.reqPerSec) * 1000) / 10 })
  }
  console.table(rows)
} finally {
  await server.stop()
  await hello.stop()
  await fresh?.drop()
}
