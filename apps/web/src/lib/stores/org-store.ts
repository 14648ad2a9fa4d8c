import { create } from 'zustand'
import { del, get, post, put } from '../http'

/** A department (SPEC.md §3). */
export interface Org {
  id: number
  organizationName: string
  description?: string | null
  parent?: number | null
  children?: Org[]
  stationIds?: number[]
  positionSimpleDTOS?: { stationId: number; stationName: string }[]
  organizationCompleteName?: string
}

export interface OrgInsert {
  organizationName: string
  description?: string
  parent: number
  stationIds?: number[]
}

export interface OrgUpdate {
  id: number
  organizationName: string
  description?: string
  positionSimpleDTOS?: { stationId: number; stationName?: string }[]
}

/**
 * Organisation store (SPEC.md §3, §4): orginfo and orgList. After an update or delete the cached
 * list is reset to empty; after creation the current organisation is cleared. Failures change nothing.
 */
export interface OrgState {
  orginfo: Org | null
  orgList: Org[]
  fetchTree(): Promise<Org[]>
  fetchOne(orgId: number): Promise<Org>
  create(body: OrgInsert): Promise<number>
  update(body: OrgUpdate): Promise<void>
  remove(orgId: number): Promise<void>
}

export const useOrgStore = create<OrgState>()((set) => ({
  orginfo: null,
  orgList: [],
  async fetchTree() {
    const list = await get<Org[]>('/org/tree')
    set({ orgList: list })
    return list
  },
  async fetchOne(orgId) {
    const org = await get<Org>('/org/detail', { orgId })
    set({ orginfo: org })
    return org
  },
  async create(body) {
    const id = await post<number>('/org/insert', body)
    set({ orginfo: null })
    return id
  },
  async update(body) {
    await put('/org/update', body)
    set({ orgList: [] })
  },
  async remove(orgId) {
    await del('/org/delete', { orgId })
    set({ orgList: [] })
  },
}))
