import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * Work a write does before its transaction opens. A write route's handler runs inside the request's
 * transaction (audit/operation-log.ts); whatever needs no database — hashing a password, checking
 * the password against its rules, receiving an upload — must not run there, holding a connection idle
 * inside an open transaction for most of a second. The route takes `preHandler` (Fastify runs it after
 * validation and authorization, before the handler) and the handler reads `resultFor(req)`.
 */
export function beforeTransaction<T>(work: (req: FastifyRequest, reply: FastifyReply) => Promise<T>) {
  const results = new WeakMap<FastifyRequest, T>()
  return {
    preHandler: async (req: FastifyRequest, reply: FastifyReply) => {
      results.set(req, await work(req, reply))
    },
    resultFor(req: FastifyRequest): T {
      if (!results.has(req)) throw new Error('the route ran without its preHandler')
      return results.get(req)!
    },
  }
}
