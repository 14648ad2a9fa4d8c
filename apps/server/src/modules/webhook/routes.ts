import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, routes, WEBHOOK_MSG, webhookApi } from '@amg/contract'
import { done, ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { callerOf, callerOfCall } from '../../auth/user-scope'
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
} from './index'

/** Events are kept this long for pulling consumers (DESIGN.md §17). */
export const EVENT_RETENTION_DAYS = 30

/**
 * Change events for other systems (DESIGN.md §17): webhook endpoints, their delivery log, the events
 * pulled by consumers; and this instance's delivery worker, which stops with the app.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, config, authz } = app.ctx
  const allowPrivate = config.webhookAllowPrivate

  // the worker reads and records outside any request: the database itself, not the request's transaction
  const worker = new WebhookWorker(
    database.db,
    {
      intervalMs: config.webhookWorkerIntervalMs,
      allowPrivate,
      retryScale: config.webhookRetryScale,
      leaseSeconds: config.webhookLeaseSeconds,
      // the owner reads as a caller of the events list would (the permission that pulls events)
      readerOf: (ownerId) => callerOfCall(authz, ownerId, 'GET', routes.webhook.events.path),
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

  // the setting goes with the list: the form's help says whether a private target is refused
  route(app, webhookApi.list, async (req) =>
    ok({ ...(await listWebhooks(db, req.body ?? {})), allowPrivate }),
  )

  route(app, webhookApi.insert, async (req) =>
    ok(await insertWebhook(db, req.body, allowPrivate, currentUser(req).id), MSG.created),
  )

  route(app, webhookApi.update, async (req) =>
    done(updateWebhook(db, req.body, allowPrivate, currentUser(req).id), MSG.updated),
  )

  route(app, webhookApi.delete, async (req) => done(deleteWebhook(db, req.query.id), MSG.deleted))

  route(app, webhookApi.rotateSecret, async (req) =>
    ok(await rotateSecret(db, req.query.id), WEBHOOK_MSG.rotated),
  )

  route(app, webhookApi.test, async (req) => done(testWebhook(db, req.query.id)), pokeAfterCommit)

  route(app, webhookApi.deliveries, async (req) => ok(await listDeliveries(db, req.body, config.timeZone)))

  route(app, webhookApi.redeliver, async (req) => done(redeliver(db, req.query.deliveryId)), pokeAfterCommit)

  route(app, webhookApi.events, async (req) =>
    ok(await listEvents(db, req.query ?? {}, await callerOf(authz, req))),
  )
}
