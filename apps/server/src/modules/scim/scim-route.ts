import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import { RESOURCE_GROUPS, type HttpMethod, type Resource, type Route } from '@amg/contract'
import { SCIM_PREFIX } from './http'

/**
 * Registers a /scim/v2 route with a description as the contract's routes have one: the operation
 * log reads its summary and resource group (用户管理, 用户组管理) from it, so a SCIM write's row is
 * found where the console's writes of the same records are.
 */
export function scimRoute<P = Record<string, string>>(
  app: FastifyInstance,
  method: HttpMethod,
  path: string,
  resource: Resource,
  summary: string,
  handler: (req: FastifyRequest<{ Params: P }>, reply: FastifyReply) => Promise<unknown>,
  preHandler?: preHandlerAsyncHookHandler,
) {
  const description: Route = {
    method,
    path: `${SCIM_PREFIX}${path}`,
    summary,
    resource,
    group: RESOURCE_GROUPS[resource],
  }
  app.route({
    method,
    url: path,
    config: { route: description },
    // not in /api/docs: that document describes the API's envelope, which SCIM does not answer in
    schema: { hide: true },
    ...(preHandler ? { preHandler } : {}),
    handler: handler as never,
  })
}
