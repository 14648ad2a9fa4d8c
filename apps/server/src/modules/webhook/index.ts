/**
 * Webhooks and change events (DESIGN.md §17), one question per file: endpoints.ts — the endpoints
 * themselves; deliveries.ts — an endpoint's deliveries; events.ts — the pulled events and their sweep;
 * target.ts — where an endpoint may point; send.ts and worker.ts — sending the deliveries.
 */
export {
  deleteWebhook,
  insertWebhook,
  listWebhooks,
  rotateSecret,
  testWebhook,
  updateWebhook,
} from './endpoints'
export { listDeliveries, redeliver } from './deliveries'
export { listEvents, sweepEvents } from './events'
