import { canCall, type RouteSpec } from '@amg/contract'
import { useSession } from './session-store'

/** A call as the contract describes it (a route of `routes`). */
export type CallDescription = Pick<RouteSpec, 'method' | 'path' | 'access'>

/**
 * Whether the signed-in user may make these calls, all of them (the contract's `canCall`: the
 * server's rule on the server's matcher). Every action button, link, tab and form is shown only when
 * this says yes, so nobody is offered what the server would refuse.
 */
export function useCanCall(...calls: CallDescription[]): boolean {
  return useSession((s) => mayMakeAll(calls, s.user))
}

/** Whether `user` may make every one of `calls` (an action needs all the calls it makes). */
export const mayMakeAll = (calls: readonly CallDescription[], user: Parameters<typeof canCall>[1]) =>
  calls.every((call) => canCall(call, user))
