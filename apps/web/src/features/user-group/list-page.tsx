import { SearchOutlined } from '@ant-design/icons'
import { useEffect } from 'react'
import { useNavigate } from 'react-router'
import { Button, Form, Input, Select, Space, Tag, type TableColumnsType } from 'antd'
import dayjs from '../../lib/dayjs'
import { routes, type UserGroupListRow } from '@amg/contract'
import { DeleteLink, ListTable, useListScreen, useToggleRow } from '../../components/list-screen'
import { useCanCall } from '../../lib/can-call'
import { useSession } from '../../lib/session-store'
import { Screen } from '../../lib/ui/screen'
import { deleteGroup, listGroups, toggleEnable, type GroupFilters } from './api'
import { GROUP_STATUS_OPTIONS, groupStatusText } from './group-fields'
import { ExportButton } from '../../components/export-button'

export const GROUP_LIST_PATH = '/usergroupmanage'
export const GROUPS_KEY = ['user-groups'] as const

const formatTime = (value: string | Date | null | undefined) =>
  value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : ''

/** /usergroupmanage/usergroupinfo: edit (isShow) or view (isDisable) one group. */
export const groupInfoPath = (id: number, mode: 'edit' | 'view') =>
  `${GROUP_LIST_PATH}/usergroupinfo?isDisable=${mode === 'view'}&id=${id}&isShow=${mode === 'edit'}`

/** Search and status filter in the URL query (lib/list-state.ts). */
const GROUP_LIST_FILTERS = { groupName: 'text', description: 'text', status: 'id' } as const

/** The group list (SPEC.md §2): search by name and description, status filter, actions, 10 per page. */
export function GroupListScreen() {
  const navigate = useNavigate()
  const showOperatorUser = useSession((s) => s.showOperatorUser)
  const [form] = Form.useForm<GroupFilters>()
  const screen = useListScreen({
    filters: GROUP_LIST_FILTERS,
    queryKey: GROUPS_KEY,
    fetch: ({ filters, pageNum, pageSize }) => listGroups(filters, pageNum, pageSize),
  })
  const { list, refresh, removeRow } = screen
  const { filters } = list
  // The form shows what the list was searched with, also after back, a reload or a shared link.
  useEffect(() => form.setFieldsValue(filters), [form, filters])
  const toggleButton = useToggleRow(toggleEnable, refresh, routes.userGroup.enable)
  const canEdit = useCanCall(routes.userGroup.update)
  const canAdd = useCanCall(routes.userGroup.insert)

  const search = (values: GroupFilters) =>
    list.setFilters({
      groupName: values.groupName?.trim() ?? '',
      description: values.description?.trim() ?? '',
      status: values.status ?? undefined,
    })

  const columns: TableColumnsType<UserGroupListRow> = [
    { title: '用户组名称', dataIndex: 'groupName', key: 'groupName' },
    {
      title: '状态',
      dataIndex: 'status',
      key: 'status',
      width: 90,
      render: (status: number) => (
        <Tag color={status === 1 ? 'green' : 'default'}>{groupStatusText(status)}</Tag>
      ),
    },
    { title: '描述', dataIndex: 'description', key: 'description', ellipsis: true },
    {
      title: '创建时间',
      dataIndex: 'createTime',
      key: 'createTime',
      width: 180,
      render: formatTime,
    },
    {
      title: '更新时间',
      dataIndex: 'updateTime',
      key: 'updateTime',
      width: 180,
      render: formatTime,
    },
    ...(showOperatorUser
      ? [
          {
            title: '创建人',
            key: 'createUser',
            width: 110,
            render: (_: unknown, row: UserGroupListRow) => row.createUserVo?.nickName ?? '',
          },
          {
            title: '更新人',
            key: 'updateUser',
            width: 110,
            render: (_: unknown, row: UserGroupListRow) => row.updateUserVo?.nickName ?? '',
          },
        ]
      : []),
    {
      title: '操作',
      key: 'actions',
      width: 240,
      render: (_: unknown, row: UserGroupListRow) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => navigate(groupInfoPath(row.id, 'view'))}>
            查看
          </Button>
          {canEdit && (
            <Button type="link" size="small" onClick={() => navigate(groupInfoPath(row.id, 'edit'))}>
              修改
            </Button>
          )}
          {toggleButton(row)}
          <DeleteLink
            title={`确定要删除用户组“${row.groupName}”吗？`}
            onConfirm={() => removeRow(() => deleteGroup(row.id))}
            call={routes.userGroup.delete}
          />
        </Space>
      ),
    },
  ]

  return (
    <Screen
      title="用户组管理"
      description="用户组把多个用户归在一起：组内用户获得该组关联的角色。用户组停用后，组内用户不再因它获得角色。"
    >
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
        <Form.Item label="用户组名称" name="groupName">
          <Input allowClear placeholder="按用户组名称搜索" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item label="描述" name="description">
          <Input allowClear placeholder="按描述搜索" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item label="状态" name="status">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 120 }}
            options={GROUP_STATUS_OPTIONS.map((o) => ({ ...o }))}
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              查询
            </Button>
            <Button
              onClick={() => {
                form.resetFields()
                search({})
              }}
            >
              重置
            </Button>
            {canAdd && (
              <Button type="primary" onClick={() => navigate(`${GROUP_LIST_PATH}/addusergroup`)}>
                新建
              </Button>
            )}
            <ExportButton
              route={routes.groupExport.groupExport}
              params={{
                groupName: filters.groupName,
                description: filters.description,
                status: filters.status,
              }}
              fallbackName="用户组.xlsx"
            />
          </Space>
        </Form.Item>
      </Form>
      <ListTable<UserGroupListRow> screen={screen} columns={columns} scrollX={1000} />
    </Screen>
  )
}
