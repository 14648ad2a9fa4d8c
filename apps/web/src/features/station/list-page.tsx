import { useQueryClient } from '@tanstack/react-query'
import { Button, type TableColumnsType } from 'antd'
import { useNavigate } from 'react-router'
import { routes } from '@amg/contract'
import { DeleteLink, ListTable, useListScreen } from '../../components/list-screen'
import { FilterSearchBar } from '../../components/filter-search-bar'
import { useCanCall } from '../../lib/can-call'
import { useStationStore, type Station } from '../../lib/stores/station-store'
import { Screen } from '../../lib/ui/screen'
import { LIST_PATH, STATION_LIST_KEY, STATION_TYPE_OPTIONS, stationDetailKey } from './common'
import { ExportButton } from '../../components/export-button'
import { actionsColumn, formatTime } from '../../components/list-columns'

const typeLabel = (type: number) => STATION_TYPE_OPTIONS.find((o) => o.value === type)?.label ?? String(type)

/** The search in the URL query (lib/list-state.ts). */
const STATION_LIST_FILTERS = { stationName: 'text' } as const

/** Job title list (SPEC.md §2): search by stationName, create, edit, delete and view, 10 per page. */
export function StationListPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const screen = useListScreen({
    filters: STATION_LIST_FILTERS,
    queryKey: STATION_LIST_KEY,
    fetch: ({ filters, pageNum, pageSize }) =>
      useStationStore
        .getState()
        .fetchList({ stationName: filters.stationName || undefined, pageNum, pageSize }),
  })
  const { list, removeRow } = screen
  const canView = useCanCall(routes.station.detail)
  const canAdd = useCanCall(routes.station.insert)
  const canEdit = useCanCall(routes.station.detail, routes.station.update)

  const remove = (row: Station) =>
    removeRow(async () => {
      await useStationStore.getState().remove(row.id)
      // the deleted job title's form is not shown again from the cache
      queryClient.removeQueries({ queryKey: stationDetailKey(row.id) })
    })

  const open = (target: 'editstation' | 'viewstation', row: Station, title: string) =>
    navigate(`${LIST_PATH}/${target}?${new URLSearchParams({ title, id: String(row.id) })}`)

  const columns: TableColumnsType<Station> = [
    { title: '职位ID', dataIndex: 'id', key: 'id', width: 100 },
    { title: '职位名称', dataIndex: 'stationName', key: 'stationName' },
    { title: '职位类型', dataIndex: 'type', key: 'type', width: 120, render: (t: number) => typeLabel(t) },
    { title: '创建时间', dataIndex: 'createTime', key: 'createTime', width: 180, render: formatTime },
    { title: '修改时间', dataIndex: 'updateTime', key: 'updateTime', width: 180, render: formatTime },
    actionsColumn<Station>(200, (row) => (
      <>
        {canEdit && (
          <Button type="link" size="small" onClick={() => open('editstation', row, '修改职位')}>
            修改
          </Button>
        )}
        {canView && (
          <Button type="link" size="small" onClick={() => open('viewstation', row, '查看职位')}>
            查看
          </Button>
        )}
        <DeleteLink
          title={`确定要删除职位「${row.stationName}」吗？`}
          onConfirm={() => remove(row)}
          call={routes.station.delete}
          cancelNotice
        />
      </>
    )),
  ]

  return (
    <Screen
      title="职位管理"
      description="职位是公司的职务名称（如 前端工程师）；把职位关联到部门后，就成为该部门的岗位。"
    >
      <FilterSearchBar
        list={list}
        filter="stationName"
        placeholder="按职位名称搜索"
        onAdd={canAdd ? () => void navigate(`${LIST_PATH}/addstation`) : undefined}
      >
        <ExportButton
          route={routes.stationExport.stationExport}
          params={{ stationName: list.filters.stationName }}
          fallbackName="职位.xlsx"
        />
      </FilterSearchBar>
      <ListTable<Station> screen={screen} columns={columns} scrollX={880} />
    </Screen>
  )
}
