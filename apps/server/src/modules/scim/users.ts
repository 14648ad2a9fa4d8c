import type { FastifyInstance, FastifyRequest } from 'fastify'
import { eq } from 'drizzle-orm'
import { randomPassword, UserInsertBody, UserUpdateBody } from '@amg/contract'
import { users } from '../../db/schema'
import { readSecuritySettings } from '../../auth/security-settings'
import { beforeTransaction } from '../../lib/before-transaction'
import { checkBody } from '../../lib/body-check'
import { currentUser } from '../../lib/context'
import type { Caller } from '../../auth/user-scope'
import { insertUser, updateUser } from '../user'
import { prepareNewUser, prepareUserUpdate } from '../user/user-password'
import { callerFor } from './auth'
import { scimBad, SCIM_MSG } from './errors'
import { answer, idOf, listResponse, pagingOf, requireSchemas, requireVersion, SCIM_MEDIA } from './http'
import { applyPatch, readPatch } from './patch'
import { scimRoute } from './scim-route'
import {
  keepExternalId,
  listScimUsers,
  readScimUser,
  requireExternalIdFree,
  USER_SCHEMA,
  USER_SCHEMAS,
  userFieldsOf,
  userResource,
  type UserFields,
  type UserRow,
} from './user-resource'

/**
 * /scim/v2/Users. Each call is the console's call it stands for, with its permission and data scope
 * (auth.ts): list and read as POST /user/list and GET /user/detail, create as POST /user/insert,
 * replace, patch and delete as PUT /user/update, through the same service functions, so validation,
 * power (DESIGN.md §6a), reach (§13), the operation log and the events apply as they do there.
 */

type Params = { id: string }

/** The password a body sets, if any: PUT's and POST's `password`, PATCH's `password` op or object. */
function givenPassword(method: string, body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined
  if (method !== 'PATCH') {
    const p = (body as { password?: unknown }).password
    return typeof p === 'string' && p !== '' ? p : undefined
  }
  let found: string | undefined
  for (const op of readPatch(body)) {
    if (op.op === 'remove') continue
    const value =
      op.path?.toLowerCase() === 'password'
        ? op.value
        : !op.path && op.value && typeof op.value === 'object'
          ? (op.value as { password?: unknown }).password
          : undefined
    if (typeof value === 'string' && value !== '') found = value
  }
  return found
}

