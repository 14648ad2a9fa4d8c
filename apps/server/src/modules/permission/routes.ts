import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  AuthCodeQuery,
  AuthInsertBody,
  AuthNode,
  AuthTreeNode,
  AuthUpdateBody,
  BackEndCatalogue,
  Envelope,
  MSG,
  NullData,
} from '@amg/contract'
import { ok } from '../../lib/reply'
import { currentUser } from '../../lib/context'
import { authDetail, authTree, deleteAuth, insertAuth, updateAuth } from './service'

const tags = ['权限管理']

/** The permission (auth) tree of SPEC.md §7 "Auth". */
export const permissionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, catalogue, power, authz } = app.ctx

  app.post(
    '/auth/tree',
    {
      config: { readOnly: true },
      schema: {
        tags,
        summary: '权限树',
        response: { 200: Envelope(Type.Array(AuthTreeNode)) },
      },
    },
    async () => ok(await authTree(db)),
  )

  app.get(
    '/auth/detail',
    {
      schema: {
        tags,
        summary: '权限详情',
        querystring: AuthCodeQuery,
        response: { 200: Envelope(AuthNode) },
      },
    },
    async (req) => ok(await authDetail(db, req.query.authCode)),
  )

  app.post(
    '/auth/insert',
    {
      schema: { tags, summary: '新建权限', body: AuthInsertBody, response: { 200: Envelope(Type.String()) } },
    },
    async (req) => ok(await insertAuth(db, authz, power, req.body, currentUser(req).id), MSG.created),
  )

  app.put(
    '/auth/update',
    { schema: { tags, summary: '修改权限', body: AuthUpdateBody, response: { 200: NullData } } },
    async (req) => {
      await updateAuth(db, authz, power, req.body, currentUser(req).id)
      return ok(null, MSG.updated)
    },
  )

  app.delete(
    '/auth/delete',
    { schema: { tags, summary: '删除权限', querystring: AuthCodeQuery, response: { 200: NullData } } },
    async (req) => {
      await deleteAuth(db, power, req.query.authCode, currentUser(req).id)
      return ok(null, MSG.deleted)
    },
  )

  app.get(
    '/auth/get-all-back-end',
    { schema: { tags, summary: '后端接口目录', response: { 200: Envelope(BackEndCatalogue) } } },
    async () => ok({ urlMap: catalogue.urlMap() }),
  )
}
