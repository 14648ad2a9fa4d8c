import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { findUnsafeInput, unsafeInputMessage } from '@amg/contract'
import { badRequest } from './errors'

/**
 * Refuses, for every route of the API, what no schema lets through and no database should see
 * (control characters, non-finite or out-of-range numbers; see `findUnsafeInput`), with 400 and a
 * message naming the field. It looks twice: before validation, at what the client sent (a number
 * too large for any field is refused even where a schema would turn it into text), and after, at
 * what type coercion made of query strings such as `Infinity` or `1e400`.
 */
export function installInputGuard(api: FastifyInstance) {
  // a callback hook, not an async one: it runs twice on every request and has nothing to wait for
  const check = (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    for (const part of [req.params, req.query, req.body]) {
      const unsafe = findUnsafeInput(part)
      if (unsafe) return done(badRequest(unsafeInputMessage(unsafe)))
    }
    done()
  }
  api.addHook('preValidation', check)
  api.addHook('preHandler', check)
}
