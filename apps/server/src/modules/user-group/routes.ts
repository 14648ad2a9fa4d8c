import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, userGroupApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { VersionedCache } from '../../cache/versioned-cache'
import {
  deleteGroup,
  groupDetail,
  groupNameList,
  groupRoles,
  groupUsers,
  insertGroup,
  linkRoles,
  linkUsers,
  listGroups,
  setGroupEnabled,
  unlinkRoles,
  unlinkUsers,
  updateGroup,
} from './service'
import { callerOf } from '../../auth/user-scope'

export const userGroupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, links, authz } = app.ctx
  const caller = (req: Parameters<typeof callerOf>[1]) => callerOf(authz, req)
  // what the list reads once and keeps (totals, the ids of a filter's matches) until a group changes
  const listCache = new VersionedCache(app.ctx, 'lists')

  route(app, userGroupApi.list, async (req) => ok(await listGroups(db, listCache, req.body)))

  route(app, userGroupApi.enable, async (req) => {
    await setGroupEnabled(db, power, req.query.userGroupsId, req.query.enable, currentUser(req).id)
    return ok(null)
  })

  route(app, userGroupApi.insert, async (req) =>
    ok(await insertGroup(db, power, req.body, await caller(req)), MSG.created),
  )

  route(app, userGroupApi.detail, async (req) =>
    ok(await groupDetail(db, req.query.userGroupsId, await caller(req))),
  )

  route(app, userGroupApi.update, async (req) => {
    await updateGroup(db, power, req.body, currentUser(req).id)
    return ok(null, MSG.updated)
  })

  route(app, userGroupApi.delete, async (req) => {
    await deleteGroup(db, power, req.query.userGroupsId, await caller(req))
    return ok(null, MSG.deleted)
  })

  route(app, userGroupApi.userList, async (req) => ok(await groupUsers(db, req.query, await caller(req))))

  route(app, userGroupApi.roleList, async (req) => ok(await groupRoles(db, req.query)))

  route(app, userGroupApi.linkRoles, async (req) => {
    await linkRoles(links, req.body, await caller(req))
    return ok(null)
  })

  route(app, userGroupApi.unlinkRoles, async (req) => {
    await unlinkRoles(links, req.body, await caller(req))
    return ok(null)
  })

  route(app, userGroupApi.linkUsers, async (req) => {
    await linkUsers(links, req.body, await caller(req))
    return ok(null)
  })

  route(app, userGroupApi.unlinkUsers, async (req) => {
    await unlinkUsers(links, req.body, await caller(req))
    return ok(null)
  })

  route(app, userGroupApi.nameList, async (req) =>
    ok(await groupNameList(db, power, currentUser(req).id, req.body)),
  )
}
