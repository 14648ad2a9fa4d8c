import type { FastifyRequest } from 'fastify'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'public': no session needed; 'session': any signed-in user;
     * default: a session and a permission whose back-end pattern matches the call.
     */
    access?: 'public' | 'session'
    /**
     * A read sent as POST (lists, pickers): no operation-log row, no transaction, and no look at
     * whether access changed. A write left unmarked is logged, so forgetting errs on the safe side.
     */
    readOnly?: boolean
  }
}

/**
 * The signed-in user of a route that requires one: the authorization hook (auth/hook.ts) sets it, and
 * guarantees it.
 */
export function currentUser(req: Pick<FastifyRequest, 'user'>): NonNullable<FastifyRequest['user']> {
  if (!req.user) throw new Error('route requires a session')
  return req.user
}
