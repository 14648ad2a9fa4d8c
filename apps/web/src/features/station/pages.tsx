import { useSearchParams } from 'react-router'
import { PlaceholderScreen } from '../../lib/ui/screen'

export function StationListPage() {
  return <PlaceholderScreen title="职位管理" summary="职位列表：按职位名称搜索，新建、修改、删除、查看。" />
}

export function StationAddPage() {
  return <PlaceholderScreen title="新建职位" summary="职位名称、类型和所属部门。" />
}

export function StationEditPage() {
  const [params] = useSearchParams()
  return (
    <PlaceholderScreen title={params.get('title') || '修改职位'} summary="修改职位名称、类型和所属部门。" />
  )
}

export function StationViewPage() {
  const [params] = useSearchParams()
  return (
    <PlaceholderScreen
      title={params.get('title') || '查看职位'}
      summary="只读：职位名称、类型和所属部门树。"
    />
  )
}
