import { useSearchParams } from 'react-router'
import { RouteTabs } from '../../lib/ui/route-tabs'
import { PlaceholderScreen, Screen } from '../../lib/ui/screen'

export function PositionListPage() {
  return (
    <PlaceholderScreen
      title="岗位管理"
      summary="按部门和职位查询岗位，启用/禁用、删除、修改关联，每页 10 条。"
    />
  )
}

/** Position info: tabs roleform (the default) and userform. */
export function PositionInfoPage() {
  const [params] = useSearchParams()
  const title = params.get('title')
  return (
    <Screen title={title ? `修改${title}的关联关系` : '岗位关联'}>
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

export function PositionRoleTab() {
  return <PlaceholderScreen title="关联角色" summary="该岗位关联的角色。" />
}

export function PositionUserTab() {
  return <PlaceholderScreen title="关联用户" summary="该岗位关联的用户。" />
}
