import type {
  AuthzEffectiveResult,
  AuthzExplainResult,
  AuthzWhoCanRow,
  PageResult,
  UserDetail,
  UserRow,
} from '@amg/contract'
import { get, post } from '../../lib/http'
import type { TreeNodeRef } from './format'

/** The call a tester or who-can question is about: a method and a path as the service sees it. */
export interface CallQuestion {
  method: string
  path: string
}

export const AUTHZ_KEY = ['authz-analysis'] as const

/** POST /user/list: the user picker's page of users whose nickName contains `nickName`. */
export const searchUsers = (nickName: string, pageNum: number, pageSize: number) =>
  post<PageResult<UserRow>>('/user/list', { nickName: nickName || undefined, pageNum, pageSize })

/**
 * GET /user/detail: the name of a user opened by link (?userId=). Silent: the page still works
 * without it (an older installation may not grant it to 权限分析), showing the id instead.
 */
export const fetchUserDetail = (userId: number) =>
  get<UserDetail>('/user/detail', { userId }, { silent: true })

/** GET /authz/effective: the user's roles with their sources, and the nodes they hold. */
export const fetchEffective = (userId: number) => get<AuthzEffectiveResult>('/authz/effective', { userId })

/** POST /authz/explain: allowed or not, with every chain that allows the call. */
export const explainCall = (userId: number, call: CallQuestion) =>
  post<AuthzExplainResult>('/authz/explain', { userId, ...call })

/** POST /authz/who-can: one page of the active users who may make the call. */
export const fetchWhoCan = (call: CallQuestion, pageNum: number, pageSize: number) =>
  post<PageResult<AuthzWhoCanRow>>('/authz/who-can', { ...call, pageNum, pageSize })

/**
 * POST /auth/tree: the shape the held nodes are drawn in. Silent: without it (an older
 * installation may not grant it to 权限分析) the held nodes are listed flat.
 */
export const fetchTreeShape = () => post<TreeNodeRef[]>('/auth/tree', {}, { silent: true })
