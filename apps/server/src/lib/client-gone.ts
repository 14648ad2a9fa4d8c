import type { FastifyReply } from 'fastify'

/**
 * A signal aborted once the client has gone without its answer: its connection closed before the
 * reply was sent (a browser that gave up after its timeout, a proxy that dropped the request). Work
 * done only for that answer, a password check waiting its turn say, need not be done.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController()
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort()
  })
  return gone.signal
}
