import { eq } from 'drizzle-orm'
import type { RoleNameListBody, RoleSimple } from '@amg/contract'
import { roles } from '../../db/schema'
import { linkCandidates, type Namelist } from '../links/candidates'
import { notLinkedTo } from '../links/not-linked'

/** The namelist is a picker, not a page: it answers at most this many roles. */
export const NAMELIST_LIMIT = 200

/**
 * POST /role/namelist: roles by name substring and status, ordered by id. With userGroupId,
 * positionId or userId it answers only the roles not yet linked to that group, position or user
 * (the candidates the "link roles" popover offers), each marked with whether the caller may grant it.
 */
export const roleNameList: Namelist<RoleNameListBody, RoleSimple> = (db, power, callerId, q) =>
  linkCandidates(db, power, callerId, {
    type: 'role',
    fields: { id: roles.id, roleName: roles.roleName, type: roles.type, status: roles.status },
    nameContains: q.roleName,
    where: [
      q.status ? eq(roles.status, q.status) : undefined,
      q.userGroupId ? notLinkedTo(db, 'group', q.userGroupId, 'role') : undefined,
      q.positionId ? notLinkedTo(db, 'position', q.positionId, 'role') : undefined,
      q.userId ? notLinkedTo(db, 'user', q.userId, 'role') : undefined,
    ],
    limit: NAMELIST_LIMIT,
    // a role carries itself
    rolesOf: async (ids) => new Map(ids.map((id) => [id, [id]])),
  })
