import { create } from 'zustand'
import { routes, type OrgTreeNode, type RouteBody, type RouteData } from '@amg/contract'
import { request } from '../route-call'
import type { CallOptions } from '../http'

/**
 * A department of the tree (SPEC.md §3). The tree's schema is recursive, so the contract declares its
 * static type beside it (OrgTreeNode) rather than the route's answer carrying it.
 */
export type Org = OrgTreeNode
/** One department as GET /org/detail answers it, with its job titles. */
export type OrgDetail = RouteData<typeof routes.org.detail>
export type OrgInsert = RouteBody<typeof routes.org.insert>
export type OrgUpdate = RouteBody<typeof routes.org.update>

/**
 * Organisation store (SPEC.md §3, §4): orginfo and orgList. After an update or delete the cached
 * list is reset to empty; after creation the current organisation is cleared. Failures change nothing.
 */
export interface OrgState {
  orginfo: OrgDetail | null
  orgList: Org[]
  fetchTree(): Promise<Org[]>
  fetchOne(orgId: number, opts?: CallOptions): Promise<OrgDetail>
  create(body: OrgInsert): Promise<number>
  update(body: OrgUpdate): Promise<void>
  remove(orgId: number): Promise<void>
}

export const useOrgStore = create<OrgState>()((set) => ({
  orginfo: null,
  orgList: [],
  async fetchTree() {
    const list = (await request(routes.org.tree, { query: {} })) as Org[]
    set({ orgList: list })
    return list
  },
  async fetchOne(orgId, opts) {
    const org = await request(routes.org.detail, { query: { orgId } }, opts)
    set({ orginfo: org })
    return org
  },
  async create(body) {
    const id = await request(routes.org.insert, { body })
    set({ orginfo: null })
    return id
  },
  async update(body) {
    await request(routes.org.update, { body })
    set({ orgList: [] })
  },
  async remove(orgId) {
    await request(routes.org.delete, { query: { orgId } })
    set({ orgList: [] })
  },
}))
