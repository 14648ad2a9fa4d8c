import { sql } from 'drizzle-orm'
import {
  ALL_EVENTS,
  EVENTS_DEFAULT_LIMIT,
  unknownEventType,
  WEBHOOK_MSG,
  type ChangeEvent,
  type EventsQuery,
} from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import { textArray } from '../../db/sql-arrays'
import { badRequest } from '../../lib/errors'
import { readableEvents } from '../../events/readable'
import type { Caller } from '../../auth/user-scope'

/** The pulled change events (DESIGN.md §17) and their sweep. */

/** How many events one pull looks through at most for a scoped reader before it answers (with `next` past them). */
const EVENTS_SCANNED_PER_PULL = 10_000

/**
 * The events after `after`, oldest first, that the caller may see (events/readable.ts: a scoped
 * reader sees only events within their reach). Only events whose writing transactions have all ended
 * are shown: ids are taken when a transaction writes, not when it commits, so without this a consumer
 * could move past an id whose event commits a moment later and never see it. `next` moves past the
 * events left out too, so a consumer never reads them again.
 */
export async function listEvents(
  db: Db,
  query: EventsQuery,
  reader: Caller,
): Promise<{ list: ChangeEvent[]; next: number }> {
  const after = query.after ?? 0
  const limit = query.limit ?? EVENTS_DEFAULT_LIMIT
  const types = (query.types ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
  const unknown = unknownEventType(types)
  if (unknown !== undefined) throw badRequest(WEBHOOK_MSG.eventTypeUnknown(unknown.slice(0, 64)))
  // `*` names every type, as no filter does
  if (types.includes(ALL_EVENTS)) types.length = 0
  const list: ChangeEvent[] = []
  let next = after
  for (let scanned = 0; list.length < limit && scanned < EVENTS_SCANNED_PER_PULL;) {
    const rows = await queryRows<{
      id: number | string
      type: string
      payload: Record<string, unknown>
      created_at: Date | string
    }>(
      db,
      sql`select id, type, payload, created_at from events
           where id > ${next}
             and tx < pg_snapshot_xmin(pg_current_snapshot())
             ${types.length ? sql`and type = any(${textArray(types)})` : sql``}
           order by id
           limit ${limit}`,
    )
    if (!rows.length) break
    const batch = rows.map((r) => ({
      id: Number(r.id),
      type: r.type,
      payload: r.payload,
      createdAt: new Date(r.created_at),
    }))
    scanned += batch.length
    next = batch[batch.length - 1].id
    for (const event of await readableEvents(db, reader, batch)) {
      // a full page ends at its last event: the rest of the batch is read again next time
      if (list.length === limit) {
        next = list[list.length - 1].id
        break
      }
      list.push(event)
    }
    if (rows.length < limit) break
  }
  return { list, next }
}

/** Events (and with them their deliveries) older than `days` go; so do old test pings. */
export async function sweepEvents(db: Db, days: number): Promise<void> {
  await db.execute(sql`delete from events where created_at < now() - make_interval(days => ${days})`)
  await db.execute(
    sql`delete from webhook_deliveries where event_id is null and create_time < now() - make_interval(days => ${days})`,
  )
}
