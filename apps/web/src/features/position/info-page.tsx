import { Button } from 'antd'
import { useSearchParams } from 'react-router'
import { useBackToList } from '../../lib/list-state'
import { RouteTabs } from '../../lib/ui/route-tabs'
import { Screen } from '../../lib/ui/screen'
import { POSITION_LIST_PATH, linksTitle } from './common'

/** The page title from the query: '修改{department-jobtitle}的关联关系' (also accepts the bare name). */
function positionInfoTitle(title: string | null) {
  if (!title) return '岗位关联'
  return /^修改.*的关联关系$/.test(title) ? title : linksTitle(title)
}

/** Position info: tabs roleform (the default) and userform (SPEC.md §2). */
export function PositionInfoPage() {
  const [params] = useSearchParams()
  const backToList = useBackToList(POSITION_LIST_PATH)
  return (
    <Screen title={positionInfoTitle(params.get('title'))} extra={<Button onClick={backToList}>返回</Button>}>
      <RouteTabs
        base="/positionmanage/positioninfo"
        tabs={[
          { key: 'roleform', label: '关联角色' },
          { key: 'userform', label: '关联用户' },
        ]}
      />
    </Screen>
  )
}
