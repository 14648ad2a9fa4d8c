import { useMemo } from 'react'
import { Button, Modal, Select as AntSelect, type TableColumnsType } from 'antd'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { MSG, confirmDeletePosition, routes } from '@amg/contract'
import { OrgCascader } from '../../components'
import { ListQueryBar, ListTable, useListScreen, useToggleRow } from '../../components/list-screen'
import { useCanCall } from '../../lib/can-call'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import { useDraft } from '../../lib/list-state'
import { mergeRowSpans } from '../../lib/row-span'
import { usePositionStore, type Position } from '../../lib/stores/position-store'
import { Screen } from '../../lib/ui/screen'
import { deletePositions, fetchPositions, fetchStationOptions, positionName, togglePosition } from './api'
import { linksTitle, statusTag } from './common'
import { ExportButton } from '../../components/export-button'
import { actionsColumn } from '../../components/list-columns'

/** SPEC.md §2: the position list shows 10 per page, the only size its pager offers. */
const PAGE_SIZES = [10]
const POSITIONS_KEY = ['positions'] as const

/** Department and job title filters in the URL query (lib/list-state.ts). */
const POSITION_LIST_FILTERS = { orgId: 'id', stationId: 'id' } as const

/** SPEC.md §3: job title type 1 is an ordinary position. */
const typeText = (type?: number) => (type === 1 || type == null ? '普通职位' : String(type))

/**
 * Position list (SPEC.md §2): filter by department (cascader, any level, includes sub-departments)
 * and job title, applied by 查询; department cells merged where adjacent rows share the name;
 * edit links, enable/disable toggle, delete with confirmation; 10 per page.
 */
export function PositionListPage() {
  const navigate = useNavigate()
  const [modal, modalHolder] = Modal.useModal()
  const screen = useListScreen({
    filters: POSITION_LIST_FILTERS,
    pageSizes: PAGE_SIZES,
    queryKey: POSITIONS_KEY,
    // the rows of another filter are not shown while this one loads
    keepPrevious: false,
    fetch: ({ filters, pageNum, pageSize }) =>
      fetchPositions({
        pageNum,
        pageSize,
        orgId: filters.orgId ?? null,
        stationId: filters.stationId ?? null,
      }),
  })
  const { list, rows, refresh } = screen
  const [draft, setDraft] = useDraft(list.filters)

  const stations = useQuery({ queryKey: ['station', 'simple'], queryFn: fetchStationOptions })
  const spans = useMemo(() => mergeRowSpans(rows.map((r) => r.organizationCompleteName)), [rows])
  const toggleButton = useToggleRow(togglePosition, refresh, routes.position.enable)
  const canDelete = useCanCall(routes.position.delete)
  const canOpenRoles = useCanCall(routes.position.roleList)
  const canOpenUsers = useCanCall(routes.position.userList)
  const canOpenLinks = canOpenRoles || canOpenUsers

  // a dialog rather than a popover (SPEC.md §2); a failed delete keeps it open
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
    actionsColumn<Position>(240, (row) => (
      <>
        {canOpenLinks && (
          <Button type="link" size="small" onClick={() => openLinks(row)}>
            修改关联
          </Button>
        )}
        {toggleButton(row)}
        {canDelete && (
          <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
            删除
          </Button>
        )}
      </>
    )),
  ]

  return (
    <Screen
      title="岗位管理"
      description="岗位 = 部门 + 职位。在部门管理中为部门关联职位即可生成岗位；用户通过岗位获得角色。"
    >
      <ListQueryBar
        onSearch={() => {
          list.setFilters(draft)
          void refresh()
        }}
        onReset={() => list.setFilters({ orgId: undefined, stationId: undefined })}
        fields={[
          {
            key: 'orgId',
            node: (
              <OrgCascader
                aria-label="部门"
                placeholder="请选择部门"
                style={{ width: '100%' }}
                value={draft.orgId}
                onChange={(orgId) => setDraft({ ...draft, orgId })}
              />
            ),
          },
          {
            key: 'stationId',
            node: (
              <AntSelect<number>
                aria-label="职位"
                data-testid="station-select"
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder="请选择职位"
                style={{ width: '100%' }}
                loading={stations.isFetching}
                value={draft.stationId}
                onChange={(stationId) => setDraft({ ...draft, stationId: stationId ?? undefined })}
                options={(stations.data ?? []).map((s) => ({ value: s.id, label: s.stationName }))}
              />
            ),
          },
        ]}
      >
        <ExportButton
          route={routes.positionExport.positionExport}
          params={{ orgId: list.filters.orgId, stationId: list.filters.stationId }}
          fallbackName="岗位.xlsx"
        />
      </ListQueryBar>
      <ListTable<Position> screen={screen} columns={columns} scrollX={800} bordered />
      {modalHolder}
    </Screen>
  )
}
