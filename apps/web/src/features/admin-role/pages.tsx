import { useSearchParams } from 'react-router'
import { PlaceholderScreen } from '../../lib/ui/screen'

export function AdminRoleListPage() {
  return (
    <PlaceholderScreen
      title="内置角色管理"
      summary="超级管理员与内置角色：按名称搜索，按类型和状态筛选，新建、修改、删除、查看。"
    />
  )
}

export function AdminRoleAddPage() {
  return <PlaceholderScreen title="新建内置角色" summary="角色名称、类型、描述和权限树。" />
}

export function AdminRoleInfoPage() {
  const [params] = useSearchParams()
  return <PlaceholderScreen title={params.get('title') || '内置角色信息'} summary="修改或查看内置角色。" />
}
