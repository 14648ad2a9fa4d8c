import {
  routes,
  type PageResult,
  type RoleSimple,
  type RouteData,
  type UserGroupListRow,
  type UserSimple,
} from '@amg/contract'
import { offeredRolesForCaller } from '../../lib/grantable'
import { request, requestEnvelope } from '../../lib/route-call'
import { ROLE_LINKS, USER_LINKS, type OwnerLinks } from '../../lib/owner-links'
import { fetchUserCandidates, USER_CANDIDATE_PAGE_SIZE } from '../../lib/user-candidates'

/** The user-group calls of SPEC.md §7. */

export interface GroupFilters {
  groupName?: string
  description?: string
  status?: number | null
}

export interface GroupFields {
  groupName: string
  status: number
  description?: string | null
}

/** A role linked to the group, as its roles tab lists it. */
export type LinkedRole = RouteData<typeof routes.userGroup.roleList>['list'][number]
/** A user in the group, as its users tab lists it. */
export type LinkedUser = RouteData<typeof routes.userGroup.userList>['list'][number]

const joinIds = (ids: readonly number[]) => ids.join(',')

export const listGroups = (filters: GroupFilters, pageNum: number, pageSize: number) =>
  request(routes.userGroup.list, {
    body: {
      groupName: filters.groupName || null,
      description: filters.description || null,
      status: filters.status ?? null,
      pageNum,
      pageSize,
    },
  })

/** SPEC.md §4: sends true when the current status is not 1 (the group becomes enabled), otherwise false. */
export const toggleEnable = (group: Pick<UserGroupListRow, 'id' | 'status'>) =>
  request(routes.userGroup.enable, { query: { userGroupsId: group.id, enable: group.status !== 1 } })

export const groupDetail = (id: number) => request(routes.userGroup.detail, { query: { userGroupsId: id } })

export const insertGroup = (fields: GroupFields, roleIds: readonly number[], userIds: readonly number[]) =>
  requestEnvelope(routes.userGroup.insert, {
    body: {
      description: fields.description ?? '',
      groupName: fields.groupName,
      status: fields.status,
      roleIds: joinIds(roleIds),
      userIds: joinIds(userIds),
    },
  })

export const updateGroup = (id: number, fields: GroupFields) =>
  requestEnvelope(routes.userGroup.update, {
    body: {
      description: fields.description ?? '',
      groupName: fields.groupName,
      status: fields.status,
      id,
    },
  })

export const deleteGroup = (id: number) => request(routes.userGroup.delete, { query: { userGroupsId: id } })

// ---- links ----

/** The group's roles; the candidates are the roles not yet linked to it. */
export const groupRoleLinks: OwnerLinks<LinkedRole, RoleSimple> = {
  kind: ROLE_LINKS,
  list: (userGroupId, { pageNum, pageSize, keyword: roleName }) =>
    request(routes.userGroup.roleList, {
      query: { userGroupId, pageNum, pageSize, ...(roleName ? { roleName } : {}) },
    }),
  candidates: (userGroupId, roleName) => roleCandidates(roleName, userGroupId),
  link: (userGroupsId, roleIds) =>
    request(routes.userGroup.linkRoles, { body: { userGroupsId, roleIds: joinIds(roleIds) } }),
  unlink: (userGroupsId, roleIds) =>
    request(routes.userGroup.unlinkRoles, { body: { userGroupsId, roleIds: joinIds(roleIds) } }),
  calls: { link: routes.userGroup.linkRoles, unlink: routes.userGroup.unlinkRoles },
}

/** The group's users (SPEC.md §7 spells this list's paging pagenum/pagesize); the candidates are the users not yet in it, a page at a time. */
export const groupUserLinks: OwnerLinks<LinkedUser, UserSimple> = {
  kind: USER_LINKS,
  list: (id, { pageNum: pagenum, pageSize: pagesize, keyword: nickName }) =>
    request(routes.userGroup.userList, {
      query: { id, pagenum, pagesize, ...(nickName ? { nickName } : {}) },
    }),
  candidates: (userGroupId, nickName, pageNum) => fetchUserCandidates({ userGroupId }, nickName, pageNum),
  link: (userGroupsId, userIds, expiresAt = null) =>
    request(routes.userGroup.linkUsers, { body: { userGroupsId, userIds: joinIds(userIds), expiresAt } }),
  unlink: (userGroupsId, userIds) =>
    request(routes.userGroup.unlinkUsers, { body: { userGroupsId, userIds: joinIds(userIds) } }),
  calls: { link: routes.userGroup.linkUsers, unlink: routes.userGroup.unlinkUsers },
}

// ---- candidates ----

/**
 * Roles by name; with a group id only those not yet linked to it. Each is marked grantable or not for
 * the caller; the super-admin role is left out for a caller who is not a super admin (DESIGN.md §6a).
 */
export const roleCandidates = async (
  roleName: string,
  userGroupId?: number,
): Promise<PageResult<RoleSimple>> => {
  const all = await request(routes.role.nameList, {
    body: { roleName: roleName || null, ...(userGroupId ? { userGroupId } : {}) },
  })
  const list = offeredRolesForCaller(all)
  return { list, total: list.length }
}

export const CANDIDATE_PAGE_SIZE = USER_CANDIDATE_PAGE_SIZE

/** Every user by nickName, for the add page's picker (no group exists yet, so none is linked). */
export const userCandidates = (nickName: string, pageNum: number) =>
  request(routes.user.list, {
    body: { nickName: nickName || null, pageNum, pageSize: CANDIDATE_PAGE_SIZE },
  })
