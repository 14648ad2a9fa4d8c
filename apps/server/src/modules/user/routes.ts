import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, userApi, type UserInsertBody, type UserUpdateBody } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { VersionedCache } from '../../cache/versioned-cache'
import {
  deleteUser,
  getUser,
  insertUser,
  linkGroups,
  linkPositions,
  linkRoles,
  listUserGroups,
  listUserPositions,
  listUserRoles,
  listUserCandidates,
  listUsers,
  unlinkGroup,
  unlinkPosition,
  unlinkRole,
  prepareNewUser,
  prepareUserUpdate,
  updateUser,
} from './service'
import { beforeTransaction } from '../../lib/before-transaction'
import { callerOf } from '../../auth/user-scope'

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, power, links, authz } = app.ctx
  // what the list reads once and keeps (totals, the ids of a filter's matches) until a user changes
  const listCache = new VersionedCache(app.ctx, 'lists')
  // the caller with the data scope of the call being made (DESIGN.md §13)
  const caller = (req: Parameters<typeof callerOf>[1]) => callerOf(authz, req)
  // password hashing runs before the write's transaction opens (lib/before-transaction.ts)
  const newUser = beforeTransaction((req) =>
    prepareNewUser(db, config.initialUserPassword, req.body as UserInsertBody),
  )
  const userUpdate = beforeTransaction((req) =>
    prepareUserUpdate(db, req.body as UserUpdateBody, currentUser(req).id),
  )

  route(app, userApi.list, async (req) => ok(await listUsers(db, listCache, req.body, await caller(req))))

  route(app, userApi.nameList, async (req) =>
    ok(await listUserCandidates(db, req.body ?? {}, await caller(req))),
  )

  route(
    app,
    userApi.insert,
    async (req) =>
      ok(await insertUser(db, power, newUser.resultFor(req), await caller(req), req.body), MSG.created),
    { preHandler: newUser.preHandler },
  )

  route(app, userApi.detail, async (req) => ok(await getUser(db, req.query.userId, await caller(req))))

  route(
    app,
    userApi.update,
    async (req) => {
      await updateUser(db, power, await caller(req), req.body, userUpdate.resultFor(req))
      return ok(null, MSG.updated)
    },
    { preHandler: userUpdate.preHandler },
  )

  route(app, userApi.delete, async (req) => {
    await deleteUser(db, power, await caller(req), req.query.userId)
    return ok(null, MSG.deleted)
  })

  // -- links -----------------------------------------------------------------------------------

  route(app, userApi.linkRoles, async (req) => {
    await linkRoles(links, await caller(req), req.body.id, req.body.roleIds)
    return ok(null)
  })

  route(app, userApi.unlinkRole, async (req) => {
    await unlinkRole(links, await caller(req), req.body.userId, req.body.roleId)
    return ok(null)
  })

  route(app, userApi.linkGroups, async (req) => {
    await linkGroups(links, await caller(req), req.body.id, req.body.greoupIds ?? req.body.groupIds)
    return ok(null)
  })

  route(app, userApi.unlinkGroup, async (req) => {
    await unlinkGroup(links, await caller(req), req.body.userId, req.body.groupId)
    return ok(null)
  })

  route(app, userApi.linkPositions, async (req) => {
    await linkPositions(links, await caller(req), req.body.id, req.body.positionIds)
    return ok(null)
  })

  route(app, userApi.unlinkPosition, async (req) => {
    await unlinkPosition(links, await caller(req), req.body.userId, req.body.positionId)
    return ok(null)
  })

  // -- tab lists (reads, though POST: they change nothing) --------------------------------------

  route(app, userApi.roleList, async (req) => ok(await listUserRoles(db, req.query, await caller(req))))

  route(app, userApi.groupList, async (req) => ok(await listUserGroups(db, req.query, await caller(req))))

  route(app, userApi.positionList, async (req) =>
    ok(await listUserPositions(db, req.query, await caller(req))),
  )
}
