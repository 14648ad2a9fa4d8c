import { create } from 'zustand'
import { del, get, post, put } from '../http'

/** A job title (SPEC.md §3). */
export interface Station {
  id: number
  stationName: string
  type: number
  orgIds?: number[]
  stationPositionVOS?: { orgId: number; stationId: number }[]
  createTime?: string
  updateTime?: string
}

export interface StationQuery {
  stationName?: string
  pageNum: number
  pageSize: number
  type?: number | null
}

export interface StationInsert {
  stationName: string
  orgIds: number[]
  type: number
}

export interface StationUpdate extends StationInsert {
  id: number
}

/**
 * Station store (SPEC.md §4): fetching the list stores it; adding resets the single station;
 * fetching or updating one stores the result; deleting empties the list; the list-only (simple)
 * fetch stores nothing; a failed action leaves the store unchanged (the error propagates).
 */
export interface StationState {
  stationInfo: Station | null
  stationList: Station[]
  stationTotal: number
  fetchList(query: StationQuery): Promise<{ list: Station[]; total: number }>
  fetchSimpleList(query: { stationName?: string; orgId?: number | null }): Promise<Station[]>
  add(body: StationInsert): Promise<number>
  fetchOne(stationId: number): Promise<Station>
  update(body: StationUpdate): Promise<void>
  remove(stationId: number): Promise<void>
}

export const useStationStore = create<StationState>()((set) => ({
  stationInfo: null,
  stationList: [],
  stationTotal: 0,
  async fetchList(query) {
    const page = await post<{ list: Station[]; total: number }>('/station/list', query)
    set({ stationList: page.list, stationTotal: page.total })
    return page
  },
  async fetchSimpleList(query) {
    return post<Station[]>('/station/list/simple', query)
  },
  async add(body) {
    const id = await post<number>('/station/insert', body)
    set({ stationInfo: null })
    return id
  },
  async fetchOne(stationId) {
    const station = await get<Station>('/station/detail', { stationId })
    set({ stationInfo: station })
    return station
  },
  async update(body) {
    const result = await put<Station | null>('/station/update', body)
    set({ stationInfo: result ?? { ...body } })
  },
  async remove(stationId) {
    await del('/station/delete', { stationId })
    set({ stationList: [], stationTotal: 0 })
  },
}))
