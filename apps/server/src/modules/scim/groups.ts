import type { FastifyInstance, FastifyRequest } from 'fastify'
import { UserGroupInsertBody, UserGroupUpdateBody } from '@amg/contract'
import { checkBody } from '../../lib/body-check'
import { callerOfCall, type Caller } from '../../auth/user-scope'
import { currentUser } from '../../lib/context'
import { AppError } from '../../lib/errors'
import { deleteGroup, insertGroup, updateGroup } from '../user-group/group-write'
import { callerFor } from './auth'
import { scimBad, SCIM_MSG } from './errors'
import {
  answer,
  excludedOf,
  idOf,
  listResponse,
  pagingOf,
  requireSchemas,
  requireVersion,
  SCIM_MEDIA,
} from './http'
import { applyPatch, readPatch } from './patch'
import { scimRoute } from './scim-route'
import {
  GROUP_SCHEMA,
  groupFieldsOf,
  groupResource,
  keepGroupExternalId,
  listScimGroups,
  membersOf,
  readScimGroup,
  requireGroupExternalIdFree,
  type GroupRow,
  type Member,
} from './group-resource'

/**
 * /scim/v2/Groups: user groups (DESIGN.md §22). A name change is PUT /user_groups/update, members
 * joining and leaving are the group's member links (PUT /rel/user-groups-rel-user and -un-rel-user,
 * through the link module: power §6a, reach §13, the last super admin), a new group is POST
 * /user_groups/insert and DELETE is DELETE /user_groups/delete: each with its own permission.
 */

type Params = { id: string }

/** A member that is no user is a bad value of the request, not a missing resource of its path. */
const memberNotFound = (err: unknown): never => {
  throw err instanceof AppError && err.status === 404 ? scimBad('invalidValue', err.message) : err
}

