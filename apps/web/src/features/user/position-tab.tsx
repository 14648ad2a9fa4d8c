import { useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, routes, type PositionSimple, type UserPositionRow } from '@amg/contract'
import { Button, Select, Space, Table, Typography, type TableColumnsType } from 'antd'
import { useMemo, useState } from 'react'
import { OrgCascader } from '../../components/org-cascader'
import { Pagination } from '../../components/pagination'
import { useCanCall } from '../../lib/can-call'
import { mergeRowSpans } from '../../lib/row-span'
import { CandidateTable } from '../../components/candidate-table'
import { Popover } from '../../components/popover'
import { toastSuccess } from '../../lib/feedback'
import {
  USER_POSITION_PAGE_SIZE,
  linkPositions,
  positionCandidates,
  stationOptions,
  unlinkPosition,
  userPositions,
} from './api'
import { EnabledTag, MissingUser, TabHeading, useUserIdParam } from './common'
import { ConfirmLink } from '../../components/confirm-link'
import { useLinkChosen } from '../../components/link-chosen'
import { ExpiryPicker, expiryColumn } from '../../components/link-expiry'

export const CONFIRM_UNLINK_POSITION = '确定要移除该岗位关联吗？'

/** Sorted by department name (stable), so each department's rows are adjacent and merge. */
const byDepartment = (rows: readonly UserPositionRow[]) =>
  rows
    .map((row, index) => ({ row, index }))
    .sort(
      (a, b) =>
        a.row.organizationCompleteName.localeCompare(b.row.organizationCompleteName, 'zh-CN') ||
        a.index - b.index,
    )
    .map((x) => x.row)

/** Job titles: all of them, or those linked to the chosen department. */
function StationSelect({
  orgId,
  value,
  onChange,
  style,
}: {
  orgId?: number
  value?: number
  onChange: (stationId?: number) => void
  style?: React.CSSProperties
}) {
  const stations = useQuery({
    queryKey: ['station', 'simple', orgId ?? null],
    queryFn: () => stationOptions(orgId),
  })
  return (
    <Select
      aria-label="职位"
      placeholder="请选择职位"
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={style}
      loading={stations.isFetching}
      value={value}
      onChange={(next?: number) => onChange(next ?? undefined)}
      options={(stations.data ?? []).map((s) => ({ value: s.id, label: s.stationName }))}
    />
  )
}

/**
 * Position link tab (SPEC.md §2): filters by a department cascader and a job title select; the
 * table (1000 rows per page) is merged by department name; a popover adds positions filtered by
 * department and job title.
 */
