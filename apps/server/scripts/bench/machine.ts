/**
 * The machine-client figures alone (DESIGN.md §16), for working on them: client-credentials tokens
 * per second and a call with a machine token, against a bare Fastify hello-world in the same run.
 * `BENCH_PROFILE_DIR=dir` writes CPU profiles of the servers (processes.ts); `DATABASE_URL` measures on
 * PostgreSQL in a database of its own, dropped after. Run: `npx tsx scripts/bench/machine.ts` in apps/server.
 */
import { printAgainstBare, withBareAndServer } from './throughput'
import { machineLoads } from './throughput-loads'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
await withBareAndServer(async (running) => {
  const { server, engine } = running
  await printAgainstBare(running, await machineLoads(server.url, server.token, engine), seconds)
})
