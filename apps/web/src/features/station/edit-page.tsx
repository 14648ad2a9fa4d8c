import { useQueryClient } from '@tanstack/react-query'
import { Spin } from 'antd'
import { useSearchParams } from 'react-router'
import { MSG } from '@amg/contract'
import { toastSuccess } from '../../lib/feedback'
import { useBackToList } from '../../lib/list-state'
import { useStationStore } from '../../lib/stores/station-store'
import { Screen } from '../../lib/ui/screen'
import { LIST_PATH, numberParam, useStation, type StationFormValues } from './common'
import { StationForm } from './station-form'

export function StationEditPage() {
  const [params] = useSearchParams()
  const id = numberParam(params.get('id'))
  const backToList = useBackToList(LIST_PATH)
  const queryClient = useQueryClient()
  const station = useStation(id)
  const submit = async (values: StationFormValues) => {
    if (id === undefined) return
    try {
      await useStationStore.getState().update({
        id,
        stationName: values.stationName.trim(),
        type: values.type!,
        orgIds: values.orgIds ?? [],
      })
    } catch {
      return
    }
    toastSuccess(MSG.updated)
    await queryClient.invalidateQueries({ queryKey: ['station'] })
    backToList()
  }
  return (
    <Screen title={params.get('title') || '修改职位'}>
      <Spin spinning={station.isLoading}>
        <StationForm mode="edit" initial={station.data} onSubmit={submit} />
      </Spin>
    </Screen>
  )
}
