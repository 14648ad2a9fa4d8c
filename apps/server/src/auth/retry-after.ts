import type { FastifyReply } from 'fastify'
import { ThrottledError } from './login-throttle'

/** A refusal by the throttle tells the client when to come back (the error handler writes the envelope). */
export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof ThrottledError) reply.header('retry-after', String(err.retryAfterSeconds))
    throw err
  }
}
