import { act, render, screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { routerFlushSync } from './router-flush-sync'
import { listUrl, readListState, useDraft, useListState, type ListState } from './list-state'

const SPEC = { name: 'text', status: 'id', types: 'ids' } as const

describe('readListState', () => {
  it('reads filters, page and page size from the query, with defaults for what is absent', () => {
    expect(readListState(new URLSearchParams(''), SPEC)).toEqual({
      filters: { name: '', status: undefined, types: [] },
      pageNum: 1,
      pageSize: 10,
    })
    expect(
      readListState(new URLSearchParams('name=张&status=2&types=1,3&pageNum=4&pageSize=20'), SPEC),
    ).toEqual({ filters: { name: '张', status: 2, types: [1, 3] }, pageNum: 4, pageSize: 20 })
  })

  it('ignores what a hand-edited link gets wrong', () => {
    const state = readListState(
      new URLSearchParams('status=-1&types=x,2,0&pageNum=abc&pageSize=100000'),
      SPEC,
    )
    expect(state).toEqual({ filters: { name: '', status: undefined, types: [2] }, pageNum: 1, pageSize: 10 })
    expect(readListState(new URLSearchParams('pageSize=20'), SPEC, [10]).pageSize).toBe(10)
  })
})

let current: ListState<typeof SPEC>
function Probe() {
  current = useListState(SPEC)
  const [draft, setDraft] = useDraft(current.filters.name)
  return <input aria-label="draft" value={draft} onChange={(e) => setDraft(e.target.value)} />
}

function renderList(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/list', element: <Probe /> },
      { path: '/edit', element: <p>edit</p> },
    ],
    { initialEntries: [url] },
  )
  render(<RouterProvider router={router} flushSync={routerFlushSync} />)
  return router
}
const search = (router: ReturnType<typeof createMemoryRouter>) => router.state.location.search

describe('useListState', () => {
  beforeEach(() => window.sessionStorage.clear())

  it('writes filters and page to the URL, leaving out defaults; a new search goes back to page 1', async () => {
    const router = renderList('/list')
    await act(async () => current.setPage(3, 20))
    expect(search(router)).toBe('?pageNum=3&pageSize=20')
    await act(async () => current.setFilters({ name: '李', types: [1, 2] }))
    expect(search(router)).toBe('?pageSize=20&name=%E6%9D%8E&types=1%2C2')
    expect(current).toMatchObject({ filters: { name: '李', types: [1, 2] }, pageNum: 1, pageSize: 20 })
    await act(async () => current.setFilters({ name: '', types: [] }))
    expect(search(router)).toBe('?pageSize=20')
    await act(async () => current.setPage(1, 10))
    expect(search(router)).toBe('')
  })

  it('starts every change from the newest query: two changes before a re-render, or an old handler', async () => {
    const router = renderList('/list')
    await act(async () => {
      // one event: a filter and then the page, before React renders the first
      current.setFilters({ status: 1 })
      current.setPage(2)
    })
    expect(search(router)).toBe('?status=1&pageNum=2')
    // a widget that kept the handler of an earlier render
    const old = current
    await act(async () => current.setFilters({ name: 'x' }))
    await act(async () => old.setPage(3, 20))
    expect(search(router)).toBe('?status=1&name=x&pageNum=3&pageSize=20')
  })

  it('replaces the history entry: back leaves the list rather than stepping through its pages', async () => {
    const router = renderList('/list')
    await act(async () => router.navigate('/edit'))
    await act(async () => router.navigate('/list'))
    await act(async () => current.setPage(2))
    await act(async () => current.setPage(3))
    await act(async () => router.navigate(-1))
    expect(router.state.location.pathname).toBe('/edit')
  })

  it('remembers where the list was left, for the edit screens and the breadcrumb (listUrl)', async () => {
    expect(listUrl('/list')).toBe('/list')
    const router = renderList('/list?name=a')
    await act(async () => current.setPage(2))
    expect(listUrl('/list')).toBe('/list?name=a&pageNum=2')
    await act(async () => router.navigate('/edit'))
    expect(listUrl('/list')).toBe('/list?name=a&pageNum=2')
    // opening the list afresh (the side menu) resets what is remembered
    await act(async () => router.navigate('/list'))
    expect(listUrl('/list')).toBe('/list')
  })

  it('the search box follows the URL when it changes underneath (a menu click, back)', async () => {
    const router = renderList('/list?name=abc')
    const box = screen.getByLabelText('draft') as HTMLInputElement
    expect(box.value).toBe('abc')
    await act(async () => router.navigate('/list'))
    expect(box.value).toBe('')
  })
})
