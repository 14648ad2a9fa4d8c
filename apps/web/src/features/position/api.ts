import { routes, type RoleSimple, type RouteData, type UserSimple } from '@amg/contract'
import { offeredRolesForCaller } from '../../lib/grantable'
import { request } from '../../lib/route-call'
import { ROLE_LINKS, USER_LINKS, type OwnerLinks } from '../../lib/owner-links'
import { fetchUserCandidates as userCandidates } from '../../lib/user-candidates'
import { usePositionStore, type Position, type PositionQuery } from '../../lib/stores/position-store'

/** POST /position/list, kept in the position store (SPEC.md §3: positionList). */
export const fetchPositions = (query: PositionQuery) => usePositionStore.getState().fetchList(query)

/** Every job title, for the filter select. */
export const fetchStationOptions = () => request(routes.station.simpleList, { body: {} })

/** Sends true when the position is not enabled (status 1), else false (SPEC.md §4). */
export const togglePosition = (position: Pick<Position, 'id' | 'status'>) =>
  request(routes.position.enable, { query: { positionId: position.id, enable: position.status !== 1 } })

export const deletePositions = (ids: number[]) =>
  request(routes.position.delete, { query: { positionIds: ids.join(',') } })

/** '{department full name}-{job title}', as the delete confirmation and the links title name it. */
export const positionName = (p: Pick<Position, 'organizationCompleteName' | 'stationName'>) =>
  `${p.organizationCompleteName ?? ''}-${p.stationName ?? ''}`

/** A role linked to the position, as its roles tab lists it. */
export type LinkedRole = RouteData<typeof routes.position.roleList>['list'][number]
/** A user holding the position, as its users tab lists it. */
export type LinkedUser = RouteData<typeof routes.position.userList>['list'][number]

/** The position's roles (SPEC.md §2: as for groups). */
export const positionRoleLinks: OwnerLinks<LinkedRole, RoleSimple> = {
  kind: ROLE_LINKS,
  list: (positionId, q) =>
    request(routes.position.roleList, {
      query: { positionId, pageNum: q.pageNum, pageSize: q.pageSize, roleName: q.keyword || undefined },
    }),
  /**
   * POST /role/namelist {roleName, positionId}: the roles not yet linked to the position, each marked
   * grantable or not for the caller; the super-admin role is left out for a caller who is not a super
   * admin (DESIGN.md §6a).
   */
  candidates: async (positionId, roleName) => {
    const all = await request(routes.role.nameList, { body: { roleName: roleName || undefined, positionId } })
    const list = offeredRolesForCaller(all)
    return { list, total: list.length }
  },
  link: (positionId, roleIds) => request(routes.position.linkRoles, { body: { positionId, roleIds } }),
  unlink: (positionId, roleIds) => request(routes.position.unlinkRoles, { body: { positionId, roleIds } }),
  calls: { link: routes.position.linkRoles, unlink: routes.position.unlinkRoles },
}

/** The users holding the position; the candidates are those not yet holding it, a page at a time. */
export const positionUserLinks: OwnerLinks<LinkedUser, UserSimple> = {
  kind: USER_LINKS,
  list: (positionId, q) =>
    request(routes.position.userList, {
      query: { id: positionId, pagenum: q.pageNum, pagesize: q.pageSize, nickName: q.keyword || undefined },
    }),
  candidates: (positionId, nickName, pageNum) => userCandidates({ positionId }, nickName, pageNum),
  link: (positionId, userIds, expiresAt = null) =>
    request(routes.position.linkUsers, { body: { positionId, userIds, expiresAt } }),
  unlink: (positionId, userIds) => request(routes.position.unlinkUsers, { body: { positionId, userIds } }),
  calls: { link: routes.position.linkUsers, unlink: routes.position.unlinkUsers },
}
