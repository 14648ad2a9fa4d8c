import { randomBytes } from 'node:crypto'
import { count, desc, eq, sql } from 'drizzle-orm'
import {
  TEST_EVENT_TYPE,
  unknownEventType,
  WEBHOOK_MSG,
  type PageResult,
  type WebhookInsertBody,
  type WebhookListBody,
  type WebhookRow,
  type WebhookSecret,
  type WebhookUpdateBody,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import { webhookDeliveries, webhookEndpoints } from '../../db/schema'
import { badRequest, notFound } from '../../lib/errors'
import { keywordIn } from '../../lib/like'
import { paging, pagedList } from '../../lib/paged'
import { checkTarget, parseWebhookUrl, PrivateTargetError } from './target'

/** Webhook endpoints (DESIGN.md §17): listed, made, changed, deleted, their secret rotated, pinged. */

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
  const where = keywordIn(body.keyword, webhookEndpoints.name, webhookEndpoints.url)
  return pagedList(
    paging(body),
    (limit, offset) =>
      db
        .select(rowColumns)
        .from(webhookEndpoints)
        .where(where)
        .orderBy(desc(webhookEndpoints.id))
        .limit(limit)
        .offset(offset),
    () => db.select({ total: count() }).from(webhookEndpoints).where(where),
  )
}

/** `ownerId`: the maker, whose reach decides what the endpoint hears (events/readable.ts). */
export async function insertWebhook(
  db: Db,
  body: WebhookInsertBody,
  allowPrivate: boolean,
  ownerId: number,
): Promise<WebhookSecret> {
  const target = await checkedTarget(body, allowPrivate)
  const secret = newSecret()
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      name: body.name.trim(),
      ...target,
      enabled: body.enabled ?? true,
      secret,
      ownerUserId: ownerId,
    })
    .returning({ id: webhookEndpoints.id })
  return { id: row.id, secret }
}

/**
 * Enabling an endpoint again clears what disabled it: it starts with a clean bill of health. The
 * updater becomes its owner: they chose where it delivers now, so it hears what they may read (a
 * scoped administrator cannot point a company-wide endpoint at a receiver of their own).
 */
export async function updateWebhook(
  db: Db,
  body: WebhookUpdateBody,
  allowPrivate: boolean,
  ownerId: number,
): Promise<void> {
  const target = await checkedTarget(body, allowPrivate)
  const updated = await db
    .update(webhookEndpoints)
    .set({
      name: body.name.trim(),
      ...target,
      enabled: body.enabled,
      ...(body.enabled ? { disabledReason: null, failingSince: null } : {}),
      ownerUserId: ownerId,
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

/** 404 unless the endpoint exists. */
export async function requireEndpoint(db: Db, id: number): Promise<void> {
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
  if (!endpoint) throw notFound(WEBHOOK_MSG.notFound)
}

/** A test ping for one endpoint: a delivery of its own, no event, sent by the worker like any other. */
export async function testWebhook(db: Db, id: number): Promise<void> {
  await requireEndpoint(db, id)
  await db.insert(webhookDeliveries).values({
    endpointId: id,
    eventType: TEST_EVENT_TYPE,
    payload: { endpointId: id },
    webhookId: `msg_test_${randomBytes(12).toString('hex')}`,
    nextAttemptAt: new Date(),
  })
}
