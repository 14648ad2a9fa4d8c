/**
 * What nginx's auth_request adds to a proxied call: the same upstream behind nginx twice in one run,
 * once through the committed template (deploy/nginx/auth-request.conf, asking this server's
 * /api/authz/forward) and once as a plain proxy. One connection at a time, so the figure is latency,
 * not queueing.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { hasNginx, startNginx, type RunningNginx } from '../../test/helpers/nginx'
import { startAccessServer, startProcess, type Running } from './processes'

const PLAIN_SITE = `server {
    listen __LISTEN__;
    location / {
        proxy_pass __UPSTREAM__;
    }
}
# __AMS__ unused: no auth_request here
`

async function latency(url: string, headers: Record<string, string>, seconds: number) {
  const r = await autocannon({ url, headers, connections: 1, duration: seconds })
  if (r.non2xx > 0) throw new Error(`${url}: ${r.non2xx} answers were not 2xx`)
  return { meanMs: r.latency.average, p99Ms: r.latency.p99 }
}

export async function measureGatewayLatency(seconds = 5) {
  if (!hasNginx) return null
  const started: (Running | RunningNginx)[] = []
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-bench-nginx-'))
  try {
    const upstream = await startProcess('scripts/bench/hello.ts', {}, '/')
    started.push(upstream)
    const ams = await startAccessServer()
    started.push(ams)
    const plainSite = path.join(dir, 'plain.conf')
    fs.writeFileSync(plainSite, PLAIN_SITE)
    const withAuth = await startNginx(ams.url, upstream.url)
    started.push(withAuth)
    const plain = await startNginx(ams.url, upstream.url, plainSite)
    started.push(plain)
    const headers = { 'x-auth-token': ams.token }
    const through = (n: RunningNginx) => `http://127.0.0.1:${n.port}/`
    await latency(through(withAuth), headers, 1)
    await latency(through(plain), headers, 1)
    const a: { meanMs: number; p99Ms: number }[] = []
    const p: { meanMs: number; p99Ms: number }[] = []
    for (let round = 0; round < 3; round++) {
      a.push(await latency(through(withAuth), headers, seconds))
      p.push(await latency(through(plain), headers, seconds))
    }
    const mid = <T>(xs: T[], key: (x: T) => number) => xs.map(key).sort((x, y) => x - y)[1]
    const withMean = mid(a, (x) => x.meanMs)
    const plainMean = mid(p, (x) => x.meanMs)
    return {
      plainMeanMs: plainMean,
      withAuthMeanMs: withMean,
      addedMs: Math.round((withMean - plainMean) * 100) / 100,
      plainP99Ms: mid(p, (x) => x.p99Ms),
      withAuthP99Ms: mid(a, (x) => x.p99Ms),
    }
  } finally {
    for (const s of started.reverse()) await s.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureGatewayLatency())
