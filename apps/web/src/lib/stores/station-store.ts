import { create } from 'zustand'
import { routes, type RouteBody, type RouteData } from '@amg/contract'
import { request } from '../route-call'

/** A job title as the list shows it (SPEC.md §3). */
export type Station = RouteData<typeof routes.station.list>['list'][number]
/** One job title as GET /station/detail answers it, with its departments. */
export type StationDetail = RouteData<typeof routes.station.detail>
/** A job title of the list-only fetch (the filter select, the "link job titles" popover). */
export type StationSimple = RouteData<typeof routes.station.simpleList>[number]
export type StationQuery = RouteBody<typeof routes.station.list>
export type StationSimpleQuery = RouteBody<typeof routes.station.simpleList>
export type StationInsert = RouteBody<typeof routes.station.insert>
export type StationUpdate = RouteBody<typeof routes.station.update>

/**
 * Station store (SPEC.md §4): fetching the list stores it; adding resets the single station;
 * fetching or updating one stores the result; deleting empties the list; the list-only (simple)
 * fetch stores nothing; a failed action leaves the store unchanged (the error propagates).
 */
export interface StationState {
  /** the job title last fetched, or the one last sent when its update answered no record */
  stationInfo: StationDetail | StationUpdate | null
  stationList: Station[]
  stationTotal: number
  fetchList(query: StationQuery): Promise<{ list: Station[]; total: number }>
  fetchSimpleList(query: StationSimpleQuery): Promise<StationSimple[]>
  add(body: StationInsert): Promise<number>
  fetchOne(stationId: number): Promise<StationDetail>
  update(body: StationUpdate): Promise<void>
  remove(stationId: number): Promise<void>
}

export const useStationStore = create<StationState>()((set) => ({
  stationInfo: null,
  stationList: [],
  stationTotal: 0,
  async fetchList(query) {
    const page = await request(routes.station.list, { body: query })
    set({ stationList: page.list, stationTotal: page.total })
    return page
  },
  async fetchSimpleList(query) {
    return request(routes.station.simpleList, { body: query })
  },
  async add(body) {
    const id = await request(routes.station.insert, { body })
    set({ stationInfo: null })
    return id
  },
  async fetchOne(stationId) {
    const station = await request(routes.station.detail, { query: { stationId } })
    set({ stationInfo: station })
    return station
  },
  async update(body) {
    // the contract's answer carries no data; a record, should the server send one, is kept instead
    const result = (await request(routes.station.update, { body })) as StationDetail | null
    set({ stationInfo: result ?? { ...body } })
  },
  async remove(stationId) {
    await request(routes.station.delete, { query: { stationId } })
    set({ stationList: [], stationTotal: 0 })
  },
}))
