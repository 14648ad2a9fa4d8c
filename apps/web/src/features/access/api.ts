import { routes, type AccessRequestListBody, type EligibilityInsertBody } from '@amg/contract'
import { request } from '../../lib/route-call'

/** The calls of 我的权限 and 审批中心 (DESIGN.md §20). */

export const ACCESS_KEY = ['access'] as const

export const myRoles = () => request(routes.accessRequest.myRoles, {})
export const myEligibilities = () => request(routes.eligibility.list, { body: {} })
export const requestableRoles = (path?: string) =>
  request(routes.accessRequest.requestable, { body: { path: path || null } })
export const listRequests = (body: AccessRequestListBody) => request(routes.accessRequest.list, { body })
export const askForRole = (body: { roleId: number; minutes?: number | null; reason: string }) =>
  request(routes.accessRequest.insert, { body })
export const activate = (body: { id: number; minutes: number; reason?: string; code?: string }) =>
  request(routes.eligibility.activate, { body })
export const cancelRequest = (id: number) => request(routes.accessRequest.cancel, { body: { id } })
export const approveRequest = (id: number, comment?: string) =>
  request(routes.accessRequest.approve, { body: { id, comment: comment || null } })
export const rejectRequest = (id: number, comment: string) =>
  request(routes.accessRequest.reject, { body: { id, comment } })

/** 临时授权管理: every eligibility of the users in the caller's reach, granting and taking one away. */
export const listEligibilities = () => request(routes.eligibility.list, { body: { userId: null } })
export const grantEligibility = (body: EligibilityInsertBody) => request(routes.eligibility.insert, { body })
export const deleteEligibility = (id: number) => request(routes.eligibility.delete, { query: { id } })
