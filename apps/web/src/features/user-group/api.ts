import type { PageResult, RoleSimple, UserGroupDetail, UserGroupListRow, UserRow } from '@amg/contract'
import { offeredRolesForCaller } from '../../lib/grantable'
import { call, del, get, patch, post, put } from '../../lib/http'
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

export interface LinkedRole {
  id: number
  roleName: string
  type: number
  status: number
}

export interface LinkedUser {
  id: number
  nickName: string
  realName: string | null
  status: number
}

const joinIds = (ids: readonly number[]) => ids.join(',')

export const listGroups = (filters: GroupFilters, pageNum: number, pageSize: number) =>
  post<PageResult<UserGroupListRow>>('/user_groups/list', {
    groupName: filters.groupName || null,
    description: filters.description || null,
    status: filters.status ?? null,
    pageNum,
    pageSize,
  })

/** SPEC.md §4: sends true when the current status is not 1 (the group becomes enabled), otherwise false. */
export const toggleEnable = (group: Pick<UserGroupListRow, 'id' | 'status'>) =>
  patch<null>('/user_groups/enable', undefined, {
    params: { userGroupsId: group.id, enable: group.status !== 1 },
  })

export const groupDetail = (id: number) => get<UserGroupDetail>('/user_groups/detail', { userGroupsId: id })

export const insertGroup = (fields: GroupFields, roleIds: readonly number[], userIds: readonly number[]) =>
  call<number>({
    method: 'POST',
    url: '/user_groups/insert',
    data: {
      description: fields.description ?? '',
      groupName: fields.groupName,
      status: fields.status,
      roleIds: joinIds(roleIds),
      userIds: joinIds(userIds),
    },
  })

export const updateGroup = (id: number, fields: GroupFields) =>
  call<null>({
    method: 'PUT',
    url: '/user_groups/update',
    data: {
      description: fields.description ?? '',
      groupName: fields.groupName,
      status: fields.status,
      id,
    },
  })

export const deleteGroup = (id: number) => del<null>('/user_groups/delete', { userGroupsId: id })

// ---- links ----

export const groupRoles = (userGroupId: number, pageNum: number, pageSize: number, roleName: string) =>
  post<PageResult<LinkedRole>>('/rel/groups/rolelist', undefined, {
    params: { userGroupId, pageNum, pageSize, ...(roleName ? { roleName } : {}) },
  })

/** SPEC.md §7 spells this list's paging pagenum/pagesize. */
export const groupUsers = (id: number, pagenum: number, pagesize: number, nickName: string) =>
  get<PageResult<LinkedUser>>('/rel/groups/userlist', {
    id,
    pagenum,
    pagesize,
    ...(nickName ? { nickName } : {}),
  })

export const linkRoles = (userGroupsId: number, roleIds: readonly number[]) =>
  put<null>('/rel/user-groups-rel-role', { userGroupsId, roleIds: joinIds(roleIds) })
export const unlinkRoles = (userGroupsId: number, roleIds: readonly number[]) =>
  put<null>('/rel/user-groups-un-rel-role', { userGroupsId, roleIds: joinIds(roleIds) })
export const linkUsers = (userGroupsId: number, userIds: readonly number[]) =>
  put<null>('/rel/user-groups-rel-user', { userGroupsId, userIds: joinIds(userIds) })
export const unlinkUsers = (userGroupsId: number, userIds: readonly number[]) =>
  put<null>('/rel/user-groups-un-rel-user', { userGroupsId, userIds: joinIds(userIds) })

// ---- candidates ----

/**
 * Roles by name; with a group id only those not yet linked to it. Each is marked grantable or not for
 * the caller; the super-admin role is left out for a caller who is not a super admin (DESIGN.md §6a).
 */
export const roleCandidates = async (
  roleName: string,
  userGroupId?: number,
): Promise<PageResult<RoleSimple>> => {
  const all = await post<RoleSimple[]>('/role/namelist', {
    roleName: roleName || null,
    ...(userGroupId ? { userGroupId } : {}),
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
  post<PageResult<UserRow>>('/user/list', {
    nickName: nickName || null,
    pageNum,
    pageSize: CANDIDATE_PAGE_SIZE,
  })
