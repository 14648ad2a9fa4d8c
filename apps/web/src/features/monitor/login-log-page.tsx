import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { LOGIN_RESULTS, type LoginLogRow } from '@amg/contract'
import { Input, Select, Table, type TableColumnsType } from 'antd'
import { Pagination } from '../../components/pagination'
import { useDraft, useKeepPageInRange, useListState } from '../../lib/list-state'
import { Screen } from '../../lib/ui/screen'
import { LOGIN_LOG_KEY, listLoginLogs } from './api'
import {
  FilterBar,
  LOGIN_RESULT,
  ResultTag,
  TimeRangeFilter,
  UserAgent,
  formatDateTime,
  knownResult,
  resultOptions,
  validTime,
} from './common'

export const LOGIN_LOG_PATH = '/loginlog'

const FILTERS = { nickName: 'text', result: 'text', from: 'text', to: 'text' } as const
const EMPTY = { nickName: '', result: '', from: '', to: '' }

const dash = (value: string | null) => value || '—'

/** 登录日志 (DESIGN.md §9): every sign-in attempt, sign-out and forced sign-out, newest first. */
export function LoginLogPage() {
  const list = useListState(FILTERS)
  const { pageNum, pageSize, filters } = list
  const [draft, setDraft] = useDraft(filters)

  const applied = {
    nickName: filters.nickName,
    result: knownResult(LOGIN_RESULTS, filters.result),
    from: validTime(filters.from),
    to: validTime(filters.to),
  }
  const logs = useQuery({
    queryKey: [...LOGIN_LOG_KEY, applied, pageNum, pageSize],
    queryFn: () => listLoginLogs({ ...applied, pageNum, pageSize }),
    placeholderData: keepPreviousData,
  })
  useKeepPageInRange(list, logs.data)

  const search = () => list.setFilters({ ...draft, nickName: draft.nickName.trim() })
  const reset = () => {
    setDraft(EMPTY)
    list.setFilters(EMPTY)
  }
  const set = (change: Partial<typeof EMPTY>) => setDraft({ ...draft, ...change })

  const columns: TableColumnsType<LoginLogRow> = [
    { title: '时间', dataIndex: 'time', width: 170, render: formatDateTime },
    { title: '用户', dataIndex: 'nickName', width: 200, ellipsis: true, render: dash },
    { title: 'IP', dataIndex: 'ip', width: 140, render: dash },
    {
      title: '浏览器',
      dataIndex: 'userAgent',
      width: 200,
      ellipsis: true,
      render: (ua: string | null) => <UserAgent value={ua} />,
    },
    {
      title: '结果',
      dataIndex: 'result',
      width: 100,
      render: (value: string) => <ResultTag value={value} results={LOGIN_RESULT} />,
    },
    { title: '消息', dataIndex: 'msg', ellipsis: true, render: dash },
  ]

  return (
    <Screen title="登录日志">
      <FilterBar onSearch={search} onReset={reset}>
        <Input
          allowClear
          placeholder="用户"
          aria-label="用户"
          value={draft.nickName}
          onChange={(e) => set({ nickName: e.target.value })}
          onPressEnter={search}
          style={{ width: 180 }}
        />
        <Select
          allowClear
          placeholder="结果"
          aria-label="结果"
          value={draft.result || undefined}
          onChange={(value?: string) => set({ result: value ?? '' })}
          options={resultOptions(LOGIN_RESULT)}
          style={{ width: 120 }}
        />
        <TimeRangeFilter from={draft.from} to={draft.to} onChange={(from, to) => set({ from, to })} />
      </FilterBar>
      <Table<LoginLogRow>
        rowKey="id"
        size="middle"
        data-testid="login-log-table"
        scroll={{ x: 900 }}
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
    </Screen>
  )
}
