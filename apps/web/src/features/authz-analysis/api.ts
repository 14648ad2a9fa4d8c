import {
  AMS_SERVICE_KEY,
  type AuthzEffectiveResult,
  type AuthzExplainResult,
  type AuthzWhoCanRow,
  type PageResult,
  type ServiceRow,
  type UserDetail,
  type UserRow,
} from '@amg/contract'
import { get, post } from '../../lib/http'
import type { TreeNodeRef } from './format'

/**
 * The call a tester or who-can question is about: a method and a path as the service sees it, in
 * that service's namespace (DESIGN.md §10a; `ams` is this server's own API).
 */
export interface CallQuestion {
  service: string
  method: string
  path: string
}

/** A service the tester may ask about: its key and how the select names it. */
export interface ServiceChoice {
  value: string
  label: string
}

const serviceLabel = (s: Pick<ServiceRow, 'key' | 'name'>) => `${s.name}（${s.key}）`

/** What the select offers without the list: this server's own API alone. */
export const AMS_CHOICE: ServiceChoice = {
  value: AMS_SERVICE_KEY,
  label: serviceLabel({ key: 'ams', name: '本系统' }),
}

/**
 * POST /service/list: the services to choose from, ams first. Silent: without it (an older
 * installation may not grant it to 权限分析) the tester asks about this server's own API only.
 */
export const fetchServiceChoices = async (): Promise<ServiceChoice[]> => {
  const page = await post<PageResult<ServiceRow>>(
    '/service/list',
    { pageNum: 1, pageSize: 1000 },
    { silent: true },
  )
  return page.list.map((s) => ({ value: s.key, label: serviceLabel(s) }))
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

/** GET /authz/effective: the user's roles with their sources, and the nodes they hold in one service. */
export const fetchEffective = (userId: number, service: string) =>
  get<AuthzEffectiveResult>('/authz/effective', { userId, service })

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
