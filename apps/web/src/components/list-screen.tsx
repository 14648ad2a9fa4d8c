import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { Button, Table, type TableColumnsType, type TableProps } from 'antd'
import type { ReactNode } from 'react'
import { MSG } from '@amg/contract'
import { toastInfo, toastSuccess } from '../lib/feedback'
import {
  useKeepPageInRange,
  useListState,
  type FilterKind,
  type ListFilters,
  type ListState,
} from '../lib/list-state'
import { useCanCall, type CallDescription } from '../lib/can-call'
import { PAGE_SIZES } from '../lib/page-sizes'
import { ListPager } from './list-pager'
import { ConfirmLink } from './confirm-link'

/**
 * The shape every list screen shares (positions, job titles, services, user groups): filters and page
 * in the URL (lib/list-state.ts), one page of rows fetched for them, a search bar, the table with its
 * pager, enable/disable and delete with a confirmation. A screen declares its filters, its fetch and
 * its columns; what it shows and says stays its own.
 */

/** One page of rows as the list routes answer it (`totalIsEstimate` when the total is an estimate). */
export interface ListPage<Row> {
  list: Row[]
  total: number
  totalIsEstimate?: boolean
}

export interface ListScreenOptions<S extends Record<string, FilterKind>, Row> {
  /** the filters kept in the URL query */
  filters: S
  /** the sizes the pager offers (the first is the default) */
  pageSizes?: readonly number[]
  /** the key of the list's queries */
  queryKey: QueryKey
  /** what refresh fetches again: everything under this key (the list's key by default) */
  refreshKey?: QueryKey
  /** one page of rows for the applied filters */
  fetch: (query: { filters: ListFilters<S>; pageNum: number; pageSize: number }) => Promise<ListPage<Row>>
  /** keep the previous page's rows on screen while the next one loads (the default) */
  keepPrevious?: boolean
}

export interface ListScreen<S extends Record<string, FilterKind>, Row> {
  list: ListState<S>
  pageSizes: readonly number[]
  page: ListPage<Row> | undefined
  rows: Row[]
  loading: boolean
  /** fetches the list again */
  refresh: () => Promise<void>
  /**
   * Runs a delete; once it has succeeded says so (MSG.deleted) and fetches the list again. Answers
   * whether it succeeded (a failure has been shown by the HTTP layer).
   */
  removeRow: (action: () => Promise<unknown>) => Promise<boolean>
}

/** The URL-bound state and the current page of a list screen. */
export function useListScreen<S extends Record<string, FilterKind>, Row>({
  filters,
  pageSizes = PAGE_SIZES,
  queryKey,
  refreshKey = queryKey,
  fetch,
  keepPrevious = true,
}: ListScreenOptions<S, Row>): ListScreen<S, Row> {
  const queryClient = useQueryClient()
  const list = useListState(filters, pageSizes)
  const { pageNum, pageSize } = list
  const page = useQuery({
    queryKey: [...queryKey, list.filters, pageNum, pageSize],
    queryFn: () => fetch({ filters: list.filters, pageNum, pageSize }),
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  })
  useKeepPageInRange(list, page.data)
  const refresh = () => queryClient.invalidateQueries({ queryKey: refreshKey })
  const removeRow = async (action: () => Promise<unknown>) => {
    try {
      await action()
    } catch {
      return false // the HTTP layer has shown the message
    }
    toastSuccess(MSG.deleted)
    await refresh()
    return true
  }
  return {
    list,
    pageSizes,
    page: page.data,
    rows: page.data?.list ?? [],
    loading: page.isFetching,
    refresh,
    removeRow,
  }
}

export {
  ListQueryBar,
  selectField,
  textField,
  type ListQueryBarProps,
  type QueryField,
} from './list-query-bar'

/** The list's table and, under it on the right, its pager bound to the URL. */
export function ListTable<Row extends object>({
  screen,
  columns,
  scrollX,
  ...table
}: {
  screen: Pick<ListScreen<never, Row>, 'pageSizes' | 'page' | 'rows' | 'loading'> & {
    list: Pick<ListState<never>, 'pageNum' | 'pageSize' | 'setPage'>
  }
  columns: TableColumnsType<Row>
  /** a narrow window scrolls the table sideways past this width rather than squeezing its columns */
  scrollX: number
} & Pick<TableProps<Row>, 'bordered'> & { 'data-testid'?: string }) {
  const { list, pageSizes, page } = screen
  return (
    <>
      <Table<Row>
        rowKey="id"
        size="middle"
        {...table}
        columns={columns}
        dataSource={screen.rows}
        loading={screen.loading}
        pagination={false}
        scroll={{ x: scrollX }}
      />
      <ListPager list={list} page={page} pageSizes={pageSizes} />
    </>
  )
}

/**
 * The enable/disable action of a row (status 1 is enabled): the toggle is sent, MSG.successBang
 * shown and the list fetched again. Answers the row's 禁用/启用 link, which spins meanwhile, or
 * nothing for a user who may not make the toggle `call`.
 */
export function useToggleRow<Row extends { id: number; status: number }>(
  toggle: (row: Row) => Promise<unknown>,
  refresh: () => Promise<void>,
  call: CallDescription,
): (row: Row) => ReactNode {
  const allowed = useCanCall(call)
  const mutation = useMutation({
    mutationFn: toggle,
    onSuccess: async () => {
      toastSuccess(MSG.successBang)
      await refresh()
    },
  })
  if (!allowed) return () => null
  return (row) => (
    <Button
      type="link"
      size="small"
      loading={mutation.isPending && mutation.variables?.id === row.id}
      onClick={() => mutation.mutate(row)}
    >
      {row.status === 1 ? '禁用' : '启用'}
    </Button>
  )
}

/**
 * A row's 删除 link behind a confirmation; `cancelNotice` says 已取消删除 when it is turned down. Shown
 * only to a user who may make the delete `call`.
 */
export function DeleteLink({
  title,
  onConfirm,
  call,
  cancelNotice = false,
}: {
  title: string
  onConfirm: () => Promise<unknown>
  call: CallDescription
  cancelNotice?: boolean
}) {
  if (!useCanCall(call)) return null
  return (
    <ConfirmLink
      title={title}
      onConfirm={onConfirm}
      onCancel={cancelNotice ? () => toastInfo(MSG.cancelDelete) : undefined}
    >
      删除
    </ConfirmLink>
  )
}
