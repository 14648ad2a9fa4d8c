import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { DIRECTORY_MSG, directoryApi, MSG } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { badRequest } from '../../lib/errors'
import { currentUser } from '../../lib/context'
import { loggableError } from '../../lib/error-handler'
import { callerOf, callerOfCall } from '../../auth/user-scope'
import { jobOriginOf, type JobOrigin } from '../../audit/operation-log'
import { jobStoreOf } from '../import/shared-store'
import { testConnection } from './ldap-client'
import {
  readLdapData,
  readLdapSettings,
  requireSettingsSound,
  withSavedPassword,
  writeLdapSettings,
} from './settings'
import { DirectorySync } from './run'
import { eq } from 'drizzle-orm'
import { users } from '../../db/schema'

/** Directory sync by LDAP (DESIGN.md §22): settings, connection test, sync runs and their schedule. */
export const directoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, authz, power, changes, box, config } = app.ctx
  const onError = (err: Error) =>
    app.log.error({ err: loggableError(err) }, 'directory sync failed unexpectedly')
  const sync = new DirectorySync(database.db, jobStoreOf(app), power, changes, onError)

  route(app, directoryApi.getLdap, async () => ok(await readLdapData(db)))

  route(app, directoryApi.putLdap, async (req) => {
    requireSettingsSound(req.body)
    await writeLdapSettings(db, box, req.body, currentUser(req).id)
    return ok(null, MSG.updated)
  })

  route(app, directoryApi.testLdap, async (req) => {
    requireSettingsSound(req.body)
    return ok(await testConnection(await withSavedPassword(db, box, req.body)))
  })

  const originOf = (req: FastifyRequest) => jobOriginOf(req, '目录同步')

  route(app, directoryApi.sync, async (req) => {
    // the request's own transaction: on the embedded database it holds the one connection
    const settings = await readLdapSettings(db, box)
    if (!settings) throw badRequest(DIRECTORY_MSG.notConfigured)
    if (!settings.enabled) throw badRequest(DIRECTORY_MSG.notEnabled)
    const dryRun = req.body.dryRun === true
    const { job } = await sync.start(db, {
      settings,
      caller: await callerOf(authz, req),
      origin: originOf(req),
      dryRun,
      trigger: 'manual',
    })
    req.auditNote = { summary: dryRun ? '目录同步（仅预览）' : '目录同步', msg: `LDAP ${settings.url}` }
    return ok({ jobId: job.id })
  })

  route(app, directoryApi.runs, async () => ok(await sync.runs()))

  /**
   * The schedule: every instance looks each minute (DIRECTORY_SYNC_CHECK_SECONDS); a run is due when no real run started within
   * syncMinutes, and the job store's one-job-at-a-time rule (a unique index on PostgreSQL) lets only
   * one instance start it. It acts as the administrator who saved the settings, with their power.
   */
  const tick = async () => {
    const settings = await readLdapSettings(database.db, box)
    if (!settings?.enabled || settings.syncMinutes <= 0 || settings.updateUserId === null) return
    if (!(await sync.due(settings.syncMinutes))) return
    const { method, path } = directoryApi.sync.route
    const caller = await callerOfCall(authz, settings.updateUserId, [method].flat()[0], path)
    // the runs list and the log rows name the administrator the run acts as
    const [operator] = await database.db
      .select({ nickName: users.nickName })
      .from(users)
      .where(eq(users.id, settings.updateUserId))
    const origin: JobOrigin = {
      operatorId: settings.updateUserId,
      operatorName: operator?.nickName ?? null,
      ip: null,
      userAgent: 'schedule',
      method: 'POST',
      path: `/api${path}`,
      resourceType: '目录同步',
    }
    await sync
      .start(
        database.db,
        { settings, caller, origin, dryRun: false, trigger: 'schedule' },
        settings.syncMinutes,
      )
      .catch(() => {
        // another job runs (here or on another instance): the next look starts it
      })
  }
  if (config.directorySyncCheckSeconds > 0) {
    const timer = setInterval(() => void tick().catch(onError), config.directorySyncCheckSeconds * 1000)
    timer.unref()
    app.addHook('onClose', async () => clearInterval(timer))
  }
}
