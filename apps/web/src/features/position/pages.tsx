import { useMemo } from 'react'
import {
  Button,
  Form,
  Modal,
  Select as AntSelect,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useSearchParams } from 'react-router'
import { MSG, confirmDeletePosition, roleTypeLabel, type RoleSimple } from '@amg/contract'
import { LinkPanel, OrgCascader, Pagination } from '../../components'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import { useBackToList, useDraft, useKeepPageInRange, useListState } from '../../lib/list-state'
import { usePositionStore, type Position } from '../../lib/stores/position-store'
import { RouteTabs } from '../../lib/ui/route-tabs'
import { Screen } from '../../lib/ui/screen'
import {
  deletePositions,
  fetchPositionRoles,
  fetchPositions,
  fetchPositionUsers,
  fetchRoleCandidates,
  fetchStationOptions,
  fetchUserCandidates,
  linkRoles,
  linkUsers,
  positionName,
  togglePosition,
  unlinkRoles,
  unlinkUsers,
  type LinkedRole,
  type LinkedUser,
  type UserCandidate,
} from './api'
import { mergeRowSpans } from '../../lib/row-span'

/** SPEC.md §2: the position list shows 10 per page, the only size its pager offers. */
const PAGE_SIZES = [10]
const POSITIONS_KEY = ['positions'] as const
const POSITION_LIST_PATH = '/positionmanage'

/** Department and job title filters in the URL query (lib/list-state.ts). */
const POSITION_LIST_FILTERS = { orgId: 'id', stationId: 'id' } as const

/** SPEC.md §3: status 1 enabled, anything else disabled. */
const statusTag = (status: number) =>
  status === 1 ? <Tag color="green">启用</Tag> : <Tag color="default">禁用</Tag>

/** SPEC.md §3: job title type 1 is an ordinary position. */
const typeText = (type?: number) => (type === 1 || type == null ? '普通职位' : String(type))

/** '修改{department-jobtitle}的关联关系': the title of the links screen (SPEC.md §2). */
export const linksTitle = (name: string) => `修改${name}的关联关系`

/**
 * Position list (SPEC.md §2): filter by department (cascader, any level, includes sub-departments)
 * and job title, applied by 搜索; department cells merged where adjacent rows share the name;
 * edit links, enable/disable toggle, delete with confirmation; 10 per page.
 */
export function PositionListPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [modal, modalHolder] = Modal.useModal()
  const list = useListState(POSITION_LIST_FILTERS, PAGE_SIZES)
  const { filters, pageNum, pageSize } = list
  const [draft, setDraft] = useDraft(filters)

  const stations = useQuery({ queryKey: ['station', 'simple'], queryFn: fetchStationOptions })
  const positions = useQuery({
    queryKey: [...POSITIONS_KEY, filters, pageNum],
    queryFn: () =>
      fetchPositions({
        pageNum,
        pageSize,
        orgId: filters.orgId ?? null,
        stationId: filters.stationId ?? null,
      }),
  })
  useKeepPageInRange(list, positions.data)
  const rows = useMemo(() => positions.data?.list ?? [], [positions.data])
  const spans = useMemo(() => mergeRowSpans(rows.map((r) => r.organizationCompleteName)), [rows])
  const refresh = () => queryClient.invalidateQueries({ queryKey: POSITIONS_KEY })

  const toggle = useMutation({
    mutationFn: togglePosition,
    onSuccess: async () => {
      toastSuccess(MSG.successBang)
      await refresh()
    },
  })

  const confirmDelete = (row: Position) => {
    modal.confirm({
      title: '提示',
      content: confirmDeletePosition(positionName(row)),
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onCancel: () => toastInfo(MSG.cancelDelete),
      onOk: async () => {
        await deletePositions([row.id])
        toastSuccess(MSG.deleted)
        await refresh()
      },
    })
  }

  const openLinks = (row: Position) => {
    usePositionStore.getState().setPositionInfo(row)
    const query = new URLSearchParams({ id: String(row.id), title: linksTitle(positionName(row)) })
    navigate(`/positionmanage/positioninfo?${query.toString()}`)
  }

  const columns: TableColumnsType<Position> = [
    {
      title: '部门',
      dataIndex: 'organizationCompleteName',
      key: 'organizationCompleteName',
      onCell: (_row, index) => ({ rowSpan: spans[index ?? 0] ?? 1 }),
    },
    { title: '职位', dataIndex: 'stationName', key: 'stationName' },
    { title: '状态', dataIndex: 'status', key: 'status', width: 100, render: statusTag },
    { title: '类型', dataIndex: 'type', key: 'type', width: 120, render: typeText },
    {
      title: '操作',
      key: 'actions',
      width: 240,
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => openLinks(row)}>
            修改关联
          </Button>
          <Button
            type="link"
            size="small"
            loading={toggle.isPending && toggle.variables?.id === row.id}
            onClick={() => toggle.mutate(row)}
          >
            {row.status === 1 ? '禁用' : '启用'}
          </Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
            删除
          </Button>
        </Space>
      ),
    },
  ]

  return (
    <Screen title="岗位管理">
      <Form layout="inline" style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item label="部门">
          <OrgCascader
            aria-label="部门"
            value={draft.orgId}
            onChange={(orgId) => setDraft({ ...draft, orgId })}
          />
        </Form.Item>
        <Form.Item label="职位">
          <AntSelect<number>
            aria-label="职位"
            data-testid="station-select"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="请选择职位"
            style={{ width: 200 }}
            loading={stations.isFetching}
            value={draft.stationId}
            onChange={(stationId) => setDraft({ ...draft, stationId: stationId ?? undefined })}
            options={(stations.data ?? []).map((s) => ({ value: s.id, label: s.stationName }))}
          />
        </Form.Item>
        <Form.Item>
          <Button
            type="primary"
            onClick={() => {
              list.setFilters(draft)
              void refresh()
            }}
          >
            搜索
          </Button>
        </Form.Item>
      </Form>
      <Table<Position>
        rowKey="id"
        size="middle"
        bordered
        columns={columns}
        dataSource={rows}
        loading={positions.isFetching}
        pagination={false}
        // a narrow window scrolls the table sideways rather than squeezing its columns
        scroll={{ x: 800 }}
      />
      <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Pagination
          total={positions.data?.total ?? 0}
          estimated={positions.data?.totalIsEstimate}
          current={pageNum}
          pageSize={pageSize}
          pageSizes={PAGE_SIZES}
          onChange={(page) => list.setPage(page)}
        />
      </div>
      {modalHolder}
    </Screen>
  )
}

