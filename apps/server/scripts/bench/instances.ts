/**
 * DESIGN.md §19: forward auth through nginx's `upstream` (deploy/nginx/instances.conf) in front of
 * three instances on one PostgreSQL database, beside the same nginx in front of one of them (its
 * upstream naming that instance three times, so both pay nginx alike). Rounds interleaved, medians.
 * Needs nginx and PostgreSQL (DATABASE_URL, or a server at 127.0.0.1:5432): without either it answers
 * why it was skipped.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'
import { hasNginx, startNginx, type RunningNginx } from '../../test/helpers/nginx'
import { deployFile } from '../../test/helpers/processes'
import { startAccessServer, type Running } from './processes'
import { prepareForwardUsers } from './throughput-loads'
import { throwawayDatabaseUrl } from '../throwaway-database'

const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres'
/** what every instance of one deployment shares (docs/operations.md) */
const SHARED_SECRET_KEY = 'bench-secret-key-shared-by-the-instances'

export interface InstancesFigure {
  instances: number
  reqPerSec: number
  p99Ms: number
}

async function reachable(url: string) {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/** deploy/nginx/instances.conf with these instances (host:port) in its upstream, LISTEN left for startNginx. */
function siteFor(dir: string, name: string, hosts: [string, string, string]) {
  const file = path.join(dir, `${name}.conf`)
  fs.writeFileSync(
    file,
    fs
      .readFileSync(deployFile('nginx/instances.conf'), 'utf8')
      .replaceAll('__FIRST__', hosts[0])
      .replaceAll('__SECOND__', hosts[1])
      .replaceAll('__THIRD__', hosts[2]),
  )
  return file
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export async function measureInstances(
  options: { seconds?: number; rounds?: number; connections?: number } = {},
): Promise<{ figures: InstancesFigure[] } | { skipped: string }> {
  const { seconds = 5, rounds = 3, connections = 60 } = options
  if (!hasNginx) return { skipped: 'nginx is not installed: skipped.' }
  const url = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? LOCAL_PG
  if (!(await reachable(url))) return { skipped: 'no PostgreSQL reachable: skipped.' }

  const fresh = await throwawayDatabaseUrl(url)
  const running: (Running | RunningNginx)[] = []
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-bench-instances-'))
  try {
    const env = { SECRET_KEY: SHARED_SECRET_KEY, LOG_LEVEL: 'warn' }
    // the first migrates and seeds the database; the others start on it as it is
    const first = await startAccessServer(fresh.url, env)
    running.push(first)
    const others = await Promise.all([startAccessServer(fresh.url, env), startAccessServer(fresh.url, env)])
    running.push(...others)
    const hosts = [first, ...others].map((s) => new URL(s.url).host) as [string, string, string]
    const { token } = await prepareForwardUsers(first.url, first.token)
    const one = await startNginx('', '', siteFor(dir, 'one', [hosts[0], hosts[0], hosts[0]]))
    running.push(one)
    const three = await startNginx('', '', siteFor(dir, 'three', hosts))
    running.push(three)

    const targets = [
      { instances: 1, port: one.port },
      { instances: 3, port: three.port },
    ]
    const fire = async (port: number, duration: number) => {
      const r = await autocannon({
        url: `http://127.0.0.1:${port}/api/authz/forward/bench-orders`,
        headers: {
          'x-auth-token': token,
          'x-original-method': 'GET',
          'x-original-uri': '/api/orders/1024?page=1',
        },
        connections,
        duration,
      })
      if (r.non2xx > 0) throw new Error(`forward auth through nginx: ${r.non2xx} answers were not 2xx`)
      return { reqPerSec: r.requests.average, p99Ms: r.latency.p99 }
    }
    // every instance warm (sessions and decisions held), then the measured rounds, interleaved
    for (const t of targets) await fire(t.port, 1)
    const samples = new Map(targets.map((t) => [t.instances, [] as { reqPerSec: number; p99Ms: number }[]]))
    for (let round = 0; round < rounds; round++)
      for (const t of targets) samples.get(t.instances)!.push(await fire(t.port, seconds))
    return {
      figures: targets.map((t) => ({
        instances: t.instances,
        reqPerSec: Math.round(median(samples.get(t.instances)!.map((s) => s.reqPerSec))),
        p99Ms: median(samples.get(t.instances)!.map((s) => s.p99Ms)),
      })),
    }
  } finally {
    for (const r of running.reverse()) await r.stop().catch(() => {})
    fs.rmSync(dir, { recursive: true, force: true })
    await fresh.drop()
  }
}

// `npx tsx scripts/bench/instances.ts` in apps/server measures this part alone
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  measureInstances({ seconds: Number(process.env.BENCH_SECONDS ?? 5) })
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((err) => {
      console.error(err)
      process.exit(1)
    })
}
