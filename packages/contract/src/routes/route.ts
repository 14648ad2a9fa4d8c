import type { Static, TSchema } from '@sinclair/typebox'
import type { ApiEnvelope } from '../envelope'
import { RESOURCE_GROUPS, type Resource } from './resources'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS'

/**
 * The schemas of one route as Fastify takes them (body, querystring, params, response by status, and
 * what the OpenAPI page shows besides). They live in `<resource>.schemas.ts`, apart from the
 * descriptions: the console imports the descriptions and must not bundle TypeBox.
 */
export interface RouteSchema {
  body?: TSchema
  querystring?: TSchema
  params?: TSchema
  response?: Record<number, TSchema>
  [documentation: string]: unknown
}

/** A route as written in a resource's description: the rest comes from its resource. */
export interface RouteSpec {
  method: HttpMethod | readonly HttpMethod[]
  /** below /api */
  path: string
  /** the Chinese operation name (catalogue, OpenAPI, operation log) */
  summary: string
  /** a read sent as POST: no transaction, no operation log row (lib/route-kind.ts on the server) */
  readOnly?: boolean
  /**
   * Who may call it: 'public' anyone, 'session' any signed-in user; left out, a session and a held
   * back-end pattern matching the call (the authorization hook and `canCall` both read this)
   */
  access?: RouteAccess
}

export type RouteAccess = 'public' | 'session'

/** One route, described once: server, console, catalogue and operation log read this. */
export interface Route<S extends RouteSchema = RouteSchema> extends RouteSpec {
  resource: Resource
  /** the Chinese group name of the resource */
  group: string
  /** a type only, never set: the schemas the route's request and answer are checked against */
  readonly schemaType?: S
}

/** A route with its schemas bound: what the server registers. */
export interface BoundRoute<S extends RouteSchema = RouteSchema> {
  route: Route<S>
  schema: S
}

/**
 * The routes of one resource. `S` is the type of the resource's schemas (imported as a type only),
 * so every described route has schemas and the console's calls are typed by them.
 */
export const describeRoutes =
  <S extends Record<string, RouteSchema>>() =>
  (resource: Resource, specs: { [P in keyof S]: RouteSpec }): { [P in keyof S]: Route<S[P]> } => {
    const group = RESOURCE_GROUPS[resource]
    const routes = {} as { [P in keyof S]: Route<S[P]> }
    for (const key of Object.keys(specs) as (keyof S)[]) routes[key] = { ...specs[key], resource, group }
    return routes
  }

/** Binds each described route to its schemas (the keys of both must match). */
export function bindSchemas<S extends Record<string, RouteSchema>>(
  routes: { [P in keyof S]: Route<S[P]> },
  schemas: S,
): { [P in keyof S]: BoundRoute<S[P]> } {
  const bound = {} as { [P in keyof S]: BoundRoute<S[P]> }
  for (const key of Object.keys(schemas) as (keyof S)[])
    bound[key] = { route: routes[key], schema: schemas[key] }
  return bound
}

type SchemaOf<R> = R extends Route<infer S> ? S : never
type StaticOf<T> = T extends TSchema ? Static<T> : undefined

/** The body a route takes. */
export type RouteBody<R> = StaticOf<SchemaOf<R>['body']>
/** The query a route takes. */
export type RouteQuery<R> = StaticOf<SchemaOf<R>['querystring']>
/** A value as it arrives as JSON: the server's Date objects are ISO 8601 strings. */
export type Json<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T

/** The `data` of a route's success answer, as the client receives it. */
export type RouteData<R> = SchemaOf<R>['response'] extends { 200: infer E extends TSchema }
  ? Static<E> extends ApiEnvelope<infer D>
    ? Json<D>
    : Json<Static<E>>
  : unknown
