import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  Envelope,
  MSG,
  NullData,
  UserDetail,
  UserGroupListQuery,
  UserGroupPage,
  UserIdQuery,
  UserInsertBody,
  UserListBody,
  UserNameListBody,
  UserPage,
  UserPositionListQuery,
  UserPositionPage,
  UserRelGroupsBody,
  UserRelPositionBody,
  UserRelRoleBody,
  UserRoleListQuery,
  UserRolePage,
  UserSimplePage,
  UserUnRelGroupsBody,
  UserUnRelPositionBody,
  UserUnRelRoleBody,
  UserUpdateBody,
} from '@amg/contract'
import { ok } from '../../lib/reply'
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
  type Operator,
} from './service'
import { beforeTransaction } from '../../lib/before-transaction'

const TAG = '用户管理'

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, power, links } = app.ctx
  // what the list reads once and keeps (totals, the ids of a filter's matches) until a user changes
  const listCache = new VersionedCache(app.ctx, 'lists')
  const operator = (req: Parameters<typeof currentUser>[0] & { token: string | null }): Operator => ({
    id: currentUser(req).id,
    token: req.token,
  })
  // password hashing runs before the write's transaction opens (lib/before-transaction.ts)
  const newUser = beforeTransaction((req) =>
    prepareNewUser(config.initialUserPassword, req.body as UserInsertBody),
  )
  const userUpdate = beforeTransaction((req) =>
    prepareUserUpdate(req.body as UserUpdateBody, currentUser(req).id),
  )

  app.post(
    '/user/list',
    {
      config: { readOnly: true },
      schema: { tags: [TAG], summary: '用户列表', body: UserListBody, response: { 200: Envelope(UserPage) } },
    },
    async (req) => ok(await listUsers(db, listCache, req.body)),
  )

  // A read, though POST (as the other namelist calls): the group and position "link users" pickers.
  app.post(
    '/user/namelist',
    {
      config: { readOnly: true },
      schema: {
        tags: [TAG],
        summary: '可关联的用户列表',
        description: '带 userGroupId 或 positionId 时，不含已在该用户组或已担任该岗位的用户；按 id 排序',
        body: UserNameListBody,
        response: { 200: Envelope(UserSimplePage) },
      },
    },
    async (req) => ok(await listUserCandidates(db, req.body ?? {})),
  )

  app.post(
    '/user/insert',
    {
      schema: {
        tags: [TAG],
        summary: '新建用户',
        description: '不填密码时设置为配置的初始密码（INITIAL_USER_PASSWORD）',
        body: UserInsertBody,
        response: { 200: Envelope(Type.Integer({ description: '新用户的 id' })) },
      },
      preHandler: newUser.preHandler,
    },
    async (req) => ok(await insertUser(db, newUser.resultFor(req), operator(req), req.body), MSG.created),
  )

  app.get(
    '/user/detail',
    {
      schema: {
        tags: [TAG],
        summary: '用户详情',
        querystring: UserIdQuery,
        response: { 200: Envelope(UserDetail) },
      },
    },
    async (req) => ok(await getUser(db, req.query.userId)),
  )

  app.put(
    '/user/update',
    {
      schema: { tags: [TAG], summary: '修改用户', body: UserUpdateBody, response: { 200: NullData } },
      preHandler: userUpdate.preHandler,
    },
    async (req) => {
      await updateUser(db, power, operator(req), req.body, userUpdate.resultFor(req))
      return ok(null, MSG.updated)
    },
  )

  app.delete(
    '/user/delete',
    { schema: { tags: [TAG], summary: '删除用户', querystring: UserIdQuery, response: { 200: NullData } } },
    async (req) => {
      await deleteUser(db, power, operator(req), req.query.userId)
      return ok(null, MSG.deleted)
    },
  )

  // -- links -----------------------------------------------------------------------------------

  app.put(
    '/rel/user-rel-role',
    { schema: { tags: [TAG], summary: '用户关联角色', body: UserRelRoleBody, response: { 200: NullData } } },
    async (req) => {
      await linkRoles(links, operator(req), req.body.id, req.body.roleIds)
      return ok(null)
    },
  )

  app.put(
    '/rel/user-un-rel-role',
    {
      schema: { tags: [TAG], summary: '用户移除角色', body: UserUnRelRoleBody, response: { 200: NullData } },
    },
    async (req) => {
      await unlinkRole(links, operator(req), req.body.userId, req.body.roleId)
      return ok(null)
    },
  )

  app.put(
    '/rel/user-rel-groups',
    {
      schema: {
        tags: [TAG],
        summary: '用户关联用户组',
        description: 'greoupIds（原系统拼写）或 groupIds：以逗号分隔的用户组 id',
        body: UserRelGroupsBody,
        response: { 200: NullData },
      },
    },
    async (req) => {
      await linkGroups(links, operator(req), req.body.id, req.body.greoupIds ?? req.body.groupIds)
      return ok(null)
    },
  )

  app.put(
    '/rel/user-un-rel-groups',
    {
      schema: {
        tags: [TAG],
        summary: '用户移除用户组',
        body: UserUnRelGroupsBody,
        response: { 200: NullData },
      },
    },
    async (req) => {
      await unlinkGroup(links, operator(req), req.body.userId, req.body.groupId)
      return ok(null)
    },
  )

  app.put(
    '/rel/user-rel-position',
    {
      schema: {
        tags: [TAG],
        summary: '用户关联岗位',
        body: UserRelPositionBody,
        response: { 200: NullData },
      },
    },
    async (req) => {
      await linkPositions(links, operator(req), req.body.id, req.body.positionIds)
      return ok(null)
    },
  )

  app.put(
    '/rel/user-un-rel-position',
    {
      schema: {
        tags: [TAG],
        summary: '用户移除岗位',
        body: UserUnRelPositionBody,
        response: { 200: NullData },
      },
    },
    async (req) => {
      await unlinkPosition(links, operator(req), req.body.userId, req.body.positionId)
      return ok(null)
    },
  )

  // -- tab lists (reads, though POST: they change nothing) --------------------------------------

  app.post(
    '/rel/user/rolelist',
    {
      config: { readOnly: true },
      schema: {
        tags: [TAG],
        summary: '用户的角色列表',
        querystring: UserRoleListQuery,
        response: { 200: Envelope(UserRolePage) },
      },
    },
    async (req) => ok(await listUserRoles(db, req.query)),
  )

  app.post(
    '/rel/user/grouplist',
    {
      config: { readOnly: true },
      schema: {
        tags: [TAG],
        summary: '用户的用户组列表',
        querystring: UserGroupListQuery,
        response: { 200: Envelope(UserGroupPage) },
      },
    },
    async (req) => ok(await listUserGroups(db, req.query)),
  )

  app.post(
    '/rel/user/positionlist',
    {
      config: { readOnly: true },
      schema: {
        tags: [TAG],
        summary: '用户的岗位列表',
        description: 'orgId 过滤包含其下级部门',
        querystring: UserPositionListQuery,
        response: { 200: Envelope(UserPositionPage) },
      },
    },
    async (req) => ok(await listUserPositions(db, req.query)),
  )
}
