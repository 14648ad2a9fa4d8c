import { AMS_SERVICE_KEY, routes, type ServiceRow } from '@amg/contract'
import { request } from '../../lib/route-call'
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
 * The services to choose from, ams first. Silent: without it (an older
 * installation may not grant it to 权限分析) the tester asks about this server's own API only.
 */
export const fetchServiceChoices = async (): Promise<ServiceChoice[]> => {
  const page = await request(routes.service.list, { body: { pageNum: 1, pageSize: 1000 } }, { silent: true })
  return page.list.map((s) => ({ value: s.key, label: serviceLabel(s) }))
}

export const AUTHZ_KEY = ['authz-analysis'] as const

/** The user picker's page of users whose nickName contains `nickName`. */
export const searchUsers = (nickName: string, pageNum: number, pageSize: number) =>
  request(routes.user.list, { body: { nickName: nickName || undefined, pageNum, pageSize } })

/**
 * The user's detail: the name of a user opened by link (?userId=). Silent: the page still works
 * without it (an older installation may not grant it to 权限分析), showing the id instead.
 */
export const fetchUserDetail = (userId: number) =>
  request(routes.user.detail, { query: { userId } }, { silent: true })

/** The user's roles with their sources, and the nodes they hold in one service. */
export const fetchEffective = (userId: number, service: string) =>
  request(routes.authz.effective, { query: { userId, service } })

/** Allowed or not, with every chain that allows the call. */
export const explainCall = (userId: number, call: CallQuestion) =>
  request(routes.authz.explain, { body: { userId, ...call } })

/** One page of the active users who may make the call. */
export const fetchWhoCan = (call: CallQuestion, pageNum: number, pageSize: number) =>
  request(routes.authz.whoCan, { body: { ...call, pageNum, pageSize } })

/**
 * The permission tree: the shape the held nodes are drawn in. Silent: without it (an older
 * installation may not grant it to 权限分析) the held nodes are listed flat.
 */
export const fetchTreeShape = async (): Promise<TreeNodeRef[]> =>
  // the contract's recursive node types its children loosely
  (await request(routes.auth.tree, { body: {} }, { silent: true })) as readonly unknown[] as TreeNodeRef[]
