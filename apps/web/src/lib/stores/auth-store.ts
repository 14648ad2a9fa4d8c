import { create } from 'zustand'
import { joinFrontEndAccess, routes, type AuthUpdateBody } from '@amg/contract'
import { request, requestEnvelope } from '../route-call'

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
export type AuthRecord = Omit<
  AuthNode,
  'code' | 'frontEndAccessList' | 'urlPatternInfos' | 'children' | 'isLeaf'
> & {
  code?: string
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
    const node: AuthNode = await request(routes.auth.detail, { query: { authCode } })
    set({ authInfo: node })
    return node
  },
  async fetchTree() {
    // the tree's schema is recursive, so its children are typed as unknown
    const list = (await request(routes.auth.tree, { body: {} })) as AuthNode[]
    set({ authList: list })
    return list
  },
  async insert(record) {
    const res = await requestEnvelope(routes.auth.insert, { body: toAuthPayload(record) })
    return { code: res.data, msg: res.msg }
  },
  async update(record) {
    // the edit form always holds the code of the node it edits
    await request(routes.auth.update, { body: toAuthPayload(record) as AuthUpdateBody })
    set({ authInfo: record })
  },
  async remove(authCode) {
    await request(routes.auth.delete, { query: { authCode } })
    set({ authInfo: null })
  },
  async fetchBackEnd() {
    const data: { urlMap: UrlMap } = await request(routes.auth.backEnd, {})
    set({ authInfo: null })
    return data.urlMap
  },
}))
