import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { MSG, routes, userApi, type UserInsertBody, type UserUpdateBody } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { writeRoute } from '../../lib/write-route'
import { currentUser } from '../../lib/context'
import { VersionedCache } from '../../cache/versioned-cache'
import { beforeTransaction } from '../../lib/before-transaction'
import { callerOf, callerOfCall } from '../../auth/user-scope'
import { writableUsers } from '../../auth/writable-users'
import { listUsers } from './user-list'
import { listUserCandidates } from './user-candidates'
import { getUser } from './user-read'
import { prepareNewUser, prepareUserUpdate } from './user-password'
import { deleteUser, insertUser, updateUser } from './user-write'
import {
  linkUserTo,
  unlinkUserFrom,
  type UserLinkBody,
  type UserLinkTarget,
  type UserUnlinkBody,
} from './user-links'
import { listUserGroups, listUserPositions, listUserRoles } from './user-link-lists'

type Request = Parameters<typeof callerOf>[1]

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, power, links, authz } = app.ctx
  // what the list reads once and keeps (totals, the ids of a filter's matches) until a user changes
  const listCache = new VersionedCache(app.ctx, 'lists')
  // the caller with the data scope of the call being made (DESIGN.md §13)
  const caller = (req: Request) => callerOf(authz, req)
  // password hashing runs before the write's transaction opens (lib/before-transaction.ts)
  const newUser = beforeTransaction((req) =>
    prepareNewUser(db, config.initialUserPassword, req.body as UserInsertBody),
  )
  const userUpdate = beforeTransaction((req) =>
    prepareUserUpdate(db, req.body as UserUpdateBody, currentUser(req).id),
  )

  // whether the caller may change each user, judged with the scope of 修改 and the same rules the
  // writes enforce, so the console offers 修改, 删除 and 重置密码 only where they succeed
  const writableOf = async (req: FastifyRequest, userIds: number[]) =>
    writableUsers(
      db,
      power,
      await callerOfCall(authz, currentUser(req).id, 'PUT', routes.user.update.path),
      userIds,
    )

  route(app, userApi.list, async (req) => {
    const page = await listUsers(db, listCache, req.body, await caller(req))
    const writable = await writableOf(
      req,
      page.list.map((row) => row.id),
    )
    return ok({ ...page, list: page.list.map((row) => ({ ...row, writable: writable.has(row.id) })) })
  })

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

  route(app, userApi.detail, async (req) => {
    const user = await getUser(db, req.query.userId, await caller(req))
    return ok({ ...user, writable: (await writableOf(req, [user.id])).has(user.id) })
  })

  writeRoute(
    app,
    userApi.update,
    async (req) => updateUser(db, power, await caller(req), req.body, userUpdate.resultFor(req)),
    MSG.updated,
    { preHandler: userUpdate.preHandler },
  )

  writeRoute(
    app,
    userApi.delete,
    async (req) => deleteUser(db, power, await caller(req), req.query.userId),
    MSG.deleted,
  )

  // -- links: to roles, groups and positions, and one of them away (user-links.ts) ------------

  const linking = (target: UserLinkTarget) => async (req: Request & { body: UserLinkBody }) =>
    linkUserTo(links, await caller(req), target, req.body)
  const unlinking = (target: UserLinkTarget) => async (req: Request & { body: UserUnlinkBody }) =>
    unlinkUserFrom(links, await caller(req), target, req.body)
  writeRoute(app, userApi.linkRoles, linking('role'))
  writeRoute(app, userApi.linkGroups, linking('group'))
  writeRoute(app, userApi.linkPositions, linking('position'))
  writeRoute(app, userApi.unlinkRole, unlinking('role'))
  writeRoute(app, userApi.unlinkGroup, unlinking('group'))
  writeRoute(app, userApi.unlinkPosition, unlinking('position'))

  // -- tab lists (reads, though POST: they change nothing) --------------------------------------

  route(app, userApi.roleList, async (req) => ok(await listUserRoles(db, req.query, await caller(req))))

  route(app, userApi.groupList, async (req) => ok(await listUserGroups(db, req.query, await caller(req))))

  route(app, userApi.positionList, async (req) =>
    ok(await listUserPositions(db, req.query, await caller(req))),
  )
}
