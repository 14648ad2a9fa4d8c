import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, WEBHOOK_MSG, webhookApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { WebhookWorker } from './worker'
import {
  deleteWebhook,
  insertWebhook,
  listDeliveries,
  listEvents,
  listWebhooks,
  redeliver,
  rotateSecret,
  sweepEvents,
  testWebhook,
  updateWebhook,
} from './service'

/** Events are kept this long for pulling consumers (DESIGN.md §17). */
export const EVENT_RETENTION_DAYS = 30

/**
 * Change events for other systems (DESIGN.md §17): webhook endpoints, their delivery log, the events
 * pulled by consumers; and this instance's delivery worker, which stops with the app.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, config } = app.ctx
  const allowPrivate = config.webhookAllowPrivate

  // the worker reads and records outside any request: the database itself, not the request's transaction
  const worker = new WebhookWorker(
    database.db,
    {
      intervalMs: config.webhookWorkerIntervalMs,
      allowPrivate,
      retryScale: config.webhookRetryScale,
      leaseSeconds: config.webhookLeaseSeconds,
    },
    app.log,
  )
  const sweep = () =>
    sweepEvents(database.db, EVENT_RETENTION_DAYS).catch((err: Error) =>
      app.log.error({ err: { message: err.message } }, 'event sweep failed'),
    )
  const sweepTimer = setInterval(sweep, 6 * 3_600_000)
  sweepTimer.unref()
  app.addHook('onReady', async () => {
    void sweep()
    worker.start()
  })
  // a write's deliveries are sent as soon as it commits (events/committed.ts)
  app.ctx.deliveriesCommitted.listen(() => worker.poke())
  app.addHook('onClose', async () => {
    clearInterval(sweepTimer)
    await worker.stop()
  })
  // a test or a redelivery is sent at once after its request commits, not at the next round
  const pokeAfterCommit = { onResponse: [async () => worker.poke()] }

  route(app, webhookApi.list, async (req) => ok(await listWebhooks(db, req.body ?? {})))

  route(app, webhookApi.insert, async (req) =>
    ok(await insertWebhook(db, req.body, allowPrivate), MSG.created),
  )

  route(app, webhookApi.update, async (req) => {
    await updateWebhook(db, req.body, allowPrivate)
    return ok(null, MSG.updated)
  })

  route(app, webhookApi.delete, async (req) => {
    await deleteWebhook(db, req.query.id)
    return ok(null, MSG.deleted)
  })

  route(app, webhookApi.rotateSecret, async (req) =>
    ok(await rotateSecret(db, req.query.id), WEBHOOK_MSG.rotated),
  )

  route(
    app,
    webhookApi.test,
    async (req) => {
      await testWebhook(db, req.query.id)
      return ok(null)
    },
    pokeAfterCommit,
  )

  route(app, webhookApi.deliveries, async (req) => ok(await listDeliveries(db, req.body)))

  route(
    app,
    webhookApi.redeliver,
    async (req) => {
      await redeliver(db, req.query.deliveryId)
      return ok(null)
    },
    pokeAfterCommit,
  )

  route(app, webhookApi.events, async (req) => ok(await listEvents(db, req.query ?? {})))
}
