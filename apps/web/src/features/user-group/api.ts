import {
  routes,
  type PageResult,
  type RoleSimple,
  type RouteData,
  type UserGroupListRow,
} from '@amg/contract'
import { offeredRolesForCaller } from '../../lib/grantable'
import { request, requestEnvelope } from '../../lib/route-call'
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

export const groupRoles = (userGroupId: number, pageNum: number, pageSize: number, roleName: string) =>
  request(routes.userGroup.roleList, {
    query: { userGroupId, pageNum, pageSize, ...(roleName ? { roleName } : {}) },
  })

/** SPEC.md §7 spells this list's paging pagenum/pagesize. */
export const groupUsers = (id: number, pagenum: number, pagesize: number, nickName: string) =>
  request(routes.userGroup.userList, {
    query: { id, pagenum, pagesize, ...(nickName ? { nickName } : {}) },
  })

export const linkRoles = (userGroupsId: number, roleIds: readonly number[]) =>
  request(routes.userGroup.linkRoles, { body: { userGroupsId, roleIds: joinIds(roleIds) } })
export const unlinkRoles = (userGroupsId: number, roleIds: readonly number[]) =>
  request(routes.userGroup.unlinkRoles, { body: { userGroupsId, roleIds: joinIds(roleIds) } })
export const linkUsers = (
  userGroupsId: number,
  userIds: readonly number[],
  expiresAt: string | null = null,
) => request(routes.userGroup.linkUsers, { body: { userGroupsId, userIds: joinIds(userIds), expiresAt } })
export const unlinkUsers = (userGroupsId: number, userIds: readonly number[]) =>
  request(routes.userGroup.unlinkUsers, { body: { userGroupsId, userIds: joinIds(userIds) } })

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

/** The users not yet in the group, one page at a time ("load more" in the picker). */
export const groupUserCandidates = (userGroupId: number, nickName: string, pageNum: number) =>
  fetchUserCandidates({ userGroupId }, nickName, pageNum)

/** Every user by nickName, for the add page's picker (no group exists yet, so none is linked). */
export const userCandidates = (nickName: string, pageNum: number) =>
  request(routes.user.list, {
    body: { nickName: nickName || null, pageNum, pageSize: CANDIDATE_PAGE_SIZE },
  })
