import { Spin } from 'antd'
import { useSearchParams } from 'react-router'
import { Screen } from '../../lib/ui/screen'
import { numberParam, useStation } from './common'
import { StationForm } from './station-form'

export function StationViewPage() {
  const [params] = useSearchParams()
  const station = useStation(numberParam(params.get('id')))
  return (
    <Screen title={params.get('title') || '查看职位'}>
      <Spin spinning={station.isLoading}>
        <StationForm mode="view" initial={station.data} />
      </Spin>
    </Screen>
  )
}
