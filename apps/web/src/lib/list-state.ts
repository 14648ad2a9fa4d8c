import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useLocation, useNavigate, useSearchParams } from 'react-router'
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './page-sizes'
import { listUrl, rememberList } from './list-memory'

/**
 * A list's search, filters, page and page size live in the URL query, so that back, reload and a
 * shared link show the same rows. One hook serves every list screen.
 *
 * A filter is declared by kind: 'text' (a search box, '' when empty), 'id' (a positive number or
 * undefined: a select) or 'ids' (several numbers, e.g. a table's multi-choice filter).
 */
export type FilterKind = 'text' | 'id' | 'ids'
type FilterValue<K extends FilterKind> = K extends 'text'
  ? string
  : K extends 'id'
    ? number | undefined
    : number[]
export type ListFilters<S extends Record<string, FilterKind>> = { [Key in keyof S]: FilterValue<S[Key]> }

export interface ListState<S extends Record<string, FilterKind>> {
  filters: ListFilters<S>
  pageNum: number
  pageSize: number
  /** Applies new filters (merged into the current ones) and goes back to page 1. */
  setFilters(next: Partial<ListFilters<S>>): void
  setPage(pageNum: number, pageSize?: number): void
}

const PAGE_NUM = 'pageNum'
const PAGE_SIZE = 'pageSize'

const positiveInt = (raw: string | null) => {
  const n = Number(raw)
  return raw !== null && raw !== '' && Number.isSafeInteger(n) && n > 0 ? n : undefined
}

function readFilter(params: URLSearchParams, name: string, kind: FilterKind) {
  const raw = params.get(name)
  if (kind === 'text') return raw ?? ''
  if (kind === 'id') return positiveInt(raw)
  return (raw ?? '')
    .split(',')
    .map((part) => positiveInt(part))
    .filter((n): n is number => n !== undefined)
}

/** Empty values are left out of the URL: a list in its first state has a clean address. */
function writeFilter(params: URLSearchParams, name: string, value: unknown) {
  if (Array.isArray(value) ? value.length === 0 : value === undefined || value === '') params.delete(name)
  else params.set(name, Array.isArray(value) ? value.join(',') : String(value))
}

export function readListState<S extends Record<string, FilterKind>>(
  params: URLSearchParams,
  spec: S,
  pageSizes: readonly number[] = PAGE_SIZES,
) {
  const filters = Object.fromEntries(
    Object.entries(spec).map(([name, kind]) => [name, readFilter(params, name, kind)]),
  ) as ListFilters<S>
  const size = positiveInt(params.get(PAGE_SIZE))
  return {
    filters,
    pageNum: positiveInt(params.get(PAGE_NUM)) ?? 1,
    // only the sizes the pager offers (a hand-edited link cannot ask for 100,000 rows)
    pageSize: size !== undefined && pageSizes.includes(size) ? size : (pageSizes[0] ?? DEFAULT_PAGE_SIZE),
  }
}

export function useListState<S extends Record<string, FilterKind>>(
  spec: S,
  pageSizes: readonly number[] = PAGE_SIZES,
): ListState<S> {
  const [params] = useSearchParams()
  const location = useLocation()
  const navigate = useNavigate()
  // `spec` is a constant of each screen; the key keeps the memo independent of its identity
  const specKey = JSON.stringify(spec)
  const state = useMemo(
    () => readListState(params, JSON.parse(specKey) as S, pageSizes),
    [params, specKey, pageSizes],
  )

  // Remember where this list was left: the edit and view screens return to exactly that (listUrl).
  useEffect(() => rememberList(location.pathname, location.search), [location.pathname, location.search])

  // Every change starts from the newest query, not from the one this render (or an older handler
  // kept by a widget) saw. React Router renders a navigation inside a transition, so a second change
  // made before that render lands (a pager click right after a column filter) would otherwise start
  // from the old query and silently drop the first change.
  const committed = useRef(location)
  useLayoutEffect(() => {
    committed.current = location
  }, [location])
  /** The query last written, and the location it was written on: newer than that location until it lands. */
  const written = useRef<{ from: string; search: string } | null>(null)

  const update = useCallback(
    (change: (next: URLSearchParams) => void) => {
      const now = committed.current
      const base = written.current?.from === now.key ? written.current.search : now.search
      const next = new URLSearchParams(base)
      change(next)
      const search = next.toString()
      written.current = { from: now.key, search }
      // replace: paging and searching do not pile up history entries; back leaves the list.
      // flushSync: the list shows the change (the applied filter, its loading rows) at once rather
      // than when a transition gets round to it, so what is on screen is never older than the URL.
      void navigate(
        { pathname: now.pathname, search: search ? `?${search}` : '' },
        { replace: true, flushSync: true },
      )
    },
    [navigate],
  )

  const setFilters = useCallback(
    (changed: Partial<ListFilters<S>>) =>
      update((next) => {
        Object.entries(changed).forEach(([name, value]) => writeFilter(next, name, value))
        next.delete(PAGE_NUM)
      }),
    [update],
  )
  const setPage = useCallback(
    (pageNum: number, pageSize?: number) =>
      update((next) => {
        writeFilter(next, PAGE_NUM, pageNum > 1 ? pageNum : undefined)
        if (pageSize !== undefined)
          writeFilter(next, PAGE_SIZE, pageSize === pageSizes[0] ? undefined : pageSize)
      }),
    [update, pageSizes],
  )

  return { ...state, setFilters, setPage }
}

/**
 * A page past the end (the last row of the last page deleted, or an old link to a list that has
 * shrunk) moves back to the last page that has rows, so the table never shows an empty page.
 */
export function useKeepPageInRange(
  list: Pick<ListState<never>, 'pageNum' | 'pageSize' | 'setPage'>,
  page: { list: readonly unknown[]; total: number } | undefined,
) {
  const { pageNum, pageSize, setPage } = list
  const lastPage = page ? Math.max(1, Math.ceil(page.total / pageSize)) : undefined
  useEffect(() => {
    if (page && page.list.length === 0 && lastPage !== undefined && pageNum > lastPage) setPage(lastPage)
  }, [page, pageNum, lastPage, setPage])
}

/**
 * The text of a search box before it is applied: it starts as the applied value and follows it when
 * the URL changes underneath (back, a menu click that opens the list afresh).
 */
export function useDraft<T>(applied: T): [T, (value: T) => void] {
  const [draft, setDraft] = useState(applied)
  const [seen, setSeen] = useState(applied)
  const appliedKey = JSON.stringify(applied)
  if (appliedKey !== JSON.stringify(seen)) {
    // adjusting state while rendering (React's documented pattern) rather than in an effect
    setSeen(applied)
    setDraft(applied)
  }
  return [draft, setDraft]
}

export { listUrl, rememberList }

/** Back to a list as it was left: the edit and view screens' 返回 and their "saved" navigation. */
export function useBackToList(path: string): () => void {
  const navigate = useNavigate()
  return useCallback(() => navigate(listUrl(path)), [navigate, path])
}
