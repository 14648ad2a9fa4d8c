import { useQuery } from '@tanstack/react-query'
import { useStationStore } from '../../lib/stores/station-store'

/** What the job title screens share: paths, query keys, the type options, the query id, one job title. */

export const LIST_PATH = '/stationmanage'
export const STATION_LIST_KEY = ['station', 'list'] as const
export const stationDetailKey = (id: number) => ['station', 'detail', id] as const

/** Job title types (SPEC.md §3): 1 普通职位. */
export const STATION_TYPE_OPTIONS = [{ value: 1, label: '普通职位' }]

export const numberParam = (value: string | null) => {
  const n = Number(value)
  return value && Number.isInteger(n) && n > 0 ? n : undefined
}

export interface StationFormValues {
  stationName: string
  type?: number
  orgIds: number[]
}

/** One station (station store fetchOne), with the checked departments from stationPositionVOS. */
export function useStation(id: number | undefined) {
  return useQuery({
    queryKey: stationDetailKey(id ?? 0),
    queryFn: async (): Promise<StationFormValues> => {
      const station = await useStationStore.getState().fetchOne(id!)
      const orgIds = station.stationPositionVOS?.length
        ? [...new Set(station.stationPositionVOS.map((p) => p.orgId))]
        : (station.orgIds ?? [])
      return { stationName: station.stationName, type: station.type, orgIds }
    },
    enabled: id !== undefined,
  })
}
