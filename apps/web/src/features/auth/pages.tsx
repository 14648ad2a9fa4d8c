import { Col, Row, Typography } from 'antd'
import { Outlet, useSearchParams } from 'react-router'
import { PlaceholderScreen, Screen } from '../../lib/ui/screen'

/** Permission management: the tree on the left, the add or edit form on the right (nested routes). */
export function AuthManagePage() {
  return (
    <Screen title="权限点管理">
      <Row gutter={16}>
        <Col span={8}>
          <Typography.Paragraph type="secondary">权限树（右键菜单：新增、修改、删除）。</Typography.Paragraph>
        </Col>
        <Col span={16}>
          <Outlet />
        </Col>
      </Row>
    </Screen>
  )
}

export function AuthAddFormPage() {
  const [params] = useSearchParams()
  const parent = params.get('parentChName')
  return (
    <PlaceholderScreen title="新增权限" summary={parent ? `在「${parent}」下新增权限。` : '新增权限。'} />
  )
}

export function AuthEditFormPage() {
  return <PlaceholderScreen title="修改权限" summary="修改权限的名称、类型、状态、前端路径和后端接口。" />
}
