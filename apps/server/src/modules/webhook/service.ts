import { randomBytes } from 'node:crypto'
import { count, desc, eq, sql } from 'drizzle-orm'
import {
  ALL_EVENTS,
  EVENTS_DEFAULT_LIMIT,
  TEST_EVENT_TYPE,
  unknownEventType,
  WEBHOOK_MSG,
  type ChangeEvent,
  type DeliveryListBody,
  type DeliveryRow,
  type EventsQuery,
  type PageResult,
  type WebhookInsertBody,
  type WebhookListBody,
  type WebhookRow,
  type WebhookSecret,
  type WebhookUpdateBody,
} from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import { textArray } from '../../db/sql-arrays'
import { webhookDeliveries, webhookEndpoints } from '../../db/schema'
import { badRequest, notFound } from '../../lib/errors'
import { checkTarget, parseWebhookUrl, PrivateTargetError } from './target'

/** Webhook endpoints, their deliveries and the pulled events (DESIGN.md §17). */

/** A new secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks spells them. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`

/** The address and event types of an endpoint, checked: 400 with the reason, before anything changes. */
async function checkedTarget(
  body: { url: string; eventTypes: string[] },
  allowPrivate: boolean,
): Promise<{ url: string; eventTypes: string[] }> {
  const url = parseWebhookUrl(body.url)
  try {
    await checkTarget(url, allowPrivate)
  } catch (err) {
    if (err instanceof PrivateTargetError) throw badRequest(err.message)
    throw err
  }
  const eventTypes = [...new Set(body.eventTypes.map((t) => t.trim()))]
  const unknown = unknownEventType(eventTypes)
  if (unknown !== undefined) throw badRequest(WEBHOOK_MSG.eventTypeUnknown(unknown.slice(0, 64)))
  return { url: url.href, eventTypes }
}

const rowColumns = {
  id: webhookEndpoints.id,
  name: webhookEndpoints.name,
  url: webhookEndpoints.url,
  eventTypes: webhookEndpoints.eventTypes,
  enabled: webhookEndpoints.enabled,
  failingSince: webhookEndpoints.failingSince,
  disabledReason: webhookEndpoints.disabledReason,
  secretRotatedAt: webhookEndpoints.secretRotatedAt,
  createTime: webhookEndpoints.createTime,
  updateTime: webhookEndpoints.updateTime,
}

export async function listWebhooks(db: Db, body: WebhookListBody): Promise<PageResult<WebhookRow>> {
  const pageNum = body.pageNum ?? 1
  const pageSize = body.pageSize ?? 10
  const [list, [{ total }]] = await Promise.all([
    db
      .select(rowColumns)
      .from(webhookEndpoints)
      .orderBy(desc(webhookEndpoints.id))
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize),
    db.select({ total: count() }).from(webhookEndpoints),
  ])
  return { list, total: Number(total) }
}

export async function insertWebhook(
  db: Db,
  body: WebhookInsertBody,
  allowPrivate: boolean,
): Promise<WebhookSecret> {
  const target = await checkedTarget(body, allowPrivate)
  const secret = newSecret()
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ name: body.name.trim(), ...target, enabled: body.enabled ?? true, secret })
    .returning({ id: webhookEndpoints.id })
  return { id: row.id, secret }
}

/** Enabling an endpoint again clears what disabled it: it starts with a clean bill of health. */
export async function updateWebhook(db: Db, body: WebhookUpdateBody, allowPrivate: boolean): Promise<void> {
  const target = await checkedTarget(body, allowPrivate)
  const updated = await db
    .update(webhookEndpoints)
    .set({
      name: body.name.trim(),
      ...target,
      enabled: body.enabled,
      ...(body.enabled ? { disabledReason: null, failingSince: null } : {}),
      updateTime: new Date(),
    })
    .where(eq(webhookEndpoints.id, body.id))
    .returning({ id: webhookEndpoints.id })
  if (updated.length === 0) throw notFound(WEBHOOK_MSG.notFound)
}

export async function deleteWebhook(db: Db, id: number): Promise<void> {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
    .returning({ id: webhookEndpoints.id })
  if (deleted.length === 0) throw notFound(WEBHOOK_MSG.notFound)
}

/**
 * A new secret, answered once; the one it replaces keeps signing beside it for a day (both signatures
 * in webhook-signature), so a receiver can switch without a delivery it cannot verify.
 */
export async function rotateSecret(db: Db, id: number): Promise<WebhookSecret> {
  const secret = newSecret()
  const rotated = await db
    .update(webhookEndpoints)
    .set({
      previousSecret: sql`${webhookEndpoints.secret}`,
      secret,
      secretRotatedAt: new Date(),
      updateTime: new Date(),
    })
    .where(eq(webhookEndpoints.id, id))
    .returning({ id: webhookEndpoints.id })
  if (rotated.length === 0) throw notFound(WEBHOOK_MSG.notFound)
  return { id, secret }
}

/** A test ping for one endpoint: a delivery of its own, no event, sent by the worker like any other. */
export async function testWebhook(db: Db, id: number): Promise<void> {
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
  if (!endpoint) throw notFound(WEBHOOK_MSG.notFound)
  await db.insert(webhookDeliveries).values({
    endpointId: id,
    eventType: TEST_EVENT_TYPE,
    payload: { endpointId: id },
    webhookId: `msg_test_${randomBytes(12).toString('hex')}`,
    nextAttemptAt: new Date(),
  })
}

export async function listDeliveries(db: Db, body: DeliveryListBody): Promise<PageResult<DeliveryRow>> {
  const pageNum = body.pageNum ?? 1
  const pageSize = body.pageSize ?? 10
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, body.id))
  if (!endpoint) throw notFound(WEBHOOK_MSG.notFound)
  const d = webhookDeliveries
  const [list, [{ total }]] = await Promise.all([
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
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize),
    db.select({ total: count() }).from(d).where(eq(d.endpointId, body.id)),
  ])
  return { list: list as DeliveryRow[], total: Number(total) }
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

/**
 * The events after `after`, oldest first. Only events whose writing transactions have all ended are
 * shown: ids are taken when a transaction writes, not when it commits, so without this a consumer
 * could move past an id whose event commits a moment later and never see it.
 */
export async function listEvents(db: Db, query: EventsQuery): Promise<{ list: ChangeEvent[]; next: number }> {
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
  const rows = await queryRows<{
    id: number | string
    type: string
    payload: Record<string, unknown>
    created_at: Date | string
  }>(
    db,
    sql`select id, type, payload, created_at from events
         where id > ${after}
           and tx < pg_snapshot_xmin(pg_current_snapshot())
           ${types.length ? sql`and type = any(${textArray(types)})` : sql``}
         order by id
         limit ${limit}`,
  )
  const list = rows.map((r) => ({
    id: Number(r.id),
    type: r.type,
    payload: r.payload,
    createdAt: new Date(r.created_at),
  }))
  return { list, next: list.length ? list[list.length - 1].id : after }
}

/** Events (and with them their deliveries) older than `days` go; so do old test pings. */
export async function sweepEvents(db: Db, days: number): Promise<void> {
  await db.execute(sql`delete from events where created_at < now() - make_interval(days => ${days})`)
  await db.execute(
    sql`delete from webhook_deliveries where event_id is null and create_time < now() - make_interval(days => ${days})`,
  )
}