export function scimUserRoutes(app: FastifyInstance) {
  const { db, power, config } = app.ctx
  const base = config.publicUrl
  const show = (row: UserRow) => userResource(row, base)

  // passwords are hashed before the write's transaction opens, as the console's calls do
  const hashing = beforeTransaction(async (req: FastifyRequest) => {
    // the permission first: no hashing for a caller who may not make the call
    if (req.method === 'POST') {
      await callerFor(app, req, 'POST', '/user/insert')
      const body = requireSchemas(req.body, USER_SCHEMA, USER_SCHEMAS)
      const nickName = String((body as { userName?: unknown }).userName ?? '')
      // no password given: a random one nobody is told, to be reset by an administrator (decisions.md)
      const password = givenPassword('POST', body) ?? randomPassword(await readSecuritySettings(db), nickName)
      return { created: await prepareNewUser(db, '', { nickName, password }), hash: undefined }
    }
    const password = givenPassword(req.method, req.body)
    const id = idOf((req.params as Params).id)
    if (password === undefined || id === null) return { created: undefined, hash: undefined }
    await callerFor(app, req, 'PUT', '/user/update')
    const [user] = await db.select({ nickName: users.nickName }).from(users).where(eq(users.id, id))
    if (!user) return { created: undefined, hash: undefined }
    const hash = await prepareUserUpdate(
      db,
      { id, nickName: user.nickName, status: 1, password },
      currentUser(req).id,
    )
    return { created: undefined, hash }
  })

  const read = (caller: Caller, req: FastifyRequest<{ Params: Params }>) =>
    readScimUser(db, caller, idOf(req.params.id))

  /** PUT and PATCH: the stored user changed to `fields` through PUT /user/update's service. */
  async function change(req: FastifyRequest, caller: Caller, current: UserRow, fields: UserFields) {
    if (current.source === 'ldap') throw scimBad('mutability', SCIM_MSG.ldapRecord)
    await requireExternalIdFree(db, fields.externalId, current.source, current.id)
    const same =
      fields.nickName === current.nickName &&
      fields.realName === current.realName &&
      fields.mobile === current.mobile &&
      fields.status === current.status &&
      !fields.password
    if (!same) {
      const body = checkBody(UserUpdateBody, {
        id: current.id,
        nickName: fields.nickName,
        status: fields.status,
        realName: fields.realName,
        mobile: fields.mobile,
      })
      await updateUser(db, power, caller, body, fields.password ? hashing.resultFor(req).hash : undefined)
    }
    await keepExternalId(db, current.id, fields.externalId, false)
    req.auditNote = { resourceId: String(current.id) }
    return show(await readScimUser(db, caller, current.id))
  }

  scimRoute(app, 'GET', '/Users', 'user', 'SCIM 用户列表', async (req, reply) => {
    const caller = await callerFor(app, req, 'POST', '/user/list')
    const query = req.query as Record<string, unknown>
    const paging = pagingOf(query)
    const filter = typeof query.filter === 'string' && query.filter.trim() !== '' ? query.filter : undefined
    const { rows, total } = await listScimUsers(db, caller, filter, paging)
    reply.type(SCIM_MEDIA)
    return listResponse(rows.map(show), total, paging)
  })

  scimRoute<Params>(app, 'GET', '/Users/:id', 'user', 'SCIM 用户详情', async (req, reply) => {
    const caller = await callerFor(app, req, 'GET', '/user/detail')
    return answer(reply, 200, show(await read(caller, req)))
  })

  scimRoute(
    app,
    'POST',
    '/Users',
    'user',
    'SCIM 新建用户',
    async (req, reply) => {
      const caller = await callerFor(app, req, 'POST', '/user/insert')
      const fields = userFieldsOf(requireSchemas(req.body, USER_SCHEMA, USER_SCHEMAS))
      await requireExternalIdFree(db, fields.externalId, 'scim')
      const body = checkBody(UserInsertBody, {
        nickName: fields.nickName,
        status: fields.status,
        realName: fields.realName,
        mobile: fields.mobile,
      })
      const id = await insertUser(db, power, hashing.resultFor(req).created!, caller, body)
      await keepExternalId(db, id, fields.externalId, true)
      req.auditNote = { resourceId: String(id) }
      return answer(reply, 201, show(await readScimUser(db, caller, id)))
    },
    hashing.preHandler,
  )

  /** PUT and PATCH /Users/:id: the user as it is now, at the version asked for, changed to `fieldsOf`. */
  const changeRoute = (
    method: 'PUT' | 'PATCH',
    summary: string,
    fieldsOf: (body: unknown, current: UserRow) => UserFields,
  ) =>
    scimRoute<Params>(
      app,
      method,
      '/Users/:id',
      'user',
      summary,
      async (req, reply) => {
        const caller = await callerFor(app, req, 'PUT', '/user/update')
        const current = await read(caller, req)
        requireVersion(req, show(current).meta.version)
        return answer(reply, 200, await change(req, caller, current, fieldsOf(req.body, current)))
      },
      hashing.preHandler,
    )

  changeRoute('PUT', 'SCIM 替换用户', (body, current) =>
    userFieldsOf(requireSchemas(body, USER_SCHEMA, USER_SCHEMAS), current),
  )
  changeRoute('PATCH', 'SCIM 修改用户', (body, current) =>
    userFieldsOf(applyPatch(show(current), readPatch(body)), current),
  )

  // DELETE freezes the user (their sessions end) and keeps the record; SCIM sees it no more (decisions.md)
  scimRoute<Params>(app, 'DELETE', '/Users/:id', 'user', 'SCIM 删除用户（冻结）', async (req, reply) => {
    const caller = await callerFor(app, req, 'PUT', '/user/update')
    const current = await read(caller, req)
    requireVersion(req, show(current).meta.version)
    if (current.source === 'ldap') throw scimBad('mutability', SCIM_MSG.ldapRecord)
    const body = checkBody(UserUpdateBody, {
      id: current.id,
      nickName: current.nickName,
      status: 2,
      realName: current.realName,
      mobile: current.mobile,
    })
    await updateUser(db, power, caller, body, undefined)
    await db.update(users).set({ scimDeletedAt: new Date() }).where(eq(users.id, current.id))
    req.auditNote = { resourceId: String(current.id) }
    reply.status(204)
    return null
  })
}
