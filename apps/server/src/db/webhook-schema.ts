import { bigint, boolean, index, integer, jsonb, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core'
import { at, belongsTo, id } from './columns'

/** DESIGN.md §17: the outbox of change events, the webhook endpoints and their deliveries (migration 0014). */

/**
 * The outbox: each change's events, written in the change's own transaction beside its operation-log
 * row (events/outbox.ts). Thin payloads: ids, never whole records. Swept after 30 days.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    type: varchar('type', { length: 64 }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('events_type_id_idx').on(t.type, t.id), index('events_created_at_idx').on(t.createdAt)],
)

/**
 * A receiver of events. The secret signs every delivery and is answered once, when made or rotated;
 * the previous one still signs for a day after a rotation, so receivers can switch without a gap.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: id(),
  name: varchar('name', { length: 64 }).notNull(),
  url: varchar('url', { length: 2048 }).notNull(),
  eventTypes: text('event_types').array().notNull(),
  enabled: boolean('enabled').notNull().default(true),
  secret: varchar('secret', { length: 128 }).notNull(),
  previousSecret: varchar('previous_secret', { length: 128 }),
  secretRotatedAt: at('secret_rotated_at'),
  /** the first failed attempt since the last success; three days of it disables the endpoint */
  failingSince: at('failing_since'),
  disabledReason: varchar('disabled_reason', { length: 255 }),
  /**
   * Who last chose where it delivers (made it, or changed it): it delivers only the events this user
   * may read at delivery time (DESIGN.md §13). No foreign key: an owner who is deleted reads nothing,
   * rather than their endpoint falling back to null, which is an endpoint made before owners were kept
   * and delivers every event.
   */
  ownerUserId: integer('owner_user_id'),
  createTime: at('create_time').notNull().defaultNow(),
  updateTime: at('update_time').notNull().defaultNow(),
})

/**
 * One event for one endpoint, however many attempts it takes: `webhook_id` stays the same on every
 * attempt (consumers drop repeats by it). A claimed delivery's `next_attempt_at` is pushed past the
 * attempt's lease, so a worker that dies mid-send leaves it due again (at least once).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    endpointId: belongsTo('endpoint_id', () => webhookEndpoints.id),
    eventId: bigint('event_id', { mode: 'number' }).references(() => events.id, { onDelete: 'cascade' }),
    /** the event's type, or webhook.test for a test ping (which has no event) */
    eventType: varchar('event_type', { length: 64 }).notNull(),
    /** a test ping's payload (an event's is read from the event) */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    webhookId: varchar('webhook_id', { length: 64 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    attempts: smallint('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    lastStatusCode: smallint('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastResponse: varchar('last_response', { length: 1024 }),
    lastAttemptAt: at('last_attempt_at'),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
)

/** Every attempt of a delivery (the delivery row keeps the last one's outcome). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: smallint('attempt').notNull(),
    time: at('time').notNull().defaultNow(),
    statusCode: smallint('status_code'),
    durationMs: integer('duration_ms').notNull(),
    response: varchar('response', { length: 1024 }),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
)
