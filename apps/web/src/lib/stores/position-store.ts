import { create } from 'zustand'
import { routes, type RouteBody, type RouteData } from '@amg/contract'
import { request } from '../route-call'

/** A position: a department plus a job title (SPEC.md §3), as the position list shows it. */
export type Position = RouteData<typeof routes.position.list>['list'][number]
export type PositionQuery = RouteBody<typeof routes.position.list>

/** Position store (SPEC.md §3): positioninfo (the one being edited) and positionList. */
export interface PositionState {
  positioninfo: Position | null
  positionList: Position[]
  positionTotal: number
  fetchList(query: PositionQuery): Promise<RouteData<typeof routes.position.list>>
  setPositionInfo(position: Position | null): void
}

export const usePositionStore = create<PositionState>()((set) => ({
  positioninfo: null,
  positionList: [],
  positionTotal: 0,
  async fetchList(query) {
    const page = await request(routes.position.list, { body: query })
    set({ positionList: page.list, positionTotal: page.total })
    return page
  },
  setPositionInfo(position) {
    set({ positioninfo: position })
  },
}))
