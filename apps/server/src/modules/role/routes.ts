import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { MSG, roleApi } from '@amg/contract'
import { keptAnswers, ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { writeRoute } from '../../lib/write-route'
import { VersionedCache } from '../../cache/versioned-cache'
import { currentUser } from '../../lib/context'
import { callerOf } from '../../auth/user-scope'
import { listRoles, roleDetail } from './role-read'
import { roleNameList } from './role-candidates'
import {
  deleteAdminRole,
  deleteRole,
  insertAdminRole,
  insertRole,
  updateAdminRole,
  updateRole,
} from './role-kinds'

/** Roles of SPEC.md §7: ordinary roles (type 3) under /role, built-in and super-admin roles under /role/admin. */
export const roleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, authz } = app.ctx
  const listCache = new VersionedCache(app.ctx, 'lists')
  const by = (req: FastifyRequest) => currentUser(req).id
  const caller = (req: FastifyRequest) => callerOf(authz, req)

  route(app, roleApi.nameList, async (req) => ok(await roleNameList(db, power, by(req), req.body ?? {})))

  // a page is kept until a role changes (role-read.ts), and so is its serialized answer
  const sendPage = keptAnswers()
  route(app, roleApi.list, async (req, reply) =>
    sendPage(reply, await listRoles(db, listCache, req.body ?? {})),
  )

  route(app, roleApi.detail, async (req) => ok(await roleDetail(db, req.query.id)))

  // -- the two screens' writes: the same three, each on its own kinds of role (role-kinds.ts) ----
  // both deletions take a role id and the caller with the scope of the call (DESIGN.md §13)
  const deletion = (api: typeof roleApi.delete, remove: typeof deleteRole) =>
    writeRoute(app, api, async (req) => remove(db, power, req.query.id, await caller(req)), MSG.deleted)

  route(app, roleApi.insert, async (req) => ok(await insertRole(db, power, req.body, by(req)), MSG.created))
  writeRoute(app, roleApi.update, (req) => updateRole(db, power, req.body, by(req)), MSG.updated)
  deletion(roleApi.delete, deleteRole)

  route(app, roleApi.adminInsert, async (req) =>
    ok(await insertAdminRole(db, power, req.body, by(req)), MSG.created),
  )
  writeRoute(app, roleApi.adminUpdate, (req) => updateAdminRole(db, power, req.body, by(req)), MSG.updated)
  deletion(roleApi.adminDelete, deleteAdminRole)
}
