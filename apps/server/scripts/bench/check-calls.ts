/**
 * The decision calls alone (DESIGN.md §10, §10a, §16), for working on them: the check API with a
 * session, with a machine client's token, forward auth with a data scope and the signed-in
 * `/api/user/current`, against a bare Fastify hello-world in the same run. `BENCH_PROFILE_DIR=dir`
 * writes CPU profiles of the servers (processes.ts); `DATABASE_URL` measures on PostgreSQL; `BENCH_ONLY`
 * (a regular expression on a row's name) keeps only the rows it names. Run: `npx tsx scripts/bench/check-calls.ts` in apps/server.
 */
import { startAccessServer, startProcess } from './processes'
import { fire, machineLoads, prepareForwardUsers, serverLoads } from './throughput'
import { throwawayDatabaseUrl } from '../throwaway-database'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const only = process.env.BENCH_ONLY
const hello = await startProcess('scripts/bench/hello.ts', {}, '/')
const fresh = process.env.DATABASE_URL ? await throwawayDatabaseUrl(process.env.DATABASE_URL) : undefined
const server = await startAccessServer(fresh?.url)
try {
  const engine = fresh ? 'postgres' : 'pglite'
  const forward = await prepareForwardUsers(server.url, server.token)
  const loads = [
    ...serverLoads(engine, server.token, forward),
    ...(await machineLoads(server.url, server.token, engine)),
  ].filter(
    (l) =>
      !/oidc\/token|listall|org\/tree/.test(l.name) && (only === undefined || new RegExp(only).test(l.name)),
  )
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
