import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, positionApi } from '@amg/contract'
import { done, ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { VersionedCache } from '../../cache/versioned-cache'
import {
  batchInsert,
  deletePositions,
  linkRoles,
  linkUsers,
  listForOrg,
  listPositions,
  positionNameList,
  positionRoleList,
  positionUserList,
  setPositionEnabled,
  unlinkRoles,
  unlinkUsers,
  type PositionCaches,
} from './index'
import { callerOf } from '../../auth/user-scope'

export const positionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, links, authz } = app.ctx
  const caller = (req: Parameters<typeof callerOf>[1]) => callerOf(authz, req)
  // the department tree and the position counts the lists are paged by, kept until they change
  const caches: PositionCaches = {
    org: new VersionedCache(app.ctx, 'org'),
    lists: new VersionedCache(app.ctx, 'lists'),
  }

  route(app, positionApi.list, async (req) =>
    ok(await listPositions(db, caches, req.body, await caller(req))),
  )

  route(app, positionApi.listForOrg, async (req) => ok(await listForOrg(db, req.body, await caller(req))))

  route(app, positionApi.delete, async (req) =>
    done(deletePositions(db, power, req.query.positionIds, await caller(req)), MSG.deleted),
  )

  route(app, positionApi.batchInsert, async (req) => ok(await batchInsert(db, req.body, await caller(req))))

  route(app, positionApi.enable, async (req) =>
    done(setPositionEnabled(db, power, req.query.positionId, req.query.enable, await caller(req))),
  )

  route(app, positionApi.linkRoles, async (req) => done(linkRoles(links, req.body, await caller(req))))

  route(app, positionApi.unlinkRoles, async (req) => done(unlinkRoles(links, req.body, await caller(req))))

  route(app, positionApi.linkUsers, async (req) => done(linkUsers(links, req.body, await caller(req))))

  route(app, positionApi.unlinkUsers, async (req) => done(unlinkUsers(links, req.body, await caller(req))))

  route(app, positionApi.roleList, async (req) =>
    ok(await positionRoleList(db, req.query, await caller(req))),
  )

  route(app, positionApi.userList, async (req) =>
    ok(await positionUserList(db, req.query, await caller(req))),
  )

  route(app, positionApi.nameList, async (req) =>
    ok(await positionNameList(db, caches, power, await caller(req), req.body)),
  )
}
