import { ROLE_TYPE, roleTypeLabel, type AuthzEffectiveRole } from '@amg/contract'
import { Table, type TableColumnsType } from 'antd'
import { NameWithTag } from './name-with-tag'
import { ViaTags } from './via-tag'

/** Super-admin and built-in roles are tagged; ordinary ones are not. */
const TYPE_COLOR: Record<number, string> = { [ROLE_TYPE.superAdmin]: 'gold', [ROLE_TYPE.builtIn]: 'cyan' }

const columns: TableColumnsType<AuthzEffectiveRole> = [
  {
    title: '角色',
    dataIndex: 'roleName',
    width: 220,
    render: (name: string, role) => (
      <NameWithTag
        name={name}
        tag={
          TYPE_COLOR[role.type] ? { color: TYPE_COLOR[role.type], text: roleTypeLabel(role.type) } : undefined
        }
      />
    ),
  },
  { title: '来源', key: 'via', render: (_, role) => <ViaTags via={role.via} /> },
]

/** The user's enabled roles, each with every link that brings it (GET /authz/effective). */
export function RoleSources({ roles }: { roles: readonly AuthzEffectiveRole[] }) {
  return (
    <Table<AuthzEffectiveRole>
      rowKey="id"
      size="small"
      data-testid="role-sources"
      columns={columns}
      dataSource={[...roles]}
      pagination={false}
      scroll={{ x: 520 }}
      locale={{ emptyText: '该用户没有启用的角色' }}
    />
  )
}
