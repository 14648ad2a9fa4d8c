import { routes } from '@amg/contract'

/** A call of this server's own API (service ams), as the tester and who-can ask it. */
export interface KnownCall {
  method: string
  path: string
  summary: string
}

/**
 * Every call of this server's API, from the contract's route descriptions (the same the back-end
 * catalogue is made from): the tester offers them, so a call is asked with the method it really has.
 */
export const KNOWN_CALLS: readonly KnownCall[] = Object.values(routes)
  .flatMap((resource) => Object.values(resource))
  .map((r) => ({ method: r.method as string, path: r.path as string, summary: r.summary as string }))

/** The known calls whose path, method or summary contains `text` (case-insensitive), at most `limit`. */
export function matchingCalls(text: string, limit = 50): KnownCall[] {
  const wanted = text.trim().toLowerCase()
  const hits = wanted
    ? KNOWN_CALLS.filter((c) => `${c.method} ${c.path} ${c.summary}`.toLowerCase().includes(wanted))
    : KNOWN_CALLS
  return hits.slice(0, limit)
}
