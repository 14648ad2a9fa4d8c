import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, userGroupApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { writeRoute } from '../../lib/write-route'
import { currentUser } from '../../lib/context'
import { VersionedCache } from '../../cache/versioned-cache'
import { callerOf } from '../../auth/user-scope'
import { groupDetail, listGroups } from './group-read'
import { groupNameList } from './group-candidates'
import { deleteGroup, insertGroup, setGroupEnabled, updateGroup } from './group-write'
import { changeGroupLinks, groupRoles, groupUsers, type GroupLinkBody } from './group-links'

type Request = Parameters<typeof callerOf>[1]

export const userGroupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, links, authz } = app.ctx
  const caller = (req: Request) => callerOf(authz, req)
  // what the list reads once and keeps (totals, the ids of a filter's matches) until a group changes
  const listCache = new VersionedCache(app.ctx, 'lists')

  route(app, userGroupApi.list, async (req) => ok(await listGroups(db, listCache, req.body)))

  writeRoute(app, userGroupApi.enable, (req) =>
    setGroupEnabled(db, power, req.query.userGroupsId, req.query.enable, currentUser(req).id),
  )

  route(app, userGroupApi.insert, async (req) =>
    ok(await insertGroup(db, power, req.body, await caller(req)), MSG.created),
  )

  route(app, userGroupApi.detail, async (req) =>
    ok(await groupDetail(db, req.query.userGroupsId, await caller(req))),
  )

  writeRoute(
    app,
    userGroupApi.update,
    (req) => updateGroup(db, power, req.body, currentUser(req).id),
    MSG.updated,
  )

  writeRoute(
    app,
    userGroupApi.delete,
    async (req) => deleteGroup(db, power, req.query.userGroupsId, await caller(req)),
    MSG.deleted,
  )

  route(app, userGroupApi.userList, async (req) => ok(await groupUsers(db, req.query, await caller(req))))

  route(app, userGroupApi.roleList, async (req) => ok(await groupRoles(db, req.query)))

  // -- links: roles and members, in or out (group-links.ts) ---------------------------------------

  const linkChange =
    (change: 'link' | 'unlink', target: 'role' | 'user') => async (req: Request & { body: GroupLinkBody }) =>
      changeGroupLinks(links, await caller(req), change, target, req.body)
  writeRoute(app, userGroupApi.linkRoles, linkChange('link', 'role'))
  writeRoute(app, userGroupApi.unlinkRoles, linkChange('unlink', 'role'))
  writeRoute(app, userGroupApi.linkUsers, linkChange('link', 'user'))
  writeRoute(app, userGroupApi.unlinkUsers, linkChange('unlink', 'user'))

  route(app, userGroupApi.nameList, async (req) =>
    ok(await groupNameList(db, power, currentUser(req).id, req.body)),
  )
}
