import { get } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'

/** The headers an answer sent before Fastify must give as the route gives them. */
const PICKED = [
  'x-content-type-options',
  'content-security-policy',
  'content-type',
  'vary',
  'content-encoding',
  'content-length',
]

/** A GET over HTTP as status, headers and raw bytes (node:http, not fetch: fetch would decode the body). */
function httpGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      get(url, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        )
      }).on('error', reject)
    },
  )
}

/**
 * A GET of `url` over HTTP (to `base`, where a read may be answered before Fastify) and injected
 * (always the route), HTTP first: status, the picked headers and the bytes must agree. Answers the
 * HTTP answer.
 */
export async function bothWays(
  app: FastifyInstance,
  base: string,
  url: string,
  headers: Record<string, string>,
) {
  const http = await httpGet(base + url, headers)
  const routed = await app.inject({ method: 'GET', url, headers })
  const pick = (h: Record<string, unknown>) =>
    Object.fromEntries(PICKED.map((k) => [k, h[k] === undefined ? undefined : String(h[k])]))
  expect({ status: http.status, headers: pick(http.headers), body: http.body.toString('base64') }).toEqual({
    status: routed.statusCode,
    headers: pick(routed.headers),
    body: routed.rawPayload.toString('base64'),
  })
  return http
}
