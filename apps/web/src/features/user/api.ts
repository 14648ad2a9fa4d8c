import type {
  PageResult,
  PositionSimple,
  RoleSimple,
  StationSimple,
  UserDetail,
  UserGroupRow,
  UserGroupSimple,
  UserPositionRow,
  UserRoleRow,
  UserRow,
} from '@amg/contract'
import { offeredRolesForCaller } from '../../lib/grantable'
import { del, get, post, put } from '../../lib/http'

/** The user calls of SPEC.md §7 and DESIGN.md §5. */

export interface UserQuery {
  nickName?: string
  pageNum: number
  pageSize: number
}

export const listUsers = (q: UserQuery) =>
  post<PageResult<UserRow>>('/user/list', { ...q, nickName: q.nickName || undefined })

export interface UserInsert {
  nickName: string
  status?: number
  password?: string
  mobile?: string
  realName?: string
}

/** Without a password the server sets the configured initial password. Answers the new id. */
export const insertUser = (body: UserInsert) => post<number>('/user/insert', body)

export const userDetail = (userId: number) => get<UserDetail>('/user/detail', { userId })

export interface UserUpdate {
  id: number
  nickName: string
  mobile: string | null
  realName: string | null
  password?: string
  status: number
}

export const updateUser = (body: UserUpdate) => put<null>('/user/update', body)

export const deleteUser = (userId: number) => del<null>('/user/delete', { userId })

export const changeOwnPassword = (oldPassword: string, newPassword: string) =>
  put<null>('/user/password', { oldPassword, newPassword })

// -- roles --------------------------------------------------------------------------------------

export const userRoles = (userId: number, p: { pageNum: number; pageSize: number; roleName?: string }) =>
  post<PageResult<UserRoleRow>>('/rel/user/rolelist', undefined, {
    params: { userId, pageNum: p.pageNum, pageSize: p.pageSize, roleName: p.roleName || undefined },
  })

/**
 * Roles the user does not hold yet (the "link roles" popover), each marked grantable or not for the
 * caller; the super-admin role is left out for a caller who is not a super admin (DESIGN.md §6a).
 */
export const roleCandidates = async (userId: number, roleName: string) =>
  offeredRolesForCaller(
    await post<RoleSimple[]>('/role/namelist', { roleName: roleName || undefined, userId }),
  )

export const linkRoles = (userId: number, roleIds: number[]) =>
  put<null>('/rel/user-rel-role', { id: userId, roleIds: roleIds.join(',') })

export const unlinkRole = (userId: number, roleId: number) =>
  put<null>('/rel/user-un-rel-role', { roleId, userId })

// -- groups -------------------------------------------------------------------------------------

export const userGroups = (userId: number, p: { pageNum: number; pageSize: number; groupName?: string }) =>
  post<PageResult<UserGroupRow>>('/rel/user/grouplist', undefined, {
    params: { userId, pageNum: p.pageNum, pageSize: p.pageSize, groupName: p.groupName || undefined },
  })

/** Groups the user is not in yet, each marked grantable or not for the caller (the roles it carries). */
export const groupCandidates = (userId: number, groupName: string) =>
  post<UserGroupSimple[]>('/user_groups/namelist', { groupName: groupName || undefined, userId })

/** SPEC.md §7 spells the field `greoupIds`. */
export const linkGroups = (userId: number, groupIds: number[]) =>
  put<null>('/rel/user-rel-groups', { id: userId, greoupIds: groupIds.join(',') })

export const unlinkGroup = (userId: number, groupId: number) =>
  put<null>('/rel/user-un-rel-groups', { groupId, userId })

// -- positions ----------------------------------------------------------------------------------

/** SPEC.md §2: the position-by-user list loads 1000 rows per page for filtering. */
export const USER_POSITION_PAGE_SIZE = 1000

export const userPositions = (userId: number, p: { pageNum: number; orgId?: number; stationId?: number }) =>
  post<PageResult<UserPositionRow>>('/rel/user/positionlist', undefined, {
    params: {
      userId,
      pageNum: p.pageNum,
      pageSize: USER_POSITION_PAGE_SIZE,
      orgId: p.orgId,
      stationId: p.stationId,
    },
  })

/**
 * Positions the user does not hold, in a department (and its sub-departments) and/or of a job title,
 * each marked grantable or not for the caller (the roles it carries).
 */
export const positionCandidates = (userId: number, orgId?: number, stationId?: number) =>
  post<PositionSimple[]>('/position/namelist', { orgId, stationId, userId })

export const linkPositions = (userId: number, positionIds: number[]) =>
  put<null>('/rel/user-rel-position', { id: userId, positionIds: positionIds.join(',') })

export const unlinkPosition = (userId: number, positionId: number) =>
  put<null>('/rel/user-un-rel-position', { positionId, userId })

/** Job titles for the filter: all of them, or those linked to the chosen department. */
export const stationOptions = (orgId?: number) =>
  post<StationSimple[]>('/station/list/simple', orgId ? { orgId, linked: true } : {})
