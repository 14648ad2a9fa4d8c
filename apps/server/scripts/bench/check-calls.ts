/**
 * The decision calls alone (DESIGN.md §10, §10a, §16), for working on them: the check API with a
 * session, with a machine client's token, forward auth with a data scope and the signed-in
 * `/api/user/current`, against a bare Fastify hello-world in the same run. `BENCH_PROFILE_DIR=dir`
 * writes CPU profiles of the servers (processes.ts); `DATABASE_URL` measures on PostgreSQL; `BENCH_ONLY`
 * (a regular expression on a row's name) keeps only the rows it names. Run: `npx tsx scripts/bench/check-calls.ts` in apps/server.
 */
import { printAgainstBare, withBareAndServer } from './throughput'
import { machineLoads, prepareForwardUsers, serverLoads } from './throughput-loads'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const only = process.env.BENCH_ONLY
await withBareAndServer(async (running) => {
  const { server, engine } = running
  const forward = await prepareForwardUsers(server.url, server.token)
  const loads = [
    ...serverLoads(engine, server.token, forward),
    ...(await machineLoads(server.url, server.token, engine)),
  ].filter(
    (l) =>
      !/oidc\/token|listall|org\/tree/.test(l.name) && (only === undefined || new RegExp(only).test(l.name)),
  )
  await printAgainstBare(running, loads, seconds)
})
