import { Col, Row, Typography } from 'antd'
import { Outlet, useSearchParams } from 'react-router'
import { RouteTabs } from '../../lib/ui/route-tabs'
import { PlaceholderScreen, Screen } from '../../lib/ui/screen'

/** Department management: the tree on the left, the add form or the edit tabs on the right. */
export function OrgManagePage() {
  return (
    <Screen title="部门管理">
      <Row gutter={16}>
        <Col span={8}>
          <Typography.Paragraph type="secondary">
            部门树（右键菜单：修改、新增子部门、删除）。
          </Typography.Paragraph>
        </Col>
        <Col span={16}>
          <Outlet />
        </Col>
      </Row>
    </Screen>
  )
}

export function OrgAddFormPage() {
  const [params] = useSearchParams()
  const parent = params.get('parentName')
  return (
    <PlaceholderScreen title="新增部门" summary={parent ? `在「${parent}」下新增部门。` : '新增部门。'} />
  )
}

export function OrgEditFormPage() {
  return (
    <RouteTabs
      base="/orgmanage/editform"
      tabs={[
        { key: 'orgbaseinfo', label: '基本信息' },
        { key: 'orgrelstation', label: '关联职位' },
      ]}
    />
  )
}

export function OrgBaseInfoTab() {
  return <PlaceholderScreen title="部门基本信息" summary="部门名称和描述，修改与重置。" />
}

export function OrgRelStationTab() {
  return (
    <PlaceholderScreen title="部门职位关联" summary="该部门关联的职位：按职位名称搜索、分页、移除、关联。" />
  )
}
