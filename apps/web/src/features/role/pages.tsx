import { useSearchParams } from 'react-router'
import { PlaceholderScreen } from '../../lib/ui/screen'

export function RoleListPage() {
  return (
    <PlaceholderScreen
      title="角色管理"
      summary="角色列表：按名称搜索，按类型和状态筛选，新建、修改、删除、查看。"
    />
  )
}

export function RoleInfoPage() {
  const [params] = useSearchParams()
  return (
    <PlaceholderScreen title={params.get('title') || '角色信息'} summary="角色名称、状态、描述和权限树。" />
  )
}

export function RoleAddPage() {
  return <PlaceholderScreen title="新建角色" summary="角色名称、描述和权限树。" />
}
