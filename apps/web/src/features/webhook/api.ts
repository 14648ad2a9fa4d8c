import { routes, type WebhookInsertBody, type WebhookUpdateBody } from '@amg/contract'
import { request } from '../../lib/route-call'

export const WEBHOOK_LIST_KEY = ['webhook', 'list'] as const

/** A page of endpoints, newest first. */
export const listWebhooks = (query: { keyword?: string; pageNum: number; pageSize: number }) =>
  request(routes.webhook.list, { body: query })

/** The new endpoint's id and its secret: the only time the secret is shown. */
export const insertWebhook = (body: WebhookInsertBody) => request(routes.webhook.insert, { body })

export const updateWebhook = (body: WebhookUpdateBody) => request(routes.webhook.update, { body })

export const deleteWebhook = (id: number) => request(routes.webhook.delete, { query: { id } })

/** A new secret, shown once; the old one keeps signing beside it for a day. */
export const rotateWebhookSecret = (id: number) => request(routes.webhook.rotateSecret, { query: { id } })

/** Sends a webhook.test ping through the delivery worker. */
export const testWebhook = (id: number) => request(routes.webhook.test, { query: { id } })

export const listDeliveries = (body: { id: number; pageNum: number; pageSize: number }) =>
  request(routes.webhook.deliveries, { body })

/** 重新投递: the same message, with its webhook-id, sent again. */
export const redeliver = (deliveryId: number) => request(routes.webhook.redeliver, { query: { deliveryId } })
