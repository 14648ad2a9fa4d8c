import type { FastifyInstance } from 'fastify'
import { findUnsafeInput, unsafeInputMessage } from '@amg/contract'
import { badRequest } from './errors'

/**
 * Refuses, for every route of the API, what no schema lets through and no database should see
 * (control characters, non-finite or out-of-range numbers; see `findUnsafeInput`), with 400 and a
 * message naming the field. It runs after validation, so it also sees what query-string coercion
 * made of `Infinity` or `1e400`.
 */
export function installInputGuard(api: FastifyInstance) {
  api.addHook('preHandler', async (req) => {
    for (const part of [req.params, req.query, req.body]) {
      const unsafe = findUnsafeInput(part)
      if (unsafe) throw badRequest(unsafeInputMessage(unsafe))
    }
  })
}
