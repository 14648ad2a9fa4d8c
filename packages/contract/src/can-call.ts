import { matchesUrlPattern, type UrlPattern } from './path-match'
import type { RouteSpec } from './routes/route'

/** What decides whether a signed-in user may make a call: the answer of GET /user/current carries it. */
export interface CallAccess {
  superAdmin: boolean
  /**
   * the user's back-end patterns of this server's own API (what the authorization hook matches); empty
   * for a super admin, whom the hook does not match against patterns
   */
  calls: readonly UrlPattern[]
}

/**
 * Whether the user may make the call the route describes: the authorization hook's rule (DESIGN.md §6),
 * on the same matcher, so that the console shows an action exactly when the server would run it. A
 * public or session-only route needs no pattern. `path` names the concrete address of a route with
 * parameters (`/authz/forward/:service`); by default the described path is matched.
 */
export function canCall(
  route: Pick<RouteSpec, 'method' | 'path' | 'access'>,
  access: CallAccess | null | undefined,
  path: string = route.path,
): boolean {
  if (route.access === 'public') return true
  if (!access) return false
  if (route.access === 'session' || access.superAdmin) return true
  const methods = typeof route.method === 'string' ? [route.method] : route.method
  return methods.some((method) => access.calls.some((p) => matchesUrlPattern(p, method, path)))
}
