import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, serviceApi } from '@amg/contract'
import { done, ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { deleteService, insertService, listServices, updateService } from './service'
import { oidcDetail, rotateOidcSecret, saveOidcClient, turnOidcOff } from './oidc'
import { callerOf } from '../../auth/user-scope'
import { KEYS_CHANGED } from '../oidc/host'
import { sql } from 'drizzle-orm'

/** DESIGN.md §10a: the services behind gateways, each with its own permission namespace. */
export const serviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, box, oidc, config, authz } = app.ctx
  const caller = (req: Parameters<typeof callerOf>[1]) => callerOf(authz, req)

  route(app, serviceApi.list, async (req) => ok(await listServices(db, req.body ?? {})))

  route(app, serviceApi.insert, async (req) =>
    ok(await insertService(db, power, req.body, currentUser(req).id), MSG.created),
  )

  route(app, serviceApi.update, async (req) =>
    done(updateService(db, req.body, currentUser(req).id), MSG.updated),
  )

  route(app, serviceApi.delete, async (req) =>
    done(deleteService(db, power, req.query.id, currentUser(req).id), MSG.deleted),
  )

  // DESIGN.md §16: single sign-on settings of a service (an application)
  route(app, serviceApi.oidcDetail, async (req) =>
    ok(await oidcDetail(db, req.query.serviceId, config.publicUrl)),
  )

  route(app, serviceApi.oidcSave, async (req) =>
    ok(await saveOidcClient(db, box, power, await caller(req), req.body), MSG.updated),
  )

  route(app, serviceApi.oidcRotateSecret, async (req) =>
    ok(await rotateOidcSecret(db, box, power, await caller(req), req.body.serviceId), MSG.updated),
  )

  route(app, serviceApi.oidcOff, async (req) => done(turnOidcOff(db, req.query.serviceId), MSG.updated))

  route(app, serviceApi.oidcRotateKeys, async () => {
    const kid = await oidc.rotateKeys(async () => {
      await db.execute(sql`select pg_notify('amg_events', ${KEYS_CHANGED})`)
    })
    return ok({ kid }, MSG.updated)
  })
}
