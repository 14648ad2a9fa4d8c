import type { PageResult, RoleSimple } from '@amg/contract'
import { offeredRolesForCaller } from '../../lib/grantable'
import { del, get, patch, post, put } from '../../lib/http'
import { fetchUserCandidates as userCandidates } from '../../lib/user-candidates'
import { usePositionStore, type Position, type PositionQuery } from '../../lib/stores/position-store'

/** POST /position/list, kept in the position store (SPEC.md §3: positionList). */
export const fetchPositions = (query: PositionQuery): Promise<PageResult<Position>> =>
  usePositionStore.getState().fetchList(query)

export interface StationOption {
  id: number
  stationName: string
  type: number
}

/** POST /station/list/simple {}: every job title, for the filter select. */
export const fetchStationOptions = () => post<StationOption[]>('/station/list/simple', {})

/** PATCH /position/enable: true when the position is not enabled (status 1), else false (SPEC.md §4). */
export const togglePosition = (position: Pick<Position, 'id' | 'status'>) =>
  patch('/position/enable', undefined, {
    params: { positionId: position.id, enable: position.status !== 1 },
  })

export const deletePositions = (ids: number[]) => del('/position/delete', { positionIds: ids.join(',') })

/** '{department full name}-{job title}', as the delete confirmation and the links title name it. */
export const positionName = (p: Pick<Position, 'organizationCompleteName' | 'stationName'>) =>
  `${p.organizationCompleteName ?? ''}-${p.stationName ?? ''}`

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

export type { UserSimple as UserCandidate } from '@amg/contract'

export const fetchPositionRoles = (
  positionId: number,
  q: { pageNum: number; pageSize: number; keyword: string },
) =>
  post<PageResult<LinkedRole>>('/rel/position/rolelist', undefined, {
    params: { positionId, pageNum: q.pageNum, pageSize: q.pageSize, roleName: q.keyword || undefined },
  })

/**
 * POST /role/namelist {roleName, positionId}: the roles not yet linked to the position, each marked
 * grantable or not for the caller; the super-admin role is left out for a caller who is not a super
 * admin (DESIGN.md §6a).
 */
export const fetchRoleCandidates = async (positionId: number, roleName: string) => {
  const all = await post<RoleSimple[]>('/role/namelist', { roleName: roleName || undefined, positionId })
  const list = offeredRolesForCaller(all)
  return { list, total: list.length }
}

export const linkRoles = (positionId: number, roleIds: number[]) =>
  put('/rel/position-rel-role', { positionId, roleIds })
export const unlinkRoles = (positionId: number, roleIds: number[]) =>
  put('/rel/position-un-rel-role', { positionId, roleIds })

export const fetchPositionUsers = (
  positionId: number,
  q: { pageNum: number; pageSize: number; keyword: string },
) =>
  get<PageResult<LinkedUser>>('/rel/position/userlist', {
    id: positionId,
    pagenum: q.pageNum,
    pagesize: q.pageSize,
    nickName: q.keyword || undefined,
  })

/** The users not yet holding the position, one page of the "link users" popover at a time. */
export const fetchUserCandidates = (positionId: number, nickName: string, pageNum: number) =>
  userCandidates({ positionId }, nickName, pageNum)

export const linkUsers = (positionId: number, userIds: number[]) =>
  put('/rel/position-rel-user', { positionId, userIds })
export const unlinkUsers = (positionId: number, userIds: number[]) =>
  put('/rel/position-un-rel-user', { positionId, userIds })
