/**
 * Forward auth while sign-ins hash passwords (DESIGN.md §12's forward-auth figure, under the load that
 * once starved it): the same warm forward-auth load with and without 8 sign-ins running back to back,
 * on a server hashing at the real cost (scrypt N=2^17). Rounds interleaved, medians reported; the
 * figure that matters is the ratio of the two in the same run.
 */
import autocannon from 'autocannon'
import { startAccessServer } from './processes'

export interface SignInLoadFigures {
  quiet: { reqPerSec: number; p99Ms: number }
  withSignIns: { reqPerSec: number; p99Ms: number }
  /** forward-auth throughput with sign-ins running, as a share of the quiet figure */
  throughputPct: number
  signIns: { concurrent: number; perSecond: number; refused: number; failed: number }
  hashCost: number
}

const SIGN_INS = 8
const HASH_COST = 17
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export async function measureSignInLoad(
  options: { seconds?: number; rounds?: number; databaseUrl?: string } = {},
): Promise<SignInLoadFigures> {
  const seconds = options.seconds ?? 5
  const rounds = options.rounds ?? 3
  const server = await startAccessServer(options.databaseUrl, { PASSWORD_HASH_COST: String(HASH_COST) })
  try {
    const base = server.url
    const json = { 'content-type': 'application/json', 'x-auth-token': server.token }
    // one account per sign-in loop, so the throttle's per-account counting plays no part
    const password = 'Bench#Sign1n'
    const names = Array.from({ length: SIGN_INS }, (_, i) => `bench_signin_${i}`)
    for (const nickName of names) {
      const res = await fetch(`${base}/api/user/insert`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ nickName, password }),
      })
      if (res.status !== 200) throw new Error(`creating ${nickName}: ${res.status} ${await res.text()}`)
    }
    const forward = () =>
      autocannon({
        url: `${base}/api/authz/forward`,
        headers: {
          'x-auth-token': server.token,
          'x-original-method': 'GET',
          'x-original-uri': '/api/user/list?page=1',
        },
        connections: 20,
        duration: seconds,
      })

    let signedIn = 0
    let refused = 0
    let failed = 0
    let signInSeconds = 0
    const withSignIns = async () => {
      let stop = false
      const loop = async (nickName: string) => {
        while (!stop) {
          const res = await fetch(`${base}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ nickName, password }),
          }).catch(() => undefined)
          await res?.arrayBuffer()
          if (res?.status === 200) signedIn++
          else if (res?.status === 503 || res?.status === 429) refused++
          else failed++
        }
      }
      const started = Date.now()
      const loops = names.map(loop)
      // the hashing queue is full before the load starts
      await new Promise((r) => setTimeout(r, 500))
      const result = await forward()
      stop = true
      await Promise.all(loops)
      signInSeconds += (Date.now() - started) / 1000
      return result
    }

    await forward() // warm
    const quiet: { rps: number[]; p99: number[] } = { rps: [], p99: [] }
    const loaded: { rps: number[]; p99: number[] } = { rps: [], p99: [] }
    for (let round = 0; round < rounds; round++) {
      const q = await forward()
      if (q.non2xx > 0) throw new Error(`quiet forward auth: ${q.non2xx} answers were not 2xx`)
      quiet.rps.push(q.requests.average)
      quiet.p99.push(q.latency.p99)
      const l = await withSignIns()
      if (l.non2xx > 0) throw new Error(`forward auth with sign-ins: ${l.non2xx} answers were not 2xx`)
      loaded.rps.push(l.requests.average)
      loaded.p99.push(l.latency.p99)
    }
    const q = { reqPerSec: Math.round(median(quiet.rps)), p99Ms: median(quiet.p99) }
    const l = { reqPerSec: Math.round(median(loaded.rps)), p99Ms: median(loaded.p99) }
    return {
      quiet: q,
      withSignIns: l,
      throughputPct: Math.round((l.reqPerSec / q.reqPerSec) * 1000) / 10,
      signIns: {
        concurrent: SIGN_INS,
        perSecond: Math.round((signedIn / signInSeconds) * 10) / 10,
        refused,
        failed,
      },
      hashCost: HASH_COST,
    }
  } finally {
    await server.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    JSON.stringify(await measureSignInLoad({ seconds: Number(process.env.BENCH_SECONDS ?? 5) }), null, 2),
  )
}
