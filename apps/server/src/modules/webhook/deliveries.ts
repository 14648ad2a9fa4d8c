import { count, desc, eq } from 'drizzle-orm'
import {
  WEBHOOK_MSG,
  zonedIso,
  type DeliveryListBody,
  type DeliveryRow,
  type PageResult,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import { webhookDeliveries } from '../../db/schema'
import { notFound } from '../../lib/errors'
import { paging, pagedList } from '../../lib/paged'
import { requireEndpoint } from './endpoints'

/** An endpoint's deliveries (DESIGN.md §17): listed, and one sent again. */

/**
 * An endpoint's deliveries, newest first, their times in the server's zone with its offset (the
 * contract's `zonedIso`), as the logs answer theirs.
 */
export async function listDeliveries(
  db: Db,
  body: DeliveryListBody,
  timeZone: string,
): Promise<PageResult<DeliveryRow>> {
  await requireEndpoint(db, body.id)
  const d = webhookDeliveries
  const { list, total } = await pagedList(
    paging(body),
    (limit, offset) =>
      db
        .select({
          id: d.id,
          webhookId: d.webhookId,
          eventId: d.eventId,
          eventType: d.eventType,
          status: d.status,
          attempts: d.attempts,
          nextAttemptAt: d.nextAttemptAt,
          lastStatusCode: d.lastStatusCode,
          lastDurationMs: d.lastDurationMs,
          lastResponse: d.lastResponse,
          lastAttemptAt: d.lastAttemptAt,
          createTime: d.createTime,
        })
        .from(d)
        .where(eq(d.endpointId, body.id))
        .orderBy(desc(d.id))
        .limit(limit)
        .offset(offset),
    () => db.select({ total: count() }).from(d).where(eq(d.endpointId, body.id)),
  )
  const zoned = (t: Date | null) => (t === null ? null : zonedIso(t, timeZone))
  return {
    list: list.map((d) => ({
      ...d,
      nextAttemptAt: zoned(d.nextAttemptAt),
      lastAttemptAt: zoned(d.lastAttemptAt),
      createTime: zonedIso(d.createTime, timeZone),
    })) as DeliveryRow[],
    total,
  }
}

/** 重新投递: the same message (same webhook-id) again, due at once, with a fresh series of retries. */
export async function redeliver(db: Db, deliveryId: number): Promise<void> {
  const updated = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date() })
    .where(eq(webhookDeliveries.id, deliveryId))
    .returning({ id: webhookDeliveries.id })
  if (updated.length === 0) throw notFound(WEBHOOK_MSG.deliveryNotFound)
}
