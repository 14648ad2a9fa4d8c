import type { AuthzEffectiveRole } from '@amg/contract'
import { Table, Tag, type TableColumnsType } from 'antd'
import { ViaTags } from './via-tag'

const TYPE_TAG: Record<number, { color: string; text: string }> = {
  1: { color: 'gold', text: '超级管理员' },
  2: { color: 'cyan', text: '内置角色' },
}

const columns: TableColumnsType<AuthzEffectiveRole> = [
  {
    title: '角色',
    dataIndex: 'roleName',
    width: 220,
    render: (name: string, role) => (
      <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}>
        <span>{name}</span>
        {TYPE_TAG[role.type] ? (
          <Tag color={TYPE_TAG[role.type].color} style={{ marginInlineEnd: 0 }}>
            {TYPE_TAG[role.type].text}
          </Tag>
        ) : null}
      </span>
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
