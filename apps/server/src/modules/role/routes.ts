import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  AdminRoleInsertBody,
  AdminRoleUpdateBody,
  Envelope,
  MSG,
  NullData,
  Page,
  RoleDetail,
  RoleIdQuery,
  RoleInsertBody,
  RoleListBody,
  RoleNameListBody,
  RoleRow,
  RoleSimple,
  RoleUpdateBody,
} from '@amg/contract'
import { ok } from '../../lib/reply'
import { VersionedCache } from '../../cache/versioned-cache'
import { currentUser } from '../../lib/context'
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

const tags = ['角色管理']

/** Roles of SPEC.md §7: ordinary roles (type 3) under /role, built-in and super-admin roles under /role/admin. */
export const roleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, power } = app.ctx
  const listCache = new VersionedCache(app.ctx, 'lists')

  app.post(
    '/role/namelist',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '角色简单列表',
        body: RoleNameListBody,
        response: { 200: Envelope(Type.Array(RoleSimple)) },
      },
    },
    async (req) => ok(await roleNameList(db, power, currentUser(req).id, req.body ?? {})),
  )

  app.post(
    '/role/listall',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '角色分页列表',
        body: RoleListBody,
        response: { 200: Envelope(Page(RoleRow)) },
      },
    },
    async (req) => ok(await listRoles(db, listCache, req.body ?? {})),
  )

  app.get(
    '/role/detail',
    {
      schema: {
        tags,
        summary: '角色详情',
        querystring: RoleIdQuery,
        response: { 200: Envelope(RoleDetail) },
      },
    },
    async (req) => ok(await roleDetail(db, req.query.id)),
  )

  app.post(
    '/role/insert',
    {
      schema: {
        tags,
        summary: '新建普通角色',
        body: RoleInsertBody,
        response: { 200: Envelope(Type.Integer()) },
      },
    },
    async (req) => ok(await insertRole(db, power, req.body, currentUser(req).id), MSG.created),
  )

  app.put(
    '/role/update',
    { schema: { tags, summary: '修改普通角色', body: RoleUpdateBody, response: { 200: NullData } } },
    async (req) => {
      await updateRole(db, power, req.body, currentUser(req).id)
      return ok(null, MSG.updated)
    },
  )

  app.delete(
    '/role/delete',
    { schema: { tags, summary: '删除普通角色', querystring: RoleIdQuery, response: { 200: NullData } } },
    async (req) => {
      await deleteRole(db, power, req.query.id, currentUser(req).id)
      return ok(null, MSG.deleted)
    },
  )

  app.post(
    '/role/admin/insert',
    {
      schema: {
        tags,
        summary: '新建内置角色',
        body: AdminRoleInsertBody,
        response: { 200: Envelope(Type.Integer()) },
      },
    },
    async (req) => ok(await insertAdminRole(db, power, req.body, currentUser(req).id), MSG.created),
  )

  app.put(
    '/role/admin/update',
    { schema: { tags, summary: '修改内置角色', body: AdminRoleUpdateBody, response: { 200: NullData } } },
    async (req) => {
      await updateAdminRole(db, power, req.body, currentUser(req).id)
      return ok(null, MSG.updated)
    },
  )

  app.delete(
    '/role/admin/delete',
    { schema: { tags, summary: '删除内置角色', querystring: RoleIdQuery, response: { 200: NullData } } },
    async (req) => {
      await deleteAdminRole(db, power, req.query.id, currentUser(req).id)
      return ok(null, MSG.deleted)
    },
  )
}
