import { routes, type ReviewCampaignRow } from '@amg/contract'
import { Progress, Segmented, Tag, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { ListTable, useListScreen } from '../../components/list-screen'
import { FilterSearchBar } from '../../components/filter-search-bar'
import { formatTime } from '../../components/list-columns'
import { useCanCall } from '../../lib/can-call'
import { Screen } from '../../lib/ui/screen'
import { REVIEW_KEY, listCampaigns, listInbox } from './api'
import { CampaignFormDialog } from './campaign-form'

const FILTERS = { name: 'text', box: 'text' } as const

/** How far a campaign's reviewers have got: decided items of all items. */
function CampaignProgress({ row }: { row: ReviewCampaignRow }) {
  const percent = row.total ? Math.round((row.decided / row.total) * 100) : 100
  return (
    <span data-testid={`review-progress-${row.id}`}>
      <Progress percent={percent} size="small" style={{ width: 120, marginInlineEnd: 8 }} />
      {row.decided}/{row.total}
    </span>
  )
}

/**
 * 权限复核 (DESIGN.md §21) at /accessreview: every campaign with its progress, or (我的复核) the
 * campaigns the signed-in user reviews; 新建 opens the campaign form, a campaign's name its items.
 */
export function ReviewListPage() {
  const screen = useListScreen({
    filters: FILTERS,
    queryKey: [...REVIEW_KEY, 'list'],
    refreshKey: REVIEW_KEY,
    fetch: ({ filters, pageNum, pageSize }) =>
      filters.box === 'mine'
        ? listInbox({ name: filters.name || undefined, pageNum, pageSize })
        : listCampaigns({ name: filters.name || undefined, pageNum, pageSize }),
  })
  const { list, refresh } = screen
  const canAdd = useCanCall(routes.review.insert)
  const [adding, setAdding] = useState(false)
  const navigate = useNavigate()
  const open = (id: number) => `/accessreview/items?id=${id}`

  const columns: TableColumnsType<ReviewCampaignRow> = [
    {
      title: '复核名称',
      dataIndex: 'name',
      width: 200,
      render: (text: string, row) => <Link to={open(row.id)}>{text}</Link>,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (status: string) =>
        status === 'open' ? <Tag color="processing">进行中</Tag> : <Tag>已关闭</Tag>,
    },
    { title: '进度', key: 'progress', width: 220, render: (_, row) => <CampaignProgress row={row} /> },
    { title: '截止时间', dataIndex: 'dueAt', width: 180, render: formatTime },
    {
      title: '复核人',
      dataIndex: 'reviewers',
      width: 180,
      render: (reviewers: ReviewCampaignRow['reviewers']) => reviewers.map((r) => r.nickName).join('、'),
    },
    {
      title: '默认决定',
      key: 'default',
      width: 160,
      render: (_, row) =>
        `${row.defaultDecision === 'keep' ? '保留' : '撤销'}${row.autoApply ? '（关闭时自动执行）' : ''}`,
    },
    { title: '已撤销', dataIndex: 'revoked', width: 90 },
    { title: '创建人', key: 'creator', width: 120, render: (_, row) => row.createUser?.nickName ?? '' },
    { title: '创建时间', dataIndex: 'createTime', width: 180, render: formatTime },
  ]

  return (
    <Screen title="权限复核">
      <Typography.Paragraph type="secondary">
        定期复核每个人持有的角色：每条记录给出最近一次使用时间，90
        天未使用或从未使用的建议撤销。关闭复核时按决定撤销，
        与在用户页解除关联相同（校验您的权限与管理范围，记入操作日志）。
      </Typography.Paragraph>
      <Segmented
        style={{ marginBottom: 12 }}
        value={list.filters.box === 'mine' ? 'mine' : 'all'}
        onChange={(v) => list.setFilters({ box: v === 'mine' ? 'mine' : '' })}
        options={[
          { value: 'all', label: '全部复核' },
          { value: 'mine', label: '我的复核' },
        ]}
      />
      <FilterSearchBar
        list={list}
        filter="name"
        placeholder="按复核名称搜索"
        onAdd={canAdd ? () => setAdding(true) : undefined}
      />
      <ListTable<ReviewCampaignRow>
        screen={screen}
        columns={columns}
        scrollX={1400}
        data-testid="review-table"
      />
      <CampaignFormDialog
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={(id) => {
          setAdding(false)
          void refresh()
          void navigate(open(id))
        }}
      />
    </Screen>
  )
}
