import { DownloadOutlined } from '@ant-design/icons'
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { OPERATION_RESULTS, type OperationLogRow } from '@amg/contract'
import { Button, Input, InputNumber, Select, Table, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { Pagination } from '../../components/pagination'
import { hasAuthCode } from '../../lib/access'
import { toastSuccess } from '../../lib/feedback'
import { useDraft, useKeepPageInRange, useListState } from '../../lib/list-state'
import { useSession } from '../../lib/session-store'
import { Screen } from '../../lib/ui/screen'
import { OPERATION_LOG_KEY, exportOperationLogs, listOperationLogs, type OperationLogFilters } from './api'
import {
  FilterBar,
  OPERATION_RESULT,
  OperatorName,
  RESOURCE_TYPES,
  ResultTag,
  TimeRangeFilter,
  formatDateTime,
  knownResult,
  resultOptions,
  validTime,
} from './common'
import { OperationLogDetailDrawer } from './operation-log-detail'

export const OPERATION_LOG_PATH = '/operlog'
export const EXPORT_CODE = 'operlog:export'

/** The filters, kept in the URL query (lib/list-state.ts). */
const FILTERS = {
  operatorName: 'text',
  // one operator exactly, by id: two operators with look-alike names are told apart
  operatorId: 'id',
  summary: 'text',
  resourceType: 'text',
  result: 'text',
  from: 'text',
  to: 'text',
} as const
const EMPTY = {
  operatorName: '',
  operatorId: undefined as number | undefined,
  summary: '',
  resourceType: '',
  result: '',
  from: '',
  to: '',
}

const dash = (value: string | null) => value || '—'

/** 操作日志 (DESIGN.md §9): filters, the newest writes first, a detail drawer with the changes, export. */
export function OperationLogPage() {
  const list = useListState(FILTERS)
  const { pageNum, pageSize, filters } = list
  const [draft, setDraft] = useDraft(filters)
  const [detailId, setDetailId] = useState<number | null>(null)
  const canExport = useSession((s) => hasAuthCode(s.user, EXPORT_CODE))

  const applied: OperationLogFilters = {
    ...filters,
    result: knownResult(OPERATION_RESULTS, filters.result),
    from: validTime(filters.from),
    to: validTime(filters.to),
  }
  const logs = useQuery({
    queryKey: [...OPERATION_LOG_KEY, applied, pageNum, pageSize],
    queryFn: () => listOperationLogs({ ...applied, pageNum, pageSize }),
    placeholderData: keepPreviousData,
  })
  useKeepPageInRange(list, logs.data)

  const exporting = useMutation({
    mutationFn: () => exportOperationLogs(applied),
    onSuccess: () => toastSuccess('导出成功'),
  })

  const search = () =>
    list.setFilters({ ...draft, operatorName: draft.operatorName.trim(), summary: draft.summary.trim() })
  const reset = () => {
    setDraft(EMPTY)
    list.setFilters(EMPTY)
  }
  const set = (change: Partial<typeof EMPTY>) => setDraft({ ...draft, ...change })

  const columns: TableColumnsType<OperationLogRow> = [
    { title: '时间', dataIndex: 'time', width: 170, render: formatDateTime },
    {
      title: '操作人',
      key: 'operator',
      width: 170,
      render: (_, row) => (
        <OperatorName
          id={row.operatorId}
          name={row.operatorName}
          onPickId={(operatorId) => list.setFilters({ operatorId })}
        />
      ),
    },
    { title: 'IP', dataIndex: 'ip', width: 130, render: dash },
    { title: '操作', dataIndex: 'summary', width: 150, ellipsis: true, render: dash },
    { title: '资源类型', dataIndex: 'resourceType', width: 110, render: dash },
    { title: '资源 ID', dataIndex: 'resourceId', width: 90, ellipsis: true, render: dash },
    {
      title: '结果',
      dataIndex: 'result',
      width: 80,
      render: (value: string) => <ResultTag value={value} results={OPERATION_RESULT} />,
    },
    { title: '状态码', dataIndex: 'status', width: 80 },
    {
      title: '消息',
      dataIndex: 'msg',
      ellipsis: true,
      render: (msg: string | null) => (msg ? <Typography.Text title={msg}>{msg}</Typography.Text> : '—'),
    },
    {
      title: '详情',
      key: 'detail',
      width: 80,
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => setDetailId(row.id)}>
          详情
        </Button>
      ),
    },
  ]

  return (
    <Screen
      title="操作日志"
      extra={
        canExport ? (
          <Button
            icon={<DownloadOutlined />}
            loading={exporting.isPending}
            onClick={() => exporting.mutate()}
          >
            导出
          </Button>
        ) : null
      }
    >
      <FilterBar onSearch={search} onReset={reset}>
        <Input
          allowClear
          placeholder="操作人"
          aria-label="操作人"
          value={draft.operatorName}
          onChange={(e) => set({ operatorName: e.target.value })}
          onPressEnter={search}
          style={{ width: 160 }}
        />
        <InputNumber
          placeholder="操作人 ID"
          aria-label="操作人 ID"
          min={1}
          max={2147483647}
          precision={0}
          controls={false}
          value={draft.operatorId ?? null}
          onChange={(value) =>
            set({ operatorId: typeof value === 'number' && value > 0 ? value : undefined })
          }
          onPressEnter={search}
          style={{ width: 110 }}
        />
        <Input
          allowClear
          placeholder="操作"
          aria-label="操作"
          value={draft.summary}
          onChange={(e) => set({ summary: e.target.value })}
          onPressEnter={search}
          style={{ width: 160 }}
        />
        <Select
          allowClear
          placeholder="资源类型"
          aria-label="资源类型"
          value={draft.resourceType || undefined}
          onChange={(value?: string) => set({ resourceType: value ?? '' })}
          options={RESOURCE_TYPES.map((t) => ({ value: t, label: t }))}
          style={{ width: 140 }}
        />
        <Select
          allowClear
          placeholder="结果"
          aria-label="结果"
          value={draft.result || undefined}
          onChange={(value?: string) => set({ result: value ?? '' })}
          options={resultOptions(OPERATION_RESULT)}
          style={{ width: 110 }}
        />
        <TimeRangeFilter from={draft.from} to={draft.to} onChange={(from, to) => set({ from, to })} />
      </FilterBar>
      <Table<OperationLogRow>
        rowKey="id"
        size="middle"
        data-testid="operation-log-table"
        scroll={{ x: 1200 }}
        columns={columns}
        dataSource={logs.data?.list ?? []}
        loading={logs.isFetching}
        pagination={false}
      />
      <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Pagination
          total={logs.data?.total ?? 0}
          estimated={logs.data?.totalIsEstimate}
          current={pageNum}
          pageSize={pageSize}
          onChange={(page, size) => list.setPage(page, size)}
        />
      </div>
      <OperationLogDetailDrawer id={detailId} onClose={() => setDetailId(null)} />
    </Screen>
  )
}
