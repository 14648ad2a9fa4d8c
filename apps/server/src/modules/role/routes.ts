import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, roleApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { VersionedCache } from '../../cache/versioned-cache'
import { currentUser } from '../../lib/context'
import { callerOf } from '../../auth/user-scope'
import {
  deleteAdminRole,
  deleteRole,
  insertAdminRole,
  insertRole,
  listRoles,
  roleDetail,
  roleNameList,
  updateAdminRole,
  updateRole,
} from './service'

/** Roles of SPEC.md §7: ordinary roles (type 3) under /role, built-in and super-admin roles under /role/admin. */
export const roleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, authz } = app.ctx
  const listCache = new VersionedCache(app.ctx, 'lists')

  route(app, roleApi.nameList, async (req) =>
    ok(await roleNameList(db, power, currentUser(req).id, req.body ?? {})),
  )

  route(app, roleApi.list, async (req) => ok(await listRoles(db, listCache, req.body ?? {})))

  route(app, roleApi.detail, async (req) => ok(await roleDetail(db, req.query.id)))

  route(app, roleApi.insert, async (req) =>
    ok(await insertRole(db, power, req.body, currentUser(req).id), MSG.created),
  )

  route(app, roleApi.update, async (req) => {
    await updateRole(db, power, req.body, currentUser(req).id)
    return ok(null, MSG.updated)
  })

  route(app, roleApi.delete, async (req) => {
    await deleteRole(db, power, req.query.id, await callerOf(authz, req))
    return ok(null, MSG.deleted)
  })

  route(app, roleApi.adminInsert, async (req) =>
    ok(await insertAdminRole(db, power, req.body, currentUser(req).id), MSG.created),
  )

  route(app, roleApi.adminUpdate, async (req) => {
    await updateAdminRole(db, power, req.body, currentUser(req).id)
    return ok(null, MSG.updated)
  })

  route(app, roleApi.adminDelete, async (req) => {
    await deleteAdminRole(db, power, req.query.id, await callerOf(authz, req))
    return ok(null, MSG.deleted)
  })
}