export function UserPositionTab() {
  const userId = useUserIdParam()
  const queryClient = useQueryClient()
  const [orgId, setOrgId] = useState<number>()
  const [stationId, setStationId] = useState<number>()
  const [pageNum, setPageNum] = useState(1)

  const positions = useQuery({
    queryKey: ['user-positions', userId, orgId ?? null, stationId ?? null, pageNum],
    queryFn: () => userPositions(userId!, { pageNum, orgId, stationId }),
    enabled: userId !== null,
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['user-positions', userId] })
  const canLink = useCanCall(routes.position.nameList, routes.user.linkPositions)
  const canUnlink = useCanCall(routes.user.unlinkPosition)

  const rows = useMemo(() => byDepartment(positions.data?.list ?? []), [positions.data])
  const spans = useMemo(() => mergeRowSpans(rows.map((r) => r.organizationCompleteName)), [rows])

  if (userId === null) return <MissingUser />

  const remove = async (row: UserPositionRow) => {
    try {
      await unlinkPosition(userId, row.id)
    } catch {
      return // the HTTP layer already showed the failure
    }
    toastSuccess(MSG.successBang)
    if (rows.length === 1 && pageNum > 1) setPageNum(pageNum - 1)
    await refresh()
  }

  const columns: TableColumnsType<UserPositionRow> = [
    {
      title: '部门',
      dataIndex: 'organizationCompleteName',
      onCell: (_row, index) => ({ rowSpan: spans[index ?? 0] ?? 1 }),
    },
    { title: '职位', dataIndex: 'stationName' },
    { title: '状态', dataIndex: 'status', width: 90, render: (s: number) => <EnabledTag status={s} /> },
    { title: '类型', dataIndex: 'type', width: 110, render: () => '普通职位' },
    expiryColumn<UserPositionRow>(),
  ]
  if (canUnlink)
    columns.push({
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_: unknown, row) => (
        <ConfirmLink title={CONFIRM_UNLINK_POSITION} onConfirm={() => remove(row)}>
          移除
        </ConfirmLink>
      ),
    })

  return (
    <div>
      <TabHeading>关联岗位</TabHeading>
      <Space wrap style={{ marginBottom: 12 }} data-testid="user-position-filters">
        <OrgCascader
          value={orgId}
          style={{ width: 260 }}
          onChange={(next) => {
            setOrgId(next)
            setStationId(undefined)
            setPageNum(1)
          }}
        />
        <StationSelect
          orgId={orgId}
          value={stationId}
          style={{ width: 200 }}
          onChange={(next) => {
            setStationId(next)
            setPageNum(1)
          }}
        />
        {canLink && <PositionPicker userId={userId} onLinked={refresh} />}
      </Space>
      <Table<UserPositionRow>
        rowKey="id"
        size="middle"
        bordered
        data-testid="user-position-table"
        columns={columns}
        dataSource={rows}
        loading={positions.isFetching}
        pagination={false}
        // a narrow window scrolls the table sideways rather than squeezing its columns
        scroll={{ x: 720 }}
      />
      {positions.data?.hiddenPositions ? (
        // DESIGN.md §13: positions in departments outside the caller's scope are only counted
        <Typography.Text
          type="secondary"
          data-testid="hidden-positions"
          style={{ display: 'block', marginTop: 8 }}
        >
          {`另有 ${positions.data.hiddenPositions} 个岗位不可见`}
        </Typography.Text>
      ) : null}
      <div style={{ marginTop: 12, display: 'flex', justifyContent: 'flex-end' }}>
        <Pagination
          total={positions.data?.total ?? 0}
          current={pageNum}
          pageSize={USER_POSITION_PAGE_SIZE}
          pageSizes={[USER_POSITION_PAGE_SIZE]}
          onChange={(next) => setPageNum(next)}
        />
      </div>
    </div>
  )
}

const candidateColumns: TableColumnsType<PositionSimple> = [
  { title: '部门', dataIndex: 'organizationCompleteName' },
  { title: '职位', dataIndex: 'stationName', width: 110 },
]

/**
 * The "link positions" popover: positions the user does not hold, filtered by department and job title;
 * positions carrying roles beyond the caller's power are shown disabled with the reason.
 */
function PositionPicker({ userId, onLinked }: { userId: number; onLinked: () => Promise<unknown> }) {
  const [open, setOpen] = useState(false)
  const [orgId, setOrgId] = useState<number>()
  const [stationId, setStationId] = useState<number>()
  const [expiresAt, setExpiresAt] = useState<string | null>(null)

  const candidates = useQuery({
    queryKey: ['user-position-candidates', userId, orgId ?? null, stationId ?? null],
    queryFn: () => positionCandidates(userId, orgId, stationId),
    enabled: open,
  })

  const { selected, setSelected, button } = useLinkChosen(
    (ids) => linkPositions(userId, ids, expiresAt),
    async () => {
      setOpen(false)
      await onLinked()
    },
  )

  const content = (
    <div data-testid="position-candidates">
      <Space orientation="vertical" style={{ width: '100%' }} size={8}>
        <OrgCascader
          value={orgId}
          style={{ width: '100%' }}
          onChange={(next) => {
            setOrgId(next)
            setStationId(undefined)
            setSelected([])
          }}
        />
        <StationSelect
          orgId={orgId}
          value={stationId}
          style={{ width: '100%' }}
          onChange={(next) => {
            setStationId(next)
            setSelected([])
          }}
        />
        <CandidateTable<PositionSimple>
          columns={candidateColumns}
          rows={candidates.data ?? []}
          loading={candidates.isFetching}
          selected={selected}
          onSelect={setSelected}
        />
        <ExpiryPicker value={expiresAt} onChange={setExpiresAt} />
        <div style={{ display: 'flex', justifyContent: 'flex-end' }}>{button}</div>
      </Space>
    </div>
  )

  return (
    <Popover
      trigger="click"
      placement="bottomLeft"
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (next) {
          setSelected([])
          setExpiresAt(null)
        }
      }}
      content={content}
    >
      <Button type="primary">关联岗位</Button>
    </Popover>
  )
}
