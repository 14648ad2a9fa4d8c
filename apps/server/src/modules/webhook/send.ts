import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { guardedLookup, isPrivateAddress, PrivateTargetError } from './target'

/** What one attempt came to: the answer's status (null when none came), its first 1 KB, the time taken. */
export interface AttemptOutcome {
  ok: boolean
  statusCode: number | null
  durationMs: number
  /** the first 1 KB of the answer, or what went wrong */
  response: string
  /** the receiver's Retry-After, in seconds, when it gave one */
  retryAfterSeconds: number | null
}

export interface OutgoingMessage {
  url: string
  webhookId: string
  /** the JSON body, signed as sent */
  body: string
  /** the secrets that sign it: the current one, and the previous one during the day after a rotation */
  secrets: string[]
}

const TIMEOUT_MS = 10_000
export const SNIPPET_BYTES = 1024
/** More than this of an answer is not read. */
const READ_LIMIT = 64 * 1024

/**
 * The Standard Webhooks headers, signed with the convention's own package: one `v1,…` signature per
 * secret, space-separated, so a receiver holding either secret verifies it.
 */
export function signedHeaders(
  message: Pick<OutgoingMessage, 'webhookId' | 'body' | 'secrets'>,
  now = new Date(),
) {
  const signatures = message.secrets.map((secret) =>
    new Webhook(secret).sign(message.webhookId, now, message.body),
  )
  return {
    'webhook-id': message.webhookId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  }
}

/** Retry-After as seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(value: string | undefined): number | null {
  if (!value) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, Math.round((at - Date.now()) / 1000))
}

/** One attempt: POST the signed body; 2xx is success, anything else (or no answer) a failure. */
export function send(message: OutgoingMessage, allowPrivate: boolean): Promise<AttemptOutcome> {
  const started = Date.now()
  const done = (partial: Omit<AttemptOutcome, 'durationMs'>): AttemptOutcome => ({
    ...partial,
    durationMs: Date.now() - started,
  })
  const failure = (reason: string) =>
    done({ ok: false, statusCode: null, response: reason.slice(0, SNIPPET_BYTES), retryAfterSeconds: null })
  let url: URL
  try {
    url = new URL(message.url)
  } catch {
    return Promise.resolve(failure('地址不正确'))
  }
  // an address literal is connected to without a lookup: judged here
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate && isIP(host) && isPrivateAddress(host))
    return Promise.resolve(failure(new PrivateTargetError().message))
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'amg-webhooks/1',
          ...signedHeaders(message),
        },
        lookup: guardedLookup(allowPrivate) as never,
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          if (size < READ_LIMIT) chunks.push(chunk)
          size += chunk.length
          if (size >= READ_LIMIT) res.destroy()
        })
        const finish = () => {
          const status = res.statusCode ?? 0
          resolve(
            done({
              ok: status >= 200 && status < 300,
              statusCode: status,
              response: Buffer.concat(chunks)
                .subarray(0, SNIPPET_BYTES)
                .toString('utf8')
                .replace(/\uFFFD+$/, ''),
              retryAfterSeconds: retryAfterSeconds(res.headers['retry-after']),
            }),
          )
        }
        res.on('end', finish)
        res.on('close', finish)
        res.on('error', finish)
      },
    )
    req.on('timeout', () => req.destroy(new Error('超时未响应')))
    req.on('error', (err) =>
      resolve(failure(err instanceof PrivateTargetError ? err.message : `连接失败：${err.message}`)),
    )
    req.end(message.body)
  })
}
