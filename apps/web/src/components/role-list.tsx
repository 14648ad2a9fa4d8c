import { App, Button, Input, Popconfirm, Space, Tag, type TableColumnsType, type TableProps } from 'antd'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, type PageResult } from '@amg/contract'
import dayjs from 'dayjs'
import { useState } from 'react'
import { toastSuccess } from '../lib/feedback'
import { post } from '../lib/http'
import { useSession } from '../lib/session-store'
import { DEFAULT_PAGE_SIZE, Pagination } from './pagination'
import { ROLE_STATUS_LABEL, roleTypeLabel } from './role-form'
import { Table, type IndexedRow } from './table'

export interface RoleListRow {
  id: number
  roleName: string
  type: number
  status: number
  description: string | null
  createTime: string
  updateTime: string
  createUserVo: { id: number; nickName: string } | null
  updateUserVo: { id: number; nickName: string } | null
}

export interface RoleListQuery {
  pageNum: number
  pageSize: number
  roleName?: string
  status?: number
  types?: number[]
}

/** POST /role/listall {pageNum, pageSize, roleName, status, types} (SPEC.md §7). */
export const fetchRolePage = (body: RoleListQuery) => post<PageResult<RoleListRow>>('/role/listall', body)

/** Every role list in the query cache (refreshed after any role change). */
export const ROLES_QUERY_KEY = ['roles'] as const

type Row = IndexedRow<RoleListRow>

const formatTime = (value: string | null | undefined) =>
  value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : ''

export interface RoleListProps {
  /** Tells the two lists apart in the query cache. */
  scope: string
  /** The type filter's choices. */
  typeFilters: { text: string; value: number }[]
  /** The types sent when the type filter is empty (undefined: every type). */
  defaultTypes?: number[]
  /** Whether edit and delete are enabled for a row. */
  canModify(row: RoleListRow): boolean
  remove(row: RoleListRow): Promise<unknown>
  onCreate(): void
  onEdit(row: RoleListRow): void
  onView(row: RoleListRow): void
}

/**
 * A role list (SPEC.md §2): search by role name, a create button, type and single-choice status
 * filters, creator/updater columns only under showOperatorUser, edit/delete/view actions and
 * pagination of 10. Shared by the role and built-in role screens.
 */
export function RoleList(props: RoleListProps) {
  const { message } = App.useApp()
  const queryClient = useQueryClient()
  const showOperatorUser = useSession((s) => s.showOperatorUser)
  const [keyword, setKeyword] = useState('')
  const [roleName, setRoleName] = useState('')
  const [types, setTypes] = useState<number[]>([])
  const [status, setStatus] = useState<number | undefined>()
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE })

  const body: RoleListQuery = {
    ...page,
    ...(roleName ? { roleName } : {}),
    ...(status ? { status } : {}),
    ...(types.length ? { types } : props.defaultTypes ? { types: props.defaultTypes } : {}),
  }
  const roles = useQuery({
    queryKey: [...ROLES_QUERY_KEY, props.scope, body],
    queryFn: () => fetchRolePage(body),
    placeholderData: keepPreviousData,
  })

  const removeRow = async (row: RoleListRow) => {
    await props.remove(row)
    toastSuccess(MSG.deleted)
    // removing the last row of a page moves back one page
    if (roles.data && roles.data.list.length === 1 && page.pageNum > 1)
      setPage({ ...page, pageNum: page.pageNum - 1 })
    await queryClient.invalidateQueries({ queryKey: ROLES_QUERY_KEY })
  }

  const columns: TableColumnsType<Row> = [
    { title: '角色名称', dataIndex: 'roleName', key: 'roleName' },
    {
      title: '类型',
      dataIndex: 'type',
      key: 'type',
      width: 130,
      filters: props.typeFilters,
      filteredValue: types,
      render: (type: number) => roleTypeLabel(type),
    },
    {
      title: '状态',
      dataIndex: 'status',
      key: 'status',
      width: 100,
      filters: [
        { text: '启用', value: 1 },
        { text: '禁用', value: 2 },
      ],
      filterMultiple: false,
      filteredValue: status ? [status] : [],
      render: (value: number) => (
        <Tag color={value === 1 ? 'green' : 'default'}>{ROLE_STATUS_LABEL[value] ?? value}</Tag>
      ),
    },
    { title: '描述', dataIndex: 'description', key: 'description', ellipsis: true },
    { title: '创建时间', dataIndex: 'createTime', key: 'createTime', width: 180, render: formatTime },
    { title: '更新时间', dataIndex: 'updateTime', key: 'updateTime', width: 180, render: formatTime },
    ...(showOperatorUser
      ? ([
          {
            title: '创建人',
            key: 'creator',
            width: 110,
            render: (_: unknown, row: RoleListRow) => row.createUserVo?.nickName ?? '',
          },
          {
            title: '更新人',
            key: 'updater',
            width: 110,
            render: (_: unknown, row: RoleListRow) => row.updateUserVo?.nickName ?? '',
          },
        ] as TableColumnsType<Row>)
      : []),
    {
      title: '操作',
      key: 'actions',
      width: 190,
      render: (_: unknown, row: RoleListRow) => {
        const locked = !props.canModify(row)
        return (
          <Space size={0}>
            <Button type="link" size="small" disabled={locked} onClick={() => props.onEdit(row)}>
              修改
            </Button>
            <Popconfirm
              title={`此操作将永久删除角色「${row.roleName}」, 是否继续?`}
              okText="确定"
              cancelText="取消"
              disabled={locked}
              onConfirm={() => removeRow(row)}
              onCancel={() => void message.info(MSG.cancelDelete)}
            >
              <Button type="link" size="small" danger disabled={locked}>
                删除
              </Button>
            </Popconfirm>
            <Button type="link" size="small" onClick={() => props.onView(row)}>
              查看
            </Button>
          </Space>
        )
      },
    },
  ]

  const onTableChange: TableProps<Row>['onChange'] = (_pagination, filters) => {
    setTypes(((filters.type as number[] | null) ?? []).map(Number))
    const chosen = (filters.status as number[] | null) ?? []
    setStatus(chosen.length ? Number(chosen[0]) : undefined)
    setPage((p) => ({ ...p, pageNum: 1 }))
  }

  return (
    <div data-testid={`role-list-${props.scope}`}>
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          placeholder="按角色名称搜索"
          allowClear
          enterButton="搜索"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(value) => {
            setRoleName(value.trim())
            setPage((p) => ({ ...p, pageNum: 1 }))
          }}
          style={{ width: 320 }}
        />
        <Button type="primary" onClick={props.onCreate}>
          新建
        </Button>
      </Space>
      <Table<RoleListRow>
        rowKey="id"
        columns={columns}
        dataSource={roles.data?.list ?? []}
        loading={roles.isFetching}
        onChange={onTableChange}
      />
      <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Pagination
          total={roles.data?.total ?? 0}
          current={page.pageNum}
          pageSize={page.pageSize}
          onChange={(pageNum, pageSize) => setPage({ pageNum, pageSize })}
        />
      </div>
    </div>
  )
}
