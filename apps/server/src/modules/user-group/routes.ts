import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  Envelope,
  GroupRoleLinkBody,
  GroupRoleListQuery,
  GroupUserLinkBody,
  GroupUserListQuery,
  RelRolePage,
  RelUserPage,
  MSG,
  NullData,
  UserGroupDetail,
  UserGroupEnableQuery,
  UserGroupIdQuery,
  UserGroupInsertBody,
  UserGroupListBody,
  UserGroupNameListBody,
  UserGroupListPage,
  UserGroupSimple,
  UserGroupUpdateBody,
} from '@amg/contract'
import { ok } from '../../lib/reply'
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

const tags = ['用户组管理']

export const userGroupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, links } = app.ctx
  // what the list reads once and keeps (totals, the ids of a filter's matches) until a group changes
  const listCache = new VersionedCache(app.ctx, 'lists')

  app.post(
    '/user_groups/list',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '用户组列表',
        body: UserGroupListBody,
        response: { 200: Envelope(UserGroupListPage) },
      },
    },
    async (req) => ok(await listGroups(db, listCache, req.body)),
  )

  app.patch(
    '/user_groups/enable',
    {
      schema: {
        tags,
        summary: '启用/禁用用户组',
        querystring: UserGroupEnableQuery,
        response: { 200: NullData },
      },
    },
    async (req) => {
      await setGroupEnabled(db, power, req.query.userGroupsId, req.query.enable, currentUser(req).id)
      return ok(null)
    },
  )

  app.post(
    '/user_groups/insert',
    {
      schema: {
        tags,
        summary: '新建用户组',
        body: UserGroupInsertBody,
        response: { 200: Envelope(Type.Integer()) },
      },
    },
    async (req) => ok(await insertGroup(db, power, req.body, currentUser(req).id), MSG.created),
  )

  app.get(
    '/user_groups/detail',
    {
      schema: {
        tags,
        summary: '用户组详情',
        querystring: UserGroupIdQuery,
        response: { 200: Envelope(UserGroupDetail) },
      },
    },
    async (req) => ok(await groupDetail(db, req.query.userGroupsId)),
  )

  app.put(
    '/user_groups/update',
    { schema: { tags, summary: '修改用户组', body: UserGroupUpdateBody, response: { 200: NullData } } },
    async (req) => {
      await updateGroup(db, power, req.body, currentUser(req).id)
      return ok(null, MSG.updated)
    },
  )

  app.delete(
    '/user_groups/delete',
    { schema: { tags, summary: '删除用户组', querystring: UserGroupIdQuery, response: { 200: NullData } } },
    async (req) => {
      await deleteGroup(db, power, req.query.userGroupsId, currentUser(req).id)
      return ok(null, MSG.deleted)
    },
  )

  app.get(
    '/rel/groups/userlist',
    {
      schema: {
        tags,
        summary: '用户组关联的用户',
        querystring: GroupUserListQuery,
        response: { 200: Envelope(RelUserPage) },
      },
    },
    async (req) => ok(await groupUsers(db, req.query)),
  )

  app.post(
    '/rel/groups/rolelist',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '用户组关联的角色',
        querystring: GroupRoleListQuery,
        response: { 200: Envelope(RelRolePage) },
      },
    },
    async (req) => ok(await groupRoles(db, req.query)),
  )

  app.put(
    '/rel/user-groups-rel-role',
    { schema: { tags, summary: '用户组关联角色', body: GroupRoleLinkBody, response: { 200: NullData } } },
    async (req) => {
      await linkRoles(links, req.body, currentUser(req).id)
      return ok(null)
    },
  )

  app.put(
    '/rel/user-groups-un-rel-role',
    { schema: { tags, summary: '用户组移除角色', body: GroupRoleLinkBody, response: { 200: NullData } } },
    async (req) => {
      await unlinkRoles(links, req.body, currentUser(req).id)
      return ok(null)
    },
  )

  app.put(
    '/rel/user-groups-rel-user',
    { schema: { tags, summary: '用户组关联用户', body: GroupUserLinkBody, response: { 200: NullData } } },
    async (req) => {
      await linkUsers(links, req.body, currentUser(req).id)
      return ok(null)
    },
  )

  app.put(
    '/rel/user-groups-un-rel-user',
    { schema: { tags, summary: '用户组移除用户', body: GroupUserLinkBody, response: { 200: NullData } } },
    async (req) => {
      await unlinkUsers(links, req.body, currentUser(req).id)
      return ok(null)
    },
  )

  app.post(
    '/user_groups/namelist',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '用户组简单列表',
        description: '带 userId 时只返回该用户尚未加入的用户组（用户“关联用户组”弹框的候选项）',
        body: UserGroupNameListBody,
        response: { 200: Envelope(Type.Array(UserGroupSimple)) },
      },
    },
    async (req) => ok(await groupNameList(db, power, currentUser(req).id, req.body)),
  )
}
