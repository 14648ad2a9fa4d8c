import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, confirmDeleteService, type ServiceRow } from '@amg/contract'
import {
  Button,
  Input,
  Popconfirm,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd'
import { useState } from 'react'
import { Pagination } from '../../components/pagination'
import { hasAuthCode } from '../../lib/access'
import dayjs from '../../lib/dayjs'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import { useDraft, useKeepPageInRange, useListState } from '../../lib/list-state'
import { useSession } from '../../lib/session-store'
import { Screen } from '../../lib/ui/screen'
import { SERVICE_LIST_KEY, deleteService, listServices } from './api'
import { ServiceFormDialog } from './service-form'

const FILTERS = { keyword: 'text' } as const
const formatTime = (value?: string | Date) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : '')

/**
 * 服务管理 (DESIGN.md §10a): the services behind gateways, each owning the permission subtree of its
 * root; the built-in ams (this server) owns the rest and cannot be deleted.
 */
export function ServiceListPage() {
  const queryClient = useQueryClient()
  const listState = useListState(FILTERS)
  const { pageNum, pageSize } = listState
  const { keyword } = listState.filters
  const [draft, setDraft] = useDraft(keyword)
  const [dialog, setDialog] = useState<{ editing?: ServiceRow } | null>(null)
  const canAdd = useSession((s) => hasAuthCode(s.user, 'service:add'))
  const canEdit = useSession((s) => hasAuthCode(s.user, 'service:edit'))
  const canDelete = useSession((s) => hasAuthCode(s.user, 'service:delete'))

  const list = useQuery({
    queryKey: [...SERVICE_LIST_KEY, keyword, pageNum, pageSize],
    queryFn: () => listServices({ keyword: keyword || undefined, pageNum, pageSize }),
    placeholderData: keepPreviousData,
  })
  useKeepPageInRange(listState, list.data)
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['service'] })

  const remove = async (row: ServiceRow) => {
    try {
      await deleteService(row.id)
    } catch {
      return // the HTTP layer has shown the message
    }
    toastSuccess(MSG.deleted)
    await refresh()
  }

  const columns: TableColumnsType<ServiceRow> = [
    {
      title: '服务标识',
      dataIndex: 'key',
      width: 180,
      render: (key: string) => <Typography.Text code>{key}</Typography.Text>,
    },
    { title: '服务名称', dataIndex: 'name', width: 200 },
    {
      title: '根权限',
      key: 'root',
      render: (_, row) =>
        row.rootCode === null ? (
          <Typography.Text type="secondary">不属于其他服务的全部权限</Typography.Text>
        ) : (
          <span>
            {row.rootName ?? ''} <Typography.Text type="secondary">（{row.rootCode}）</Typography.Text>
          </span>
        ),
    },
    {
      title: '内置',
      dataIndex: 'builtIn',
      width: 90,
      render: (builtIn: boolean) => (builtIn ? <Tag color="gold">内置</Tag> : <Tag>否</Tag>),
    },
    { title: '创建时间', dataIndex: 'createTime', width: 180, render: formatTime },
    {
      title: '操作',
      key: 'actions',
      width: 150,
      render: (_, row) => (
        <Space size={0}>
          {canEdit ? (
            <Button type="link" size="small" onClick={() => setDialog({ editing: row })}>
              修改
            </Button>
          ) : null}
          {canDelete ? (
            row.builtIn ? (
              <Tooltip title={MSG.serviceBuiltIn}>
                <Button type="link" size="small" danger disabled>
                  删除
                </Button>
              </Tooltip>
            ) : (
              <Popconfirm
                title={confirmDeleteService(row.name)}
                okText="确定"
                cancelText="取消"
                onConfirm={() => remove(row)}
                onCancel={() => toastInfo(MSG.cancelDelete)}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            )
          ) : null}
        </Space>
      ),
    },
  ]

  return (
    <Screen title="服务管理">
      <Typography.Paragraph type="secondary">
        每个服务只认可其根权限之下的权限：网关询问 /api/authz/forward/&lt;服务标识&gt;
        时，只有该服务的权限参与判断。本系统自己的接口属于内置服务 ams。
      </Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder="按服务标识或名称搜索"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onSearch={(value) => listState.setFilters({ keyword: value.trim() })}
          enterButton="搜索"
          style={{ width: 320 }}
        />
        {canAdd ? (
          <Button type="primary" onClick={() => setDialog({})}>
            新建
          </Button>
        ) : null}
      </Space>
      <Table<ServiceRow>
        rowKey="id"
        size="middle"
        data-testid="service-table"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        pagination={false}
        scroll={{ x: 900 }}
      />
      <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Pagination
          total={list.data?.total ?? 0}
          current={pageNum}
          pageSize={pageSize}
          onChange={(page, size) => listState.setPage(page, size)}
        />
      </div>
      <ServiceFormDialog
        key={dialog?.editing?.id ?? 'new'}
        open={dialog !== null}
        editing={dialog?.editing}
        onClose={() => setDialog(null)}
        onSaved={async () => {
          setDialog(null)
          await refresh()
        }}
      />
    </Screen>
  )
}
