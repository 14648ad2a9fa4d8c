import { create } from 'zustand'
import { joinFrontEndAccess } from '@amg/contract'
import { call, del, get, post, put } from '../http'

export interface UrlPatternInfo {
  method: string
  uri: string
}

/** A permission node (SPEC.md §3). */
export interface AuthNode {
  code: string
  parentCode?: string | null
  level?: number
  chName: string
  enName: string
  description?: string | null
  seq?: number
  uniqueKey?: string | null
  type: number
  status: number
  frontEndAccessList?: string
  frontEndAccesss?: { frontEndAccess: string }[]
  urlPatternInfos?: UrlPatternInfo[]
  children?: AuthNode[]
  isLeaf?: boolean
}

/** What the add and edit forms hold: front-end paths as a list of items (SPEC.md §3). */
export interface AuthRecord {
  code?: string
  parentCode?: string | null
  level?: number
  chName: string
  enName: string
  description?: string | null
  seq?: number
  uniqueKey?: string | null
  type: number
  status: number
  frontEndAccesss?: { frontEndAccess: string }[]
  urlPatternInfos: UrlPatternInfo[]
}

/** urlMap keyed by method, then by group name (SPEC.md §3). */
export type UrlMap = Record<string, Record<string, { apiOperationValue: string; urls: string[] }[]>>

/** SPEC.md §5: each frontEndAccess string is trimmed and the list is sent comma-joined. */
export function toAuthPayload(record: AuthRecord) {
  const { frontEndAccesss, ...rest } = record
  return {
    ...rest,
    frontEndAccessList: joinFrontEndAccess((frontEndAccesss ?? []).map((i) => i.frontEndAccess)),
  }
}

/**
 * Authorisation store (SPEC.md §4): getting one record stores it as authInfo; getting the list
 * stores authList; update stores the sent record on success; delete clears authInfo on success;
 * the back-end list fetch clears authInfo on success. Failures leave the store unchanged.
 */
export interface AuthState {
  authInfo: AuthNode | AuthRecord | null
  authList: AuthNode[]
  fetchOne(authCode: string): Promise<AuthNode>
  fetchTree(): Promise<AuthNode[]>
  insert(record: AuthRecord): Promise<{ code: string; msg: string }>
  update(record: AuthRecord): Promise<void>
  remove(authCode: string): Promise<void>
  fetchBackEnd(): Promise<UrlMap>
}

export const useAuthStore = create<AuthState>()((set) => ({
  authInfo: null,
  authList: [],
  async fetchOne(authCode) {
    const node = await get<AuthNode>('/auth/detail', { authCode })
    set({ authInfo: node })
    return node
  },
  async fetchTree() {
    const list = await post<AuthNode[]>('/auth/tree', {})
    set({ authList: list })
    return list
  },
  async insert(record) {
    const res = await call<string>({ method: 'POST', url: '/auth/insert', data: toAuthPayload(record) })
    return { code: res.data, msg: res.msg }
  },
  async update(record) {
    await put('/auth/update', toAuthPayload(record))
    set({ authInfo: record })
  },
  async remove(authCode) {
    await del('/auth/delete', { authCode })
    set({ authInfo: null })
  },
  async fetchBackEnd() {
    const data = await get<{ urlMap: UrlMap }>('/auth/get-all-back-end')
    set({ authInfo: null })
    return data.urlMap
  },
}))
