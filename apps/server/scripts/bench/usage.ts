/**
 * DESIGN.md §12/§21: forward auth with usage recorded against the same server without it
 * (USAGE_RECORDING=false), both on the embedded database, measured in interleaved rounds in one run:
 * the goal is ≥ 95% of the throughput without recording.
 */
import { fire, type Load } from './throughput'
import { BENCH_SERVICE, prepareForwardUsers, serverLoads } from './throughput-loads'
import { startAccessServer } from './processes'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export async function measureUsage(options: { seconds?: number; rounds?: number } = {}) {
  const seconds = options.seconds ?? 5
  const rounds = options.rounds ?? Number(process.env.BENCH_ROUNDS ?? 5)
  const on = await startAccessServer()
  const off = await startAccessServer(undefined, { USAGE_RECORDING: 'false' })
  try {
    const loadOf = async (server: typeof on): Promise<Load> => {
      const users = await prepareForwardUsers(server.url, server.token)
      return serverLoads('pglite', server.token, users).find(
        (l) => l.name === `网关鉴权 GET /api/authz/forward/${BENCH_SERVICE}`,
      )!
    }
    const targets = [
      { name: '网关鉴权，记录使用', url: on.url, load: await loadOf(on), reqPerSec: [] as number[] },
      { name: '网关鉴权，不记录使用', url: off.url, load: await loadOf(off), reqPerSec: [] as number[] },
    ]
    for (const t of targets) await fire(t.url, t.load, 1)
    for (let round = 0; round < rounds; round++)
      for (const t of targets) t.reqPerSec.push((await fire(t.url, t.load, seconds)).reqPerSec)
    const [recorded, bare] = targets.map((t) => median(t.reqPerSec))
    return [
      { name: targets[0].name, reqPerSec: recorded, ofWithout: Math.round((recorded / bare) * 1000) / 10 },
      { name: targets[1].name, reqPerSec: bare, ofWithout: 100 },
    ]
  } finally {
    await on.stop()
    await off.stop()
  }
}
