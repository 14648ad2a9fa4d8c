import { useMutation, useQueryClient } from '@tanstack/react-query'
import { routes, type OnlineSessionRow } from '@amg/contract'
import { Space, Tag, type TableColumnsType } from 'antd'
import { ListTable, useListScreen } from '../../components/list-screen'
import { FilterSearchBar } from '../../components/filter-search-bar'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { Screen } from '../../lib/ui/screen'
import { LOGIN_LOG_KEY, ONLINE_KEY, listOnlineSessions, revokeSession } from './api'
import { LOG_TIME_WIDTH, UserAgent, formatLogTime } from './common'
import { ConfirmLink } from '../../components/confirm-link'

export const ONLINE_PATH = '/online'
export const CONFIRM_REVOKE = '确定要强制该会话下线吗？'
export const REVOKED = '已强制下线'

const FILTERS = { nickName: 'text' } as const

/** 在线用户 (DESIGN.md §9): live sessions, the caller's own marked; 强制下线 ends another at once. */
export function OnlinePage() {
  const queryClient = useQueryClient()
  const screen = useListScreen({
    filters: FILTERS,
    queryKey: ONLINE_KEY,
    fetch: ({ filters, pageNum, pageSize }) =>
      listOnlineSessions({ nickName: filters.nickName, pageNum, pageSize }),
  })
  const { list } = screen
  const canRevoke = useCanCall(routes.monitor.revoke)

  const revoke = useMutation({
    mutationFn: (row: OnlineSessionRow) => revokeSession(row.id),
    onSuccess: () => toastSuccess(REVOKED),
    // refused or not: the list shows what is live now (a session may have ended meanwhile)
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ONLINE_KEY }),
        queryClient.invalidateQueries({ queryKey: LOGIN_LOG_KEY }),
      ]),
  })

  const columns: TableColumnsType<OnlineSessionRow> = [
    {
      title: '用户',
      dataIndex: 'nickName',
      width: 200,
      ellipsis: true,
      render: (name: string, row) => (
        <Space size={4}>
          <span>{name}</span>
          {row.current ? <Tag color="processing">当前会话</Tag> : null}
        </Space>
      ),
    },
    { title: 'IP', dataIndex: 'ip', width: 140, render: (ip: string | null) => ip || '—' },
    {
      title: '浏览器',
      dataIndex: 'userAgent',
      width: 190,
      ellipsis: true,
      render: (ua: string | null) => <UserAgent value={ua} />,
    },
    { title: '登录时间', dataIndex: 'loginTime', width: LOG_TIME_WIDTH, render: formatLogTime },
    { title: '最近活动', dataIndex: 'lastSeenTime', width: LOG_TIME_WIDTH, render: formatLogTime },
    { title: '过期时间', dataIndex: 'expiresAt', width: LOG_TIME_WIDTH, render: formatLogTime },
    {
      title: '操作',
      key: 'actions',
      width: 110,
      fixed: 'right',
      render: (_, row) =>
        // one's own session is ended with 退出登录, not from here
        row.current || !canRevoke ? null : (
          <ConfirmLink
            title={CONFIRM_REVOKE}
            onConfirm={() => revoke.mutateAsync(row).catch(() => undefined)}
          >
            强制下线
          </ConfirmLink>
        ),
    },
  ]

  return (
    <Screen title="在线用户">
      <FilterSearchBar list={list} filter="nickName" placeholder="请输入用户昵称" label="用户昵称" />
      <ListTable<OnlineSessionRow>
        screen={screen}
        columns={columns}
        data-testid="online-table"
        scrollX={1100}
      />
    </Screen>
  )
}
