import { Tabs } from 'antd'
import { PlaceholderScreen, Screen } from '../../lib/ui/screen'

export function UserGroupListPage() {
  return (
    <PlaceholderScreen
      title="用户组管理"
      summary="用户组列表：按名称和描述搜索，按状态筛选，新建、修改、启用/禁用、删除、查看。"
    />
  )
}

export function UserGroupAddPage() {
  return <PlaceholderScreen title="新建用户组" summary="基本信息、关联用户、关联角色三个折叠区。" />
}

/** Group info: three tabs, usergroupbaseinfo by default (SPEC.md §2). */
export function UserGroupInfoPage() {
  return (
    <Screen title="用户组信息">
      <Tabs
        defaultActiveKey="usergroupbaseinfo"
        items={[
          { key: 'usergroupbaseinfo', label: '基本信息', children: '用户组名称、启用状态和描述。' },
          { key: 'usergrouprolerel', label: '关联角色', children: '该用户组关联的角色。' },
          { key: 'usergroupuserrel', label: '关联用户', children: '该用户组关联的用户。' },
        ]}
      />
    </Screen>
  )
}
