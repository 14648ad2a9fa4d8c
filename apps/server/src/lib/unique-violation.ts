import { conflict } from './errors'

const PG_UNIQUE = '23505'

/** The unique index a failed statement ran into (SQLSTATE 23505), whichever driver and wrapper raised it. */
export function violatedUniqueIndex(err: unknown): string | null {
  for (let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined; e;) {
    if (e.code === PG_UNIQUE) return typeof e.constraint === 'string' ? e.constraint : ''
    e = e.cause as typeof e
  }
  return null
}

/**
 * For `.catch` after a write whose service checked "name taken" first: two concurrent requests can
 * both pass that check, and the unique index refuses the second. That one then answers 409 with the
 * resource's own message instead of the generic one; any other error passes through unchanged.
 */
export const rethrowUnique =
  (messages: Record<string, string>) =>
  (err: unknown): never => {
    const index = violatedUniqueIndex(err)
    if (index !== null && Object.prototype.hasOwnProperty.call(messages, index))
      throw conflict(messages[index])
    throw err
  }
