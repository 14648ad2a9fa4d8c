/**
 * A 401 ends the session (SPEC.md §4). The listeners live apart from the HTTP client: the shell
 * subscribes from the first download, while the client (axios) loads with the first call.
 */
type UnauthorizedListener = () => void
const unauthorizedListeners = new Set<UnauthorizedListener>()

/** Called on every 401 outside the sign-in call, after the token is cleared (the session store listens). */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener)
  return () => unauthorizedListeners.delete(listener)
}

/** The HTTP layer's report of a 401. */
export function notifyUnauthorized() {
  unauthorizedListeners.forEach((listener) => listener())
}
