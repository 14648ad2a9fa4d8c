import { create } from 'zustand'
import { post } from '../http'

/** A position: a department plus a job title (SPEC.md §3). */
export interface Position {
  id: number
  stationId: number
  orgId: number
  organizationCompleteName?: string
  stationName?: string
  status: number
  type?: number
}

export interface PositionQuery {
  pageNum: number
  pageSize: number
  stationId?: number | null
  orgId?: number | null
}

/** Position store (SPEC.md §3): positioninfo (the one being edited) and positionList. */
export interface PositionState {
  positioninfo: Position | null
  positionList: Position[]
  positionTotal: number
  fetchList(query: PositionQuery): Promise<{ list: Position[]; total: number }>
  setPositionInfo(position: Position | null): void
}

export const usePositionStore = create<PositionState>()((set) => ({
  positioninfo: null,
  positionList: [],
  positionTotal: 0,
  async fetchList(query) {
    const page = await post<{ list: Position[]; total: number }>('/position/list', query)
    set({ positionList: page.list, positionTotal: page.total })
    return page
  },
  setPositionInfo(position) {
    set({ positioninfo: position })
  },
}))
