import { SearchOutlined } from '@ant-design/icons'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { AMS_SERVICE_KEY, type AuthzWhoCanRow } from '@amg/contract'
import { Button, Empty, Flex, Table, Typography, type TableColumnsType } from 'antd'
import { ListPager } from '../../components/list-pager'
import { useKeepPageInRange, useListState } from '../../lib/list-state'
import { AUTHZ_KEY, fetchWhoCan, type CallQuestion } from './api'
import { CALL_HINT, CallForm } from './call-form'
import type { PickedUser } from './user-picker'
import { ViaTags } from './via-tag'
import { NameWithTag } from './name-with-tag'

/** The question and the page live in the URL like every list's search (lib/list-state.ts). */
const WHO_CAN_FILTERS = { service: 'text', method: 'text', path: 'text' } as const

/**
 * 谁能访问: the active users who may make a call (POST /authz/who-can), a page at a time, each with
 * the links that bring them a role allowing it; 查看权限 opens that user in the other tab.
 */
export function WhoCanTab({ onAnalyse }: { onAnalyse(user: PickedUser): void }) {
  const list = useListState(WHO_CAN_FILTERS)
  const { pageNum, pageSize } = list
  const call: CallQuestion | null = list.filters.path
    ? {
        service: list.filters.service || AMS_SERVICE_KEY,
        method: list.filters.method || 'GET',
        path: list.filters.path,
      }
    : null
  const rows = useQuery({
    queryKey: [...AUTHZ_KEY, 'who-can', call, pageNum, pageSize],
    queryFn: () => fetchWhoCan(call!, pageNum, pageSize),
    enabled: call !== null,
    placeholderData: keepPreviousData,
  })
  useKeepPageInRange(list, rows.data)

  const ask = (next: CallQuestion) => {
    // the same question again asks the server again (someone may have changed a role meanwhile)
    if (call && next.service === call.service && next.method === call.method && next.path === call.path)
      void rows.refetch()
    else list.setFilters(next)
  }

  const columns: TableColumnsType<AuthzWhoCanRow> = [
    {
      title: '用户',
      dataIndex: 'nickName',
      width: 200,
      render: (name: string, row) => (
        <NameWithTag name={name} tag={row.superAdmin ? { color: 'gold', text: '超级管理员' } : undefined} />
      ),
    },
    { title: '来源', key: 'via', render: (_, row) => <ViaTags via={row.via} namingRole /> },
    {
      title: '操作',
      key: 'actions',
      width: 110,
      render: (_, row) => (
        <Button
          type="link"
          size="small"
          onClick={() => onAnalyse({ id: row.userId, nickName: row.nickName })}
        >
          查看权限
        </Button>
      ),
    },
  ]

  return (
    <Flex vertical gap={12}>
      <CallForm
        name="who-can"
        key={call ? `${call.service} ${call.method} ${call.path}` : ''}
        initial={call ?? undefined}
        submitText="查询"
        submitIcon={<SearchOutlined />}
        loading={rows.isFetching}
        onSubmit={ask}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {CALL_HINT}
      </Typography.Text>
      {call ? (
        <>
          <Table<AuthzWhoCanRow>
            rowKey="userId"
            size="middle"
            data-testid="who-can-table"
            scroll={{ x: 640 }}
            columns={columns}
            dataSource={rows.data?.list ?? []}
            loading={rows.isFetching}
            pagination={false}
            locale={{ emptyText: '没有用户可以调用' }}
          />
          <ListPager list={list} page={rows.data} marginTop={0} />
        </>
      ) : (
        <Empty description="输入请求方法和路径，查看哪些用户可以调用" />
      )}
    </Flex>
  )
}
