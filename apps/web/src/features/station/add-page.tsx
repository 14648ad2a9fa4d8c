import { useQueryClient } from '@tanstack/react-query'
import { MSG } from '@amg/contract'
import { toastSuccess } from '../../lib/feedback'
import { useBackToList } from '../../lib/list-state'
import { useStationStore } from '../../lib/stores/station-store'
import { Screen } from '../../lib/ui/screen'
import { LIST_PATH, STATION_LIST_KEY, type StationFormValues } from './common'
import { StationForm } from './station-form'

export function StationAddPage() {
  const backToList = useBackToList(LIST_PATH)
  const queryClient = useQueryClient()
  const submit = async (values: StationFormValues) => {
    try {
      await useStationStore.getState().add({
        stationName: values.stationName.trim(),
        type: values.type!,
        orgIds: values.orgIds ?? [],
      })
    } catch {
      return // the HTTP layer has shown the message
    }
    toastSuccess(MSG.created)
    await queryClient.invalidateQueries({ queryKey: STATION_LIST_KEY })
    backToList()
  }
  return (
    <Screen title="新建职位">
      <StationForm mode="add" onSubmit={submit} />
    </Screen>
  )
}
