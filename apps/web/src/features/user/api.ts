import { routes, type RouteBody } from '@amg/contract'
import { offeredRolesForCaller } from '../../lib/grantable'
import type { CallOptions } from '../../lib/http'
import { request } from '../../lib/route-call'

/** The user calls of SPEC.md §7 and DESIGN.md §5. */

export const listUsers = (q: RouteBody<typeof routes.user.list>) =>
  request(routes.user.list, {
    body: { ...q, nickName: q.nickName || undefined, keyword: q.keyword || undefined },
  })

/** Without a password the server sets the configured initial password. Answers the new id. */
export const insertUser = (body: RouteBody<typeof routes.user.insert>) =>
  request(routes.user.insert, { body })

export const userDetail = (userId: number, opts?: CallOptions) =>
  request(routes.user.detail, { query: { userId } }, opts)

export const updateUser = (body: RouteBody<typeof routes.user.update>, opts?: CallOptions) =>
  request(routes.user.update, { body }, opts)

export const deleteUser = (userId: number, opts?: CallOptions) =>
  request(routes.user.delete, { query: { userId } }, opts)

/**
 * PUT /user/update with the user's stored fields and a change: the update takes the whole user, so
 * they are read first (a list row may be older than the record) and mobile and realName stay.
 */
async function updateStored(
  userId: number,
  change: { status?: number; password?: string },
  opts?: CallOptions,
) {
  const user = await userDetail(userId, opts)
  await updateUser(
    {
      id: user.id,
      nickName: user.nickName,
      realName: user.realName,
      mobile: user.mobile,
      status: change.status ?? user.status,
      ...(change.password ? { password: change.password } : {}),
    },
    opts,
  )
}

/** 冻结 (2) or 启用 (1) one user. */
export const setUserStatus = (userId: number, status: number, opts?: CallOptions) =>
  updateStored(userId, { status }, opts)

/** Sets a new password for another user (one's own changes only with the old one). */
export const resetUserPassword = (userId: number, password: string, opts?: CallOptions) =>
  updateStored(userId, { password }, opts)

export const changeOwnPassword = (oldPassword: string, newPassword: string) =>
  request(routes.session.changePassword, { body: { oldPassword, newPassword } })

// -- roles --------------------------------------------------------------------------------------

export const userRoles = (userId: number, p: { pageNum: number; pageSize: number; roleName?: string }) =>
  request(routes.user.roleList, {
    query: { userId, pageNum: p.pageNum, pageSize: p.pageSize, roleName: p.roleName || undefined },
  })

/**
 * Roles the user does not hold yet (the "link roles" popover), each marked grantable or not for the
 * caller; the super-admin role is left out for a caller who is not a super admin (DESIGN.md §6a).
 */
export const roleCandidates = async (userId: number, roleName: string) =>
  offeredRolesForCaller(
    await request(routes.role.nameList, { body: { roleName: roleName || undefined, userId } }),
  )

export const linkRoles = (
  userId: number,
  roleIds: number[],
  opts?: CallOptions,
  expiresAt: string | null = null,
) => request(routes.user.linkRoles, { body: { id: userId, roleIds: roleIds.join(','), expiresAt } }, opts)

/** Every role the batch 分配角色 may offer, each marked grantable or not for the caller. */
export const assignableRoles = async () =>
  offeredRolesForCaller(await request(routes.role.nameList, { body: {} }))

export const unlinkRole = (userId: number, roleId: number) =>
  request(routes.user.unlinkRole, { body: { roleId, userId } })

// -- groups -------------------------------------------------------------------------------------

export const userGroups = (userId: number, p: { pageNum: number; pageSize: number; groupName?: string }) =>
  request(routes.user.groupList, {
    query: { userId, pageNum: p.pageNum, pageSize: p.pageSize, groupName: p.groupName || undefined },
  })

/** Groups the user is not in yet, each marked grantable or not for the caller (the roles it carries). */
export const groupCandidates = (userId: number, groupName: string) =>
  request(routes.userGroup.nameList, { body: { groupName: groupName || undefined, userId } })

/** SPEC.md §7 spells the field `greoupIds`. */
export const linkGroups = (userId: number, groupIds: number[], expiresAt: string | null = null) =>
  request(routes.user.linkGroups, { body: { id: userId, greoupIds: groupIds.join(','), expiresAt } })

export const unlinkGroup = (userId: number, groupId: number) =>
  request(routes.user.unlinkGroup, { body: { groupId, userId } })

// -- positions ----------------------------------------------------------------------------------

/** SPEC.md §2: the position-by-user list loads 1000 rows per page for filtering. */
export const USER_POSITION_PAGE_SIZE = 1000

export const userPositions = (userId: number, p: { pageNum: number; orgId?: number; stationId?: number }) =>
  request(routes.user.positionList, {
    query: {
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
  request(routes.position.nameList, { body: { orgId, stationId, userId } })

/** Positions of a department and those below it (all without one): the new user form's choice. */
export const positionOptions = (orgId?: number) => request(routes.position.nameList, { body: { orgId } })

export const linkPositions = (userId: number, positionIds: number[], expiresAt: string | null = null) =>
  request(routes.user.linkPositions, { body: { id: userId, positionIds: positionIds.join(','), expiresAt } })

export const unlinkPosition = (userId: number, positionId: number) =>
  request(routes.user.unlinkPosition, { body: { positionId, userId } })

/** Job titles for the filter: all of them, or those linked to the chosen department. */
export const stationOptions = (orgId?: number) =>
  request(routes.station.simpleList, { body: orgId ? { orgId, linked: true } : {} })

// -- two-step sign-in (DESIGN.md §14) ----------------------------------------------------------

export const mfaSetup = () => request(routes.mfa.setup, { body: {} })
export const mfaEnable = (code: string) => request(routes.mfa.enable, { body: { code } })
export const mfaDisable = (password: string, code: string) =>
  request(routes.mfa.disable, { body: { password, code } })
export const mfaReset = (userId: number) => request(routes.mfa.reset, { query: { userId } })

// DESIGN.md §23: passkeys, one's own (no userId) or, for an administrator, another user's
export const passkeyList = (userId?: number) =>
  request(routes.passkey.list, { body: userId ? { userId } : {} })
export const passkeyRename = (id: number, name: string, userId?: number) =>
  request(routes.passkey.update, { body: { id, name, ...(userId ? { userId } : {}) } })
export const passkeyDelete = (id: number, userId?: number) =>
  request(routes.passkey.delete, { query: { id, ...(userId ? { userId } : {}) } })
