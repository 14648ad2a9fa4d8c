/**
 * The change events other systems hear about (DESIGN.md §17): what the outbox writes, what a webhook
 * endpoint subscribes to and what `GET /api/events?types=` filters by. One list, read by the server
 * (which events a change makes, which types an endpoint may name) and by the console (the picker).
 */
export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'role.created',
  'role.updated',
  'role.deleted',
  'group.created',
  'group.updated',
  'group.deleted',
  'org.created',
  'org.updated',
  'org.deleted',
  'position.created',
  'position.updated',
  'position.deleted',
  'permission.changed',
  'link.linked',
  'link.unlinked',
  'session.revoked',
  'user.access.changed',
  // DESIGN.md §20: a time-bound link the sweeper removed
  'grant.expired',
  'access.requested',
  'access.approved',
  'access.rejected',
  'access.expired',
] as const

export type EventType = (typeof EVENT_TYPES)[number]

/** An endpoint subscribed to this hears every event. */
export const ALL_EVENTS = '*'

/** The ping `POST /api/webhook/test` sends: never written to the outbox, never pulled. */
export const TEST_EVENT_TYPE = 'webhook.test'

const KNOWN = new Set<string>([...EVENT_TYPES, ALL_EVENTS])

/** The first name in `types` that is no event type (nor `*`), if any. */
export const unknownEventType = (types: readonly string[]): string | undefined =>
  types.find((t) => !KNOWN.has(t))
