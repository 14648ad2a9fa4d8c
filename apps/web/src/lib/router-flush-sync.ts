import { flushSync } from 'react-dom'

/**
 * ReactDOM's flushSync in the shape the router's provider takes (`<RouterProvider flushSync>`): with
 * it, a navigation made with `{ flushSync: true }` (the list state in the URL) renders at once
 * instead of in a transition.
 */
export function routerFlushSync(update: () => unknown): undefined {
  flushSync(update)
  return undefined
}
