import type { RouteOptions } from 'fastify'
import { mayWrite, type RouteKindConfig } from './route-kind'

type OnSendHook = Extract<NonNullable<RouteOptions['onSend']>, (...args: never[]) => unknown>

/** The methods a route answers. */
export const routeMethods = (route: RouteOptions): string[] =>
  Array.isArray(route.method) ? route.method : [route.method]

/** Whether any method of the route may write (lib/route-kind.ts). */
export const routeMayWrite = (route: RouteOptions): boolean =>
  routeMethods(route).some((method) => mayWrite(method, route.config as RouteKindConfig | undefined))

/**
 * Adds an onSend hook to one route (from an onRoute hook). What only writes need is attached to the
 * routes that may write: an onSend hook on every route is paid by every read, and a read with no
 * onSend hook at all skips that stage of Fastify's reply. The hook goes before those the route has
 * already: compression, which its plugin adds first, turns the answer into bytes and must come last.
 */
export function addOnSend(route: RouteOptions, hook: OnSendHook) {
  const existing = route.onSend
  route.onSend =
    existing === undefined ? [hook] : Array.isArray(existing) ? [hook, ...existing] : [hook, existing]
}
