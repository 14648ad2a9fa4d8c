import type { FastifyInstance, FastifyRequest } from 'fastify'
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
  const check = async (req: FastifyRequest) => {
    for (const part of [req.params, req.query, req.body]) {
      const unsafe = findUnsafeInput(part)
      if (unsafe) throw badRequest(unsafeInputMessage(unsafe))
    }
  }
  api.addHook('preValidation', check)
  api.addHook('preHandler', check)
}
