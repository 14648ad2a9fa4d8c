import { LOGIN_RESULTS, type LoginLogRow } from '@amg/contract'
import type { TableColumnsType } from 'antd'
import { textField } from '../../components/list-screen'
import { LOGIN_LOG_KEY, listLoginLogs } from './api'
import { LOGIN_RESULT, LOG_TIME_WIDTH, ResultTag, UserAgent, formatLogTime } from './common'
import { LogListScreen, useLogList } from './log-list'

export const LOGIN_LOG_PATH = '/loginlog'

const FILTERS = { nickName: 'text', result: 'text', from: 'text', to: 'text' } as const
const EMPTY = { nickName: '', result: '', from: '', to: '' }

const dash = (value: string | null) => value || '—'

const COLUMNS: TableColumnsType<LoginLogRow> = [
  { title: '时间', dataIndex: 'time', width: LOG_TIME_WIDTH, render: formatLogTime },
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

/** 登录日志 (DESIGN.md §9): every sign-in attempt, sign-out and forced sign-out, newest first. */
export function LoginLogPage() {
  const log = useLogList({
    filters: FILTERS,
    empty: EMPTY,
    queryKey: LOGIN_LOG_KEY,
    results: LOGIN_RESULTS,
    fetch: listLoginLogs,
  })
  return (
    <LogListScreen
      title="登录日志"
      log={log}
      fields={[
        textField('nickName', '用户', log.draft.nickName, (nickName) => log.set({ nickName }), log.search),
      ]}
      results={LOGIN_RESULT}
      columns={COLUMNS}
      tableTestId="login-log-table"
      scrollX={940}
    />
  )
}
