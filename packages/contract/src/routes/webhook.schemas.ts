import { Envelope, NullData } from '../schemas/common'
import {
  DeliveryIdQuery,
  DeliveryListBody,
  DeliveryPage,
  EventsPage,
  EventsQuery,
  WebhookIdQuery,
  WebhookInsertBody,
  WebhookListBody,
  WebhookPage,
  WebhookSecret,
  WebhookUpdateBody,
} from '../schemas/webhook'
import { bindSchemas } from './route'
import { webhookRoutes } from './webhook'

export const webhookSchemas = {
  list: { body: WebhookListBody, response: { 200: Envelope(WebhookPage) } },
  insert: { body: WebhookInsertBody, response: { 200: Envelope(WebhookSecret) } },
  update: { body: WebhookUpdateBody, response: { 200: NullData } },
  delete: { querystring: WebhookIdQuery, response: { 200: NullData } },
  rotateSecret: { querystring: WebhookIdQuery, response: { 200: Envelope(WebhookSecret) } },
  test: { querystring: WebhookIdQuery, response: { 200: NullData } },
  deliveries: { body: DeliveryListBody, response: { 200: Envelope(DeliveryPage) } },
  redeliver: { querystring: DeliveryIdQuery, response: { 200: NullData } },
  events: { querystring: EventsQuery, response: { 200: Envelope(EventsPage) } },
}

export const webhookApi = bindSchemas(webhookRoutes, webhookSchemas)
