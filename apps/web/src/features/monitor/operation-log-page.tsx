import { DownloadOutlined } from '@ant-design/icons'
import { useMutation } from '@tanstack/react-query'
import { OPERATION_RESULTS, routes, type OperationLogRow } from '@amg/contract'
import { Button, InputNumber, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { OPERATION_LOG_KEY, exportOperationLogs, listOperationLogs } from './api'
import {
  LOG_TIME_WIDTH,
  OPERATION_RESULT,
  OperatorName,
  RESOURCE_TYPES,
  ResultTag,
  formatLogTime,
  resourceText,
} from './common'
import { LogListScreen, useLogList } from './log-list'
import { selectField, textField } from '../../components/list-screen'
import { OperationLogDetailDrawer } from './operation-log-detail'

export const OPERATION_LOG_PATH = '/operlog'

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

const RESOURCE_TYPE_OPTIONS = RESOURCE_TYPES.map((t) => ({ value: t, label: t }))

const dash = (value: string | null) => value || '—'

/** 操作日志 (DESIGN.md §9): filters, the newest writes first, a detail drawer with the changes, export. */
export function OperationLogPage() {
  const log = useLogList({
    filters: FILTERS,
    empty: EMPTY,
    queryKey: OPERATION_LOG_KEY,
    results: OPERATION_RESULTS,
    fetch: listOperationLogs,
  })
  const { draft, set, search } = log
  const [detailId, setDetailId] = useState<number | null>(null)
  const canExport = useCanCall(routes.monitor.operationExport)

  const exporting = useMutation({
    mutationFn: () => exportOperationLogs(log.applied),
    onSuccess: () => toastSuccess('导出成功'),
  })

  const columns: TableColumnsType<OperationLogRow> = [
    { title: '时间', dataIndex: 'time', width: LOG_TIME_WIDTH, render: formatLogTime },
    {
      title: '操作人',
      key: 'operator',
      width: 170,
      render: (_, row) => (
        <OperatorName
          id={row.operatorId}
          name={row.operatorName}
          onPickId={(operatorId) => log.list.setFilters({ operatorId })}
        />
      ),
    },
    { title: 'IP', dataIndex: 'ip', width: 130, render: dash },
    { title: '操作', dataIndex: 'summary', width: 150, ellipsis: true, render: dash },
    {
      title: '资源',
      key: 'resource',
      width: 180,
      ellipsis: true,
      render: (_, row) => {
        const text = resourceText(row)
        return text ? <Typography.Text title={text}>{text}</Typography.Text> : '—'
      },
    },
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
    <LogListScreen
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
      log={log}
      fields={[
        textField('operatorName', '操作人', draft.operatorName, (v) => set({ operatorName: v }), search, {
          width: 160,
        }),
        {
          key: 'operatorId',
          width: 120,
          node: (
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
              style={{ width: '100%' }}
            />
          ),
        },
        textField('summary', '操作', draft.summary, (v) => set({ summary: v }), search, { width: 160 }),
        selectField(
          'resourceType',
          '资源类型',
          draft.resourceType || undefined,
          (value) => set({ resourceType: value ?? '' }),
          RESOURCE_TYPE_OPTIONS,
          { width: 160 },
        ),
      ]}
      results={OPERATION_RESULT}
      columns={columns}
      tableTestId="operation-log-table"
      scrollX={1200}
    >
      <OperationLogDetailDrawer id={detailId} onClose={() => setDetailId(null)} />
    </LogListScreen>
  )
}
