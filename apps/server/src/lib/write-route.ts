import type { BoundRoute, RouteSchema } from '@amg/contract'
import { done } from './reply'
import { route, type Api, type RouteExtras } from './route'

/** The request a route's handler is given, typed by the route's schemas. */
export type RequestOf<S extends RouteSchema> = Parameters<Parameters<typeof route<S>>[2]>[0]

/**
 * Registers a write whose answer carries no data: `work`, then the success envelope with `message`
 * (成功 unless given: 修改成功, 删除成功). The handlers of links, updates and deletions are this.
 */
export function writeRoute<S extends RouteSchema>(
  app: Api,
  api: BoundRoute<S>,
  work: (req: RequestOf<S>) => Promise<unknown>,
  message?: string,
  extras?: RouteExtras,
): void {
  const handler = (req: RequestOf<S>) => done(work(req), message)
  // the answer is `NullData` for each such route; a generic route's answer type cannot say so
  route(app, api, handler as never, extras)
}
