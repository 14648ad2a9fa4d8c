import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  Envelope,
  MSG,
  NullData,
  PositionBatchInsertBody,
  PositionDeleteQuery,
  PositionEnableQuery,
  PositionForOrgBody,
  PositionForOrgPage,
  PositionListBody,
  PositionNameListBody,
  PositionPage,
  PositionRoleLinkBody,
  PositionRoleListQuery,
  PositionSimple,
  PositionUserLinkBody,
  PositionUserListQuery,
  RelRolePage,
  RelUserPage,
} from '@amg/contract'
import { ok } from '../../lib/reply'
import { currentUser } from '../../lib/context'
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
} from './service'

const tags = ['岗位管理']

export const positionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power, links } = app.ctx
  // the department tree and the position counts the lists are paged by, kept until they change
  const caches: PositionCaches = {
    org: new VersionedCache(app.ctx, 'org'),
    lists: new VersionedCache(app.ctx, 'lists'),
  }

  app.post(
    '/position/list',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '岗位列表',
        description: '按部门筛选时包含其下级部门的岗位；同一部门的岗位相邻',
        body: PositionListBody,
        response: { 200: Envelope(PositionPage) },
      },
    },
    async (req) => ok(await listPositions(db, caches, req.body)),
  )

  app.post(
    '/position/list/for/org',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '部门的岗位列表',
        body: PositionForOrgBody,
        response: { 200: Envelope(PositionForOrgPage) },
      },
    },
    async (req) => ok(await listForOrg(db, req.body)),
  )

  app.delete(
    '/position/delete',
    {
      schema: {
        tags,
        summary: '删除岗位',
        description: 'positionIds 以逗号分隔；岗位与其角色、用户关联一并删除',
        querystring: PositionDeleteQuery,
        response: { 200: NullData },
      },
    },
    async (req) => {
      await deletePositions(db, power, req.query.positionIds, currentUser(req).id)
      return ok(null, MSG.deleted)
    },
  )

  app.put(
    '/position/batch/insert',
    {
      schema: {
        tags,
        summary: '批量新建岗位',
        description: '为部门关联职位；已存在的岗位跳过。返回新建岗位的 id',
        body: PositionBatchInsertBody,
        response: { 200: Envelope(Type.Array(Type.Integer())) },
      },
    },
    async (req) => ok(await batchInsert(db, req.body)),
  )

  app.patch(
    '/position/enable',
    {
      schema: {
        tags,
        summary: '启用/禁用岗位',
        querystring: PositionEnableQuery,
        response: { 200: NullData },
      },
    },
    async (req) => {
      await setPositionEnabled(db, power, req.query.positionId, req.query.enable, currentUser(req).id)
      return ok(null)
    },
  )

  app.put(
    '/rel/position-rel-role',
    { schema: { tags, summary: '岗位关联角色', body: PositionRoleLinkBody, response: { 200: NullData } } },
    async (req) => {
      await linkRoles(links, req.body, currentUser(req).id)
      return ok(null)
    },
  )

  app.put(
    '/rel/position-un-rel-role',
    { schema: { tags, summary: '岗位移除角色', body: PositionRoleLinkBody, response: { 200: NullData } } },
    async (req) => {
      await unlinkRoles(links, req.body, currentUser(req).id)
      return ok(null)
    },
  )

  app.put(
    '/rel/position-rel-user',
    { schema: { tags, summary: '岗位关联用户', body: PositionUserLinkBody, response: { 200: NullData } } },
    async (req) => {
      await linkUsers(links, req.body, currentUser(req).id)
      return ok(null)
    },
  )

  app.put(
    '/rel/position-un-rel-user',
    { schema: { tags, summary: '岗位移除用户', body: PositionUserLinkBody, response: { 200: NullData } } },
    async (req) => {
      await unlinkUsers(links, req.body, currentUser(req).id)
      return ok(null)
    },
  )

  app.post(
    '/rel/position/rolelist',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '岗位关联的角色',
        querystring: PositionRoleListQuery,
        response: { 200: Envelope(RelRolePage) },
      },
    },
    async (req) => ok(await positionRoleList(db, req.query)),
  )

  app.get(
    '/rel/position/userlist',
    {
      schema: {
        tags,
        summary: '岗位关联的用户',
        querystring: PositionUserListQuery,
        response: { 200: Envelope(RelUserPage) },
      },
    },
    async (req) => ok(await positionUserList(db, req.query)),
  )

  app.post(
    '/position/namelist',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '岗位简单列表',
        description:
          '按部门筛选时包含其下级部门；带 userId 时只返回该用户尚未担任的岗位（用户“关联岗位”弹框的候选项）',
        body: PositionNameListBody,
        response: { 200: Envelope(Type.Array(PositionSimple)) },
      },
    },
    async (req) => ok(await positionNameList(db, caches, power, currentUser(req).id, req.body)),
  )
}
