import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { BoundRoute, Route, RouteSchema } from '@amg/contract'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the contract's description of the route: the catalogue and the operation log read it */
    route?: Route
  }
}

/** The app a module registers on (its schemas type the handlers). */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>

type Handler<S extends RouteSchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S & FastifySchema,
  TypeBoxTypeProvider
>

/** What a module adds to a route besides its description: who may call it, hooks, documentation. */
export type RouteExtras = Omit<RouteShorthandOptions, 'schema'> & { schema?: Record<string, unknown> }

/**
 * Registers a handler for a route of the contract (`packages/contract/src/routes/`): method, path,
 * schemas, OpenAPI tag and summary, the read-only mark and who may call it all come from its description.
 */
export function route<S extends RouteSchema>(
  app: Api,
  { route: description, schema }: BoundRoute<S>,
  handler: Handler<S>,
  extras: RouteExtras = {},
) {
  const { config, schema: documentation, ...options } = extras
  app.route({
    ...options,
    method: typeof description.method === 'string' ? description.method : [...description.method],
    url: description.path,
    config: {
      ...config,
      ...(description.readOnly ? { readOnly: true } : {}),
      ...(description.access ? { access: description.access } : {}),
      route: description,
    },
    schema: { tags: [description.group], summary: description.summary, ...schema, ...documentation },
    handler: handler as never,
  })
}
