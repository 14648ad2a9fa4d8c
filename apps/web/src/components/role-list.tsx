import { Button, type TableProps } from 'antd'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, routes, type RouteBody } from '@amg/contract'
import { useMemo } from 'react'
import { toastSuccess } from '../lib/feedback'
import { request } from '../lib/route-call'
import { useDraft, useKeepPageInRange, useListState } from '../lib/list-state'
import { useSession } from '../lib/session-store'
import { ListQueryBar } from './list-screen'
import { ListPager } from './list-pager'
import {
  RoleRowActionsContext,
  useRoleColumns,
  type RoleListRow,
  type RoleRowActions,
} from './role-list-columns'
import { Table, type IndexedRow } from './table'
import { ExportButton } from './export-button'

export type { RoleListRow } from './role-list-columns'

export type RoleListQuery = RouteBody<typeof routes.role.list>

/** A page of roles: {pageNum, pageSize, roleName, status, types} (SPEC.md §7). */
export const fetchRolePage = (body: RoleListQuery) => request(routes.role.list, { body })

/** Every role list in the query cache (refreshed after any role change). */
export const ROLES_QUERY_KEY = ['roles'] as const

type Row = IndexedRow<RoleListRow>

/** Search, type and status filters in the URL query (lib/list-state.ts): the only copy of them. */
const ROLE_LIST_FILTERS = { roleName: 'text', types: 'ids', status: 'id' } as const

/** A column filter's keys as antd reports them (strings, or null when cleared) as ids. */
const filterIds = (keys: unknown) => ((keys as (string | number)[] | null) ?? []).map(Number)
const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i])

export interface RoleListProps {
  /** Tells the two lists apart in the query cache. */
  scope: string
  /** The type filter's choices. */
  typeFilters: { text: string; value: number }[]
  /** The types sent when the type filter is empty (undefined: every type). */
  defaultTypes?: number[]
  /** Whether edit and delete are enabled for a row. */
  canModify(row: RoleListRow): boolean
  /** Delete, create and edit: left out for a user who may not make the call, whose button is then not shown. */
  remove?(row: RoleListRow): Promise<unknown>
  onCreate?(): void
  onEdit?(row: RoleListRow): void
  onView(row: RoleListRow): void
}

/**
 * A role list (SPEC.md §2): search by role name, a create button, type and single-choice status
 * filters, creator/updater columns only under showOperatorUser, edit/delete/view actions and
 * pagination of 10. Shared by the role and built-in role screens.
 */
export function RoleList(props: RoleListProps) {
  const queryClient = useQueryClient()
  const showOperatorUser = useSession((s) => s.showOperatorUser)
  const list = useListState(ROLE_LIST_FILTERS)
  const { roleName, types, status } = list.filters
  const { pageNum, pageSize } = list
  const [keyword, setKeyword] = useDraft(roleName)

  const body: RoleListQuery = {
    pageNum,
    pageSize,
    ...(roleName ? { roleName } : {}),
    ...(status ? { status } : {}),
    ...(types.length ? { types } : props.defaultTypes ? { types: props.defaultTypes } : {}),
  }
  const roles = useQuery({
    queryKey: [...ROLES_QUERY_KEY, props.scope, body],
    queryFn: () => fetchRolePage(body),
    placeholderData: keepPreviousData,
  })
  // deleting the last row of the last page moves back to the page before
  useKeepPageInRange(list, roles.data)

  const { canModify, remove, onEdit, onView } = props
  const actions = useMemo<RoleRowActions>(
    () => ({
      canModify,
      onEdit,
      onView,
      remove: remove
        ? async (row) => {
            await remove(row)
            toastSuccess(MSG.deleted)
            await queryClient.invalidateQueries({ queryKey: ROLES_QUERY_KEY })
          }
        : undefined,
    }),
    [canModify, remove, onEdit, onView, queryClient],
  )
  const columns = useRoleColumns({ typeFilters: props.typeFilters, types, status, showOperatorUser })

  // antd reports every column's filter, the untouched ones as this render showed them. Only the
  // column the user confirmed is written: the URL may already hold a newer value for the others.
  const onTableChange: TableProps<Row>['onChange'] = (_pagination, filters) => {
    const nextTypes = filterIds(filters.type)
    const nextStatus = filterIds(filters.status)[0]
    const changed: { types?: number[]; status?: number } = {}
    if (!sameIds(nextTypes, types)) changed.types = nextTypes
    if (nextStatus !== status) changed.status = nextStatus
    if ('types' in changed || 'status' in changed) list.setFilters(changed)
  }

  return (
    <div data-testid={`role-list-${props.scope}`}>
      <ListQueryBar
        placeholder="按角色名称搜索"
        value={keyword}
        onChange={setKeyword}
        onSearch={(roleName) => list.setFilters({ roleName })}
        // 重置 empties the column filters too
        onReset={() => list.setFilters({ roleName: '', types: [], status: undefined })}
      >
        {props.onCreate && (
          <Button type="primary" onClick={props.onCreate}>
            新建
          </Button>
        )}
        <ExportButton
          route={routes.roleExport.roleExport}
          params={{ roleName: body.roleName, status: body.status, types: body.types }}
          fallbackName="角色.xlsx"
        />
      </ListQueryBar>
      <RoleRowActionsContext.Provider value={actions}>
        <Table<RoleListRow>
          rowKey="id"
          columns={columns}
          dataSource={roles.data?.list ?? []}
          loading={roles.isFetching}
          onChange={onTableChange}
          // a narrow window scrolls the table sideways rather than squeezing its columns
          scroll={{ x: 1000 }}
        />
      </RoleRowActionsContext.Provider>
      <ListPager list={list} page={roles.data} />
    </div>
  )
}
