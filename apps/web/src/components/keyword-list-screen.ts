import type { QueryKey } from '@tanstack/react-query'
import { useListScreen, type ListPage } from './list-screen'

/** The one filter of a list searched by a single keyword box. */
const KEYWORD_FILTER = { keyword: 'text' } as const

/** What a keyword list's route is asked: no keyword (an empty box) asks for every row. */
export interface KeywordQuery {
  keyword?: string
  pageNum: number
  pageSize: number
}

/** A list screen (components/list-screen.tsx) whose one filter is the `keyword` in the URL. */
export function useKeywordListScreen<Row>({
  queryKey,
  refreshKey,
  fetch,
}: {
  queryKey: QueryKey
  /** what refresh fetches again (the list's key by default) */
  refreshKey?: QueryKey
  fetch: (query: KeywordQuery) => Promise<ListPage<Row>>
}) {
  return useListScreen({
    filters: KEYWORD_FILTER,
    queryKey,
    refreshKey,
    fetch: ({ filters, pageNum, pageSize }) =>
      fetch({ keyword: filters.keyword || undefined, pageNum, pageSize }),
  })
}
