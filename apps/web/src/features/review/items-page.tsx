import { useQuery, useQueryClient } from '@tanstack/react-query'
import { REVIEW_MSG, routes, type ReviewItemRow } from '@amg/contract'
import { Button, Modal, Segmented, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { ExportButton } from '../../components/export-button'
import { formatTime } from '../../components/list-columns'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { Screen } from '../../lib/ui/screen'
import { REVIEW_KEY, closeCampaign, decideItems, listCampaigns, listItems } from './api'

const VIA = { direct: '直接', group: '用户组', position: '岗位' } as const
const DECISION = { keep: '保留', revoke: '撤销' } as const

/** The recommendation with its reason: the last use, or that the role was never used. */
function Recommendation({ row }: { row: ReviewItemRow }) {
  const reason = row.lastUsedAt ? `最近使用 ${formatTime(row.lastUsedAt)}` : '从未使用'
  return (
    <Space size={4} wrap>
      <Tag color={row.recommendation === 'keep' ? 'success' : 'warning'}>
        建议{DECISION[row.recommendation]}
      </Tag>
      <Typography.Text type="secondary">{reason}</Typography.Text>
    </Space>
  )
}

/**
 * A campaign's items (DESIGN.md §21) at /accessreview/items?id=: each user's role with how it is
 * held, the recommendation and its reason, the decision; bulk 保留 / 撤销 for the selected rows, and
 * 关闭并执行 after a confirmation that says how many revokes it applies. 导出 gives the auditors' workbook.
 */
export function ReviewItemsPage() {
  const [params] = useSearchParams()
  const id = Number(params.get('id'))
  const [pageNum, setPageNum] = useState(1)
  const [pageSize, setPageSize] = useState(20)
  const [filter, setFilter] = useState<'all' | 'undecided' | 'decided'>('all')
  const [selected, setSelected] = useState<number[]>([])
  const queryClient = useQueryClient()
  const canDecide = useCanCall(routes.review.decide)
  const canClose = useCanCall(routes.review.close)

  const campaign = useQuery({
    queryKey: [...REVIEW_KEY, 'campaign', id],
    // the campaign's own row: its name, status and progress
    queryFn: async () =>
      (await listCampaigns({ pageNum: 1, pageSize: 1000 })).list.find((c) => c.id === id) ?? null,
    enabled: id > 0,
  })
  const decided = filter === 'all' ? undefined : filter === 'decided'
  const items = useQuery({
    queryKey: [...REVIEW_KEY, 'items', id, pageNum, pageSize, filter],
    queryFn: () => listItems({ campaignId: id, pageNum, pageSize, decided }),
    enabled: id > 0,
  })
  const open = campaign.data?.status === 'open'
  const refresh = () => queryClient.invalidateQueries({ queryKey: REVIEW_KEY })

  const decide = async (decision: 'keep' | 'revoke') => {
    try {
      await decideItems(selected, decision)
    } catch {
      return // the HTTP layer has shown the message
    }
    toastSuccess(REVIEW_MSG.decided)
    setSelected([])
    await refresh()
  }

  const close = () => {
    const c = campaign.data
    if (!c) return
    Modal.confirm({
      title: '关闭并执行复核？',
      content: `将按决定撤销相应的角色关联${c.autoApply ? `；未决定的条目按默认决定“${DECISION[c.defaultDecision]}”执行` : '；未决定的条目保持不变'}。关闭后不能再修改决定。`,
      okText: '关闭并执行',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        await closeCampaign(c.id)
        toastSuccess(REVIEW_MSG.closed)
        await refresh()
      },
    })
  }

  const columns: TableColumnsType<ReviewItemRow> = [
    { title: '用户', dataIndex: 'nickName', width: 140 },
    { title: '角色', dataIndex: 'roleName', width: 160 },
    {
      title: '获得方式',
      key: 'via',
      width: 200,
      render: (_, row) => (row.via === 'direct' ? VIA.direct : `${VIA[row.via]}：${row.viaName ?? ''}`),
    },
    { title: '建议', key: 'recommendation', width: 300, render: (_, row) => <Recommendation row={row} /> },
    {
      title: '决定',
      key: 'decision',
      width: 160,
      render: (_, row) =>
        row.decision ? (
          <Tooltip title={row.comment ?? undefined}>
            <Tag color={row.decision === 'keep' ? 'success' : 'error'}>{DECISION[row.decision]}</Tag>
            {row.applied ? <Typography.Text type="secondary">已执行</Typography.Text> : null}
          </Tooltip>
        ) : (
          <Typography.Text type="secondary">未决定</Typography.Text>
        ),
    },
    {
      title: '决定人',
      key: 'decidedBy',
      width: 120,
      render: (_, row) => row.decidedBy?.nickName ?? '',
    },
  ]

  const c = campaign.data
  return (
    <Screen title={c ? `权限复核：${c.name}` : '权限复核'}>
      {c ? (
        <Typography.Paragraph type="secondary" data-testid="review-summary">
          {open ? '进行中' : '已关闭'} · 已决定 {c.decided}/{c.total} · 截止 {formatTime(c.dueAt)}
        </Typography.Paragraph>
      ) : null}
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented
          value={filter}
          onChange={(v) => {
            setFilter(v as typeof filter)
            setPageNum(1)
          }}
          options={[
            { value: 'all', label: '全部' },
            { value: 'undecided', label: '未决定' },
            { value: 'decided', label: '已决定' },
          ]}
        />
        {open && canDecide ? (
          <>
            <Button disabled={!selected.length} onClick={() => void decide('keep')}>
              保留
            </Button>
            <Button danger disabled={!selected.length} onClick={() => void decide('revoke')}>
              撤销
            </Button>
          </>
        ) : null}
        {open && canClose ? (
          <Button type="primary" danger onClick={close}>
            关闭并执行
          </Button>
        ) : null}
        <ExportButton route={routes.review.export} params={{ id }} fallbackName="权限复核.xlsx" />
      </Space>
      <Table<ReviewItemRow>
        rowKey="id"
        size="middle"
        data-testid="review-items"
        columns={columns}
        dataSource={items.data?.list ?? []}
        loading={items.isFetching}
        scroll={{ x: 1100 }}
        rowSelection={
          open && canDecide
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }
            : undefined
        }
        pagination={{
          current: pageNum,
          pageSize,
          total: items.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => `共 ${total} 条`,
          onChange: (page, size) => {
            setPageNum(page)
            setPageSize(size)
          },
        }}
      />
    </Screen>
  )
}