/** The page title from the query: '修改{department-jobtitle}的关联关系' (also accepts the bare name). */
function positionInfoTitle(title: string | null) {
  if (!title) return '岗位关联'
  return /^修改.*的关联关系$/.test(title) ? title : linksTitle(title)
}

/** Position info: tabs roleform (the default) and userform (SPEC.md §2). */
export function PositionInfoPage() {
  const [params] = useSearchParams()
  const backToList = useBackToList(POSITION_LIST_PATH)
  return (
    <Screen title={positionInfoTitle(params.get('title'))} extra={<Button onClick={backToList}>返回</Button>}>
      <RouteTabs
        base="/positionmanage/positioninfo"
        tabs={[
          { key: 'roleform', label: '关联角色' },
          { key: 'userform', label: '关联用户' },
        ]}
      />
    </Screen>
  )
}

function usePositionId(): number | undefined {
  const [params] = useSearchParams()
  const id = Number(params.get('id'))
  return Number.isInteger(id) && id > 0 ? id : undefined
}

const roleColumns: TableColumnsType<LinkedRole> = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 80 },
  { title: '角色名称', dataIndex: 'roleName', key: 'roleName' },
  { title: '类型', dataIndex: 'type', key: 'type', render: roleTypeLabel },
  { title: '状态', dataIndex: 'status', key: 'status', render: statusTag },
]

const roleCandidateColumns: TableColumnsType<RoleSimple> = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 70 },
  { title: '角色名称', dataIndex: 'roleName', key: 'roleName' },
]

/** Role links of a position: the shared link panel (SPEC.md §2: as for groups). */
export function PositionRoleTab() {
  const positionId = usePositionId()
  if (!positionId) return <MissingPosition />
  return (
    <LinkPanel<LinkedRole, RoleSimple>
      queryKey={['position-roles', positionId]}
      columns={roleColumns}
      searchPlaceholder="请输入角色名称"
      fetchLinked={(q) => fetchPositionRoles(positionId, q)}
      unlink={(row) => unlinkRoles(positionId, [row.id])}
      unlinkConfirm={MSG.confirmUnlinkRole}
      linkButtonText="关联角色"
      candidateColumns={roleCandidateColumns}
      candidatePlaceholder="请输入角色名称"
      fetchCandidates={(keyword) => fetchRoleCandidates(positionId, keyword)}
      link={(ids) => linkRoles(positionId, ids)}
    />
  )
}

const USER_STATUS: Record<number, React.ReactNode> = {
  1: <Tag color="green">正常</Tag>,
  2: <Tag>冻结</Tag>,
}

const userColumns: TableColumnsType<LinkedUser> = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 80 },
  { title: '用户昵称', dataIndex: 'nickName', key: 'nickName' },
  { title: '真实姓名', dataIndex: 'realName', key: 'realName', render: (v: string | null) => v ?? '' },
  { title: '状态', dataIndex: 'status', key: 'status', render: (s: number) => USER_STATUS[s] ?? s },
]

const userCandidateColumns: TableColumnsType<UserCandidate> = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 70 },
  { title: '用户昵称', dataIndex: 'nickName', key: 'nickName' },
]

/** User links of a position: the shared link panel, candidates paged with load-more. */
export function PositionUserTab() {
  const positionId = usePositionId()
  if (!positionId) return <MissingPosition />
  return (
    <LinkPanel<LinkedUser, UserCandidate>
      queryKey={['position-users', positionId]}
      columns={userColumns}
      searchPlaceholder="请输入用户昵称"
      fetchLinked={(q) => fetchPositionUsers(positionId, q)}
      unlink={(row) => unlinkUsers(positionId, [row.id])}
      unlinkConfirm={MSG.confirmUnlinkUser}
      linkButtonText="关联用户"
      candidateColumns={userCandidateColumns}
      candidatePlaceholder="请输入用户昵称"
      fetchCandidates={(keyword, pageNum) => fetchUserCandidates(positionId, keyword, pageNum)}
      link={(ids) => linkUsers(positionId, ids)}
    />
  )
}

function MissingPosition() {
  return (
    <Typography.Text type="secondary" style={{ display: 'block', padding: 24 }}>
      未指定岗位
    </Typography.Text>
  )
}
