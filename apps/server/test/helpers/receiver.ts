import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request a receiver got: its headers (lower-case names) and its raw body. */
export interface Received {
  headers: Record<string, string>
  body: string
}

/**
 * A real webhook receiver on 127.0.0.1 (node:http): it records every request and answers each with
 * the next status of `answers` (then 200), as a consumer's server would.
 */
export async function startReceiver(answers: { status: number; headers?: Record<string, string> }[] = []) {
  const received: Received[] = []
  const queue = [...answers]
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      })
      const answer = queue.shift() ?? { status: 200 }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
      res.end(answer.status < 300 ? 'ok' : `failed with ${answer.status}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** answer the next requests with these statuses */
    answer: (...more: { status: number; headers?: Record<string, string> }[]) => queue.push(...more),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * A receiver that holds its answers while `holding`: each request is recorded as it arrives and left
 * unanswered (a delivery in flight) until `release()`, after which it and every later one get 200.
 */
export async function startHoldingReceiver() {
  const received: Received[] = []
  const held: http.ServerResponse[] = []
  let holding = true
  const answer = (res: http.ServerResponse) => {
    if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      })
      if (holding) held.push(res)
      else answer(res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    release() {
      holding = false
      held.splice(0).forEach(answer)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