export function scimGroupRoutes(app: FastifyInstance) {
  const { db, power, links, authz, config } = app.ctx
  const base = config.publicUrl

  /** Whom the caller sees in member lists: the scope of the group's member list (GET /rel/groups/userlist). */
  const memberViewer = (req: FastifyRequest) =>
    callerOfCall(authz, currentUser(req).id, 'GET', '/rel/groups/userlist')

  const show = async (req: FastifyRequest, row: GroupRow) => {
    const members = await membersOf(db, await memberViewer(req), [row.id])
    return groupResource(row, base, members.get(row.id) ?? [])
  }

  /** Members in and out through the link module, each direction with its own permission. */
  async function changeMembers(
    req: FastifyRequest,
    id: number,
    seen: Member[],
    wanted: number[] | undefined,
  ) {
    if (wanted === undefined) return
    const before = new Set(seen.map((m) => m.id))
    const want = new Set(wanted)
    const added = wanted.filter((u) => !before.has(u))
    const removed = [...before].filter((u) => !want.has(u))
    if (added.length) {
      const caller = await callerFor(app, req, 'PUT', '/rel/user-groups-rel-user')
      await links
        .link({ owner: 'group', ownerId: id, target: 'user', targetIds: added, caller })
        .catch(memberNotFound)
    }
    if (removed.length) {
      const caller = await callerFor(app, req, 'PUT', '/rel/user-groups-un-rel-user')
      await links.unlink({ owner: 'group', ownerId: id, target: 'user', targetIds: removed, caller })
    }
  }

  /** PUT and PATCH: the group renamed, its members and externalId set, as the console would. */
  async function change(
    req: FastifyRequest,
    current: GroupRow,
    seen: Member[],
    doc: Record<string, unknown>,
  ) {
    if (current.source === 'ldap') throw scimBad('mutability', SCIM_MSG.ldapRecord)
    const fields = groupFieldsOf(doc)
    await requireGroupExternalIdFree(db, fields.externalId, current.id)
    if (fields.groupName !== current.groupName) {
      await callerFor(app, req, 'PUT', '/user_groups/update')
      const body = checkBody(UserGroupUpdateBody, {
        id: current.id,
        groupName: fields.groupName,
        status: current.status,
      })
      await updateGroup(db, power, body, currentUser(req).id)
    }
    await changeMembers(req, current.id, seen, fields.memberIds)
    await keepGroupExternalId(db, current.id, fields.externalId, false)
    req.auditNote = { resourceId: String(current.id) }
    return show(req, await readScimGroup(db, current.id))
  }

  const stored = async (req: FastifyRequest<{ Params: Params }>) => {
    const row = await readScimGroup(db, idOf(req.params.id))
    const members = (await membersOf(db, await memberViewer(req), [row.id])).get(row.id) ?? []
    return { row, members, resource: groupResource(row, base, members) }
  }

  scimRoute(app, 'GET', '/Groups', 'userGroup', 'SCIM 用户组列表', async (req, reply) => {
    await callerFor(app, req, 'POST', '/user_groups/list')
    const query = req.query as Record<string, unknown>
    const paging = pagingOf(query)
    const filter = typeof query.filter === 'string' && query.filter.trim() !== '' ? query.filter : undefined
    const { rows, total } = await listScimGroups(db, filter, paging)
    // Entra asks for groups without their members (excludedAttributes=members): none are read then
    const withMembers = !excludedOf(query).has('members')
    const members = withMembers
      ? await membersOf(
          db,
          await memberViewer(req),
          rows.map((r) => r.id),
        )
      : null
    reply.type(SCIM_MEDIA)
    return listResponse(
      rows.map((r) => groupResource(r, base, members ? (members.get(r.id) ?? []) : null)),
      total,
      paging,
    )
  })

  scimRoute<Params>(app, 'GET', '/Groups/:id', 'userGroup', 'SCIM 用户组详情', async (req, reply) => {
    await callerFor(app, req, 'GET', '/user_groups/detail')
    const { row, members } = await stored(req)
    const withMembers = !excludedOf(req.query as Record<string, unknown>).has('members')
    return answer(reply, 200, groupResource(row, base, withMembers ? members : null))
  })

  scimRoute(app, 'POST', '/Groups', 'userGroup', 'SCIM 新建用户组', async (req, reply) => {
    const caller: Caller = await callerFor(app, req, 'POST', '/user_groups/insert')
    const fields = groupFieldsOf(requireSchemas(req.body, GROUP_SCHEMA, [GROUP_SCHEMA]))
    await requireGroupExternalIdFree(db, fields.externalId)
    const body = checkBody(UserGroupInsertBody, {
      groupName: fields.groupName,
      status: 1,
      userIds: fields.memberIds ?? [],
    })
    const id = await insertGroup(db, power, body, caller).catch(memberNotFound)
    await keepGroupExternalId(db, id, fields.externalId, true)
    req.auditNote = { resourceId: String(id) }
    return answer(reply, 201, await show(req, await readScimGroup(db, id)))
  })

  scimRoute<Params>(app, 'PUT', '/Groups/:id', 'userGroup', 'SCIM 替换用户组', async (req, reply) => {
    const { row, members, resource } = await stored(req)
    requireVersion(req, resource.meta.version)
    const doc = requireSchemas(req.body, GROUP_SCHEMA, [GROUP_SCHEMA])
    return answer(reply, 200, await change(req, row, members, doc))
  })

  scimRoute<Params>(app, 'PATCH', '/Groups/:id', 'userGroup', 'SCIM 修改用户组', async (req, reply) => {
    const { row, members, resource } = await stored(req)
    requireVersion(req, resource.meta.version)
    const doc = applyPatch(resource, readPatch(req.body))
    return answer(reply, 200, await change(req, row, members, doc))
  })

  // DELETE removes the group as the console's 删除 does: its members leave it (decisions.md)
  scimRoute<Params>(app, 'DELETE', '/Groups/:id', 'userGroup', 'SCIM 删除用户组', async (req, reply) => {
    const caller = await callerFor(app, req, 'DELETE', '/user_groups/delete')
    const { row, resource } = await stored(req)
    requireVersion(req, resource.meta.version)
    if (row.source === 'ldap') throw scimBad('mutability', SCIM_MSG.ldapRecord)
    await deleteGroup(db, power, row.id, caller)
    req.auditNote = { resourceId: String(row.id) }
    reply.status(204)
    return null
  })
}
