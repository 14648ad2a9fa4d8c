import { useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, Form, Input, Popconfirm, Select, Space, Table, Tag, type TableColumnsType } from 'antd'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import dayjs from 'dayjs'
import { MSG, type UserGroupListRow } from '@amg/contract'
import { DEFAULT_PAGE_SIZE, Pagination } from '../../components'
import { toastSuccess } from '../../lib/feedback'
import { useSession } from '../../lib/session-store'
import { Screen } from '../../lib/ui/screen'
import { deleteGroup, listGroups, toggleEnable, type GroupFilters } from './api'
import { GROUP_STATUS_OPTIONS, groupStatusText } from './group-fields'

export const GROUP_LIST_PATH = '/usergroupmanage'
export const GROUPS_KEY = ['user-groups'] as const

const formatTime = (value: string | Date | null | undefined) =>
  value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : ''

/** /usergroupmanage/usergroupinfo: edit (isShow) or view (isDisable) one group. */
export const groupInfoPath = (id: number, mode: 'edit' | 'view') =>
  `${GROUP_LIST_PATH}/usergroupinfo?isDisable=${mode === 'view'}&id=${id}&isShow=${mode === 'edit'}`

/** The group list (SPEC.md §2): search by name and description, status filter, actions, 10 per page. */
export function GroupListScreen() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const showOperatorUser = useSession((s) => s.showOperatorUser)
  const [form] = Form.useForm<GroupFilters>()
  const [filters, setFilters] = useState<GroupFilters>({})
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE })

  const groups = useQuery({
    queryKey: [...GROUPS_KEY, filters, page.pageNum, page.pageSize],
    queryFn: () => listGroups(filters, page.pageNum, page.pageSize),
    placeholderData: keepPreviousData,
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: GROUPS_KEY })

  const toggle = useMutation({
    mutationFn: toggleEnable,
    onSuccess: async () => {
      toastSuccess(MSG.successBang)
      await refresh()
    },
  })
  const remove = useMutation({
    mutationFn: (id: number) => deleteGroup(id),
    onSuccess: async () => {
      toastSuccess(MSG.deleted)
      // deleting the last row of a page moves back one page
      if (groups.data && groups.data.list.length === 1 && page.pageNum > 1)
        setPage({ ...page, pageNum: page.pageNum - 1 })
      await refresh()
    },
  })

  const search = (values: GroupFilters) => {
    setFilters({
      groupName: values.groupName?.trim() || undefined,
      description: values.description?.trim() || undefined,
      status: values.status ?? undefined,
    })
    setPage({ ...page, pageNum: 1 })
  }

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
          <Button type="link" size="small" onClick={() => navigate(groupInfoPath(row.id, 'edit'))}>
            修改
          </Button>
          <Button
            type="link"
            size="small"
            loading={toggle.isPending && toggle.variables?.id === row.id}
            onClick={() => toggle.mutate(row)}
          >
            {row.status === 1 ? '禁用' : '启用'}
          </Button>
          <Popconfirm
            title={`确定要删除用户组“${row.groupName}”吗？`}
            okText="确定"
            cancelText="取消"
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ]

  return (
    <Screen title="用户组管理">
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
            <Button type="primary" htmlType="submit">
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
            <Button type="primary" onClick={() => navigate(`${GROUP_LIST_PATH}/addusergroup`)}>
              新建
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<UserGroupListRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={groups.data?.list ?? []}
        loading={groups.isFetching}
        pagination={false}
      />
      <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Pagination
          total={groups.data?.total ?? 0}
          current={page.pageNum}
          pageSize={page.pageSize}
          onChange={(pageNum, pageSize) => setPage({ pageNum, pageSize })}
        />
      </div>
    </Screen>
  )
}
