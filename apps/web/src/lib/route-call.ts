import type { ApiEnvelope, Route, RouteBody, RouteData, RouteQuery } from '@amg/contract'
import { call, del, get, patch, post, put, type CallOptions } from './http'

/**
 * What a call of a route sends, typed by the route's schemas in the contract: its body (JSON) and its
 * query, each only when the route takes one (a POST without a body schema may send `{}`).
 */
export type RouteInput<R extends Route> = (RouteBody<R> extends undefined
  ? { body?: Record<string, never> }
  : { body: RouteBody<R> }) &
  (RouteQuery<R> extends undefined ? { query?: undefined } : { query: RouteQuery<R> })

/** Arguments without the trailing ones left out. */
const given = <T extends unknown[]>(...args: T) => {
  while (args.length && args[args.length - 1] === undefined) args.pop()
  return args
}

/**
 * Calls a route of the contract (`routes.<resource>.<name>`) and answers its `data`: the path and
 * method come from the description, the body and query are checked against the route's schemas.
 * A GET or DELETE sends the query as its parameters; other methods send the body, and the query as
 * parameters besides.
 */
export function request<R extends Route>(
  route: R,
  input: RouteInput<R>,
  opts?: CallOptions,
): Promise<RouteData<R>> {
  const { body, query: asked } = input as { body?: unknown; query?: object }
  // a query with nothing in it is no query (GET /org/tree with no parameter is the whole tree)
  const query = asked && Object.keys(asked).length ? asked : undefined
  switch (route.method) {
    case 'GET':
      return get(route.path, ...given(query, opts))
    case 'DELETE':
      return del(route.path, ...given(query, opts))
  }
  const options = query ? { ...opts, params: query } : opts
  switch (route.method) {
    case 'PUT':
      return put(route.path, ...given(body, options))
    case 'PATCH':
      return patch(route.path, ...given(body, options))
    default:
      return post(route.path, ...given(body, options))
  }
}

/** Calls a route of the contract and answers the whole envelope (for calls whose msg is shown). */
export function requestEnvelope<R extends Route>(
  route: R,
  input: RouteInput<R>,
): Promise<ApiEnvelope<RouteData<R>>> {
  return call<RouteData<R>>({ method: route.method as string, url: route.path, data: input.body })
}
