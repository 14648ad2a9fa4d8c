import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { TableColumnsType } from 'antd'
import type { ReactNode } from 'react'
import {
  ListQueryBar,
  ListTable,
  selectField,
  type ListPage,
  type QueryField,
} from '../../components/list-screen'
import {
  useDraft,
  useKeepPageInRange,
  useListState,
  type FilterKind,
  type ListFilters,
  type ListState,
} from '../../lib/list-state'
import { PAGE_SIZES } from '../../lib/page-sizes'
import { Screen } from '../../lib/ui/screen'
import { TimeRangeFilter, knownResult, resultOptions, validTime } from './common'

/** The filters every log list has besides its own: the result and the time range. */
type LogFilterSpec = Record<string, FilterKind> & { result: 'text'; from: 'text'; to: 'text' }

/** The filters as sent: a result the server knows (else none) and valid times (else open). */
type Applied<S extends LogFilterSpec, R extends string> = Omit<ListFilters<S>, 'result'> & { result: R | '' }

/** A log page also names the server's zone, the one its times are in. */
type LogPage<Row> = ListPage<Row> & { timeZone?: string }

export interface LogListOptions<S extends LogFilterSpec, R extends string, Row> {
  /** The filters, kept in the URL query (lib/list-state.ts). */
  filters: S
  /** Every filter empty: what 重置 applies. */
  empty: ListFilters<S>
  queryKey: readonly string[]
  /** The results the server knows. */
  results: readonly R[]
  // the results alone name the result type; the route's body must take what they allow
  fetch(body: NoInfer<Applied<S, R>> & { pageNum: number; pageSize: number }): Promise<LogPage<Row>>
}

export interface LogList<S extends LogFilterSpec, R extends string, Row> {
  list: ListState<S>
  /** The filters as sent (also what an export sends). */
  applied: Applied<S, R>
  page: LogPage<Row> | undefined
  loading: boolean
  /** The filter bar's values before 查询 applies them. */
  draft: ListFilters<S>
  set(change: Partial<ListFilters<S>>): void
  setResult(result: string): void
  setTimeRange(from: string, to: string): void
  search(): void
  reset(): void
}

/** A log list's state: its filters in the URL, the draft the filter bar edits, and the page of rows. */
export function useLogList<S extends LogFilterSpec, R extends string, Row>(
  options: LogListOptions<S, R, Row>,
): LogList<S, R, Row> {
  const list = useListState(options.filters)
  const { pageNum, pageSize, filters } = list
  const [draft, setDraft] = useDraft(filters)

  const applied: Applied<S, R> = {
    ...filters,
    result: knownResult(options.results, filters.result),
    from: validTime(filters.from),
    to: validTime(filters.to),
  }
  const logs = useQuery({
    queryKey: [...options.queryKey, applied, pageNum, pageSize],
    queryFn: () => options.fetch({ ...applied, pageNum, pageSize }),
    placeholderData: keepPreviousData,
  })
  useKeepPageInRange(list, logs.data)

  // the typed texts are applied without surrounding blanks (the other filters are picked, not typed)
  const trimmed = Object.fromEntries(
    Object.entries(draft).map(([name, value]) => [name, typeof value === 'string' ? value.trim() : value]),
  ) as ListFilters<S>
  return {
    list,
    applied,
    page: logs.data,
    loading: logs.isFetching,
    draft,
    set: (change) => setDraft({ ...draft, ...change }),
    setResult: (result) => setDraft({ ...draft, result }),
    setTimeRange: (from, to) => setDraft({ ...draft, from, to }),
    search: () => list.setFilters(trimmed),
    reset: () => {
      setDraft(options.empty)
      list.setFilters(options.empty)
    },
  }
}

export interface LogListScreenProps<S extends LogFilterSpec, Row> {
  title: string
  /** The screen's own buttons after 查询 and 重置 (the export button). */
  extra?: ReactNode
  log: LogList<S, string, Row>
  /** The list's own filter fields, before the result and the time range; each fills its cell. */
  fields: QueryField[]
  results: Record<string, { label: string }>
  columns: TableColumnsType<Row>
  tableTestId: string
  /** Below this width the table scrolls sideways. */
  scrollX: number
  /** Below the list (a detail drawer). */
  children?: ReactNode
}

/** A log screen (DESIGN.md §9): the list's search bar with its fields, the table, and the pager. */
export function LogListScreen<S extends LogFilterSpec, Row extends { id: number }>({
  title,
  extra,
  log,
  fields,
  results,
  columns,
  tableTestId,
  scrollX,
  children,
}: LogListScreenProps<S, Row>) {
  const { list, page, draft } = log
  return (
    <Screen title={title}>
      <ListQueryBar
        onSearch={log.search}
        onReset={log.reset}
        fields={[
          ...fields,
          selectField(
            'result',
            '结果',
            draft.result || undefined,
            (value) => log.setResult(value ?? ''),
            resultOptions(results),
            { width: 140 },
          ),
          {
            key: 'time',
            width: 380,
            node: (
              <TimeRangeFilter
                from={draft.from}
                to={draft.to}
                timeZone={page?.timeZone}
                onChange={log.setTimeRange}
              />
            ),
          },
        ]}
      >
        {extra}
      </ListQueryBar>
      <ListTable<Row>
        screen={{ list, page, rows: page?.list ?? [], loading: log.loading, pageSizes: PAGE_SIZES }}
        columns={columns}
        data-testid={tableTestId}
        scrollX={scrollX}
      />
      {children}
    </Screen>
  )
}
