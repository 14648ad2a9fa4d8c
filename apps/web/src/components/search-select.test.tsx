import { describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { SearchSelect, type SearchOption } from './search-select'

const wrap = (node: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {node}
    </QueryClientProvider>,
  )

/** A server's answer: the entries whose key starts with what is typed (empty: all), by their label. */
const server = (entries: [key: string, label: string][]) =>
  vi.fn(async (typed: string): Promise<SearchOption[]> =>
    entries.flatMap(([key, label], i) => (key.startsWith(typed) ? [{ value: i + 1, label }] : [])),
  )

describe('search select', () => {
  it('asks the server with the trimmed text and offers its answer as it is; one is chosen', async () => {
    const search = server([
      ['alice', '爱丽丝'],
      ['bob', '鲍勃'],
      ['amy', '艾米'],
    ])
    const onChange = vi.fn()
    wrap(<SearchSelect id="pick_user" label="用户" search={search} onChange={onChange} />)
    expect(screen.getByText('选择用户')).toBeTruthy()
    await waitFor(() => expect(search).toHaveBeenCalledWith(''))
    const box = screen.getByRole('combobox', { name: '用户' })
    fireEvent.mouseDown(box)
    fireEvent.change(box, { target: { value: ' a ' } })
    await waitFor(() => expect(search).toHaveBeenLastCalledWith('a'))
    // the server's list as it is: its labels do not hold the typed text, nothing hides them here
    expect(await screen.findByTitle('艾米')).toBeTruthy()
    expect(screen.getByTitle('爱丽丝')).toBeTruthy()
    expect(screen.queryByTitle('鲍勃')).toBeNull()
    fireEvent.click(screen.getByTitle('艾米'))
    expect(onChange).toHaveBeenCalledWith(3, expect.anything())
  })

  it('takes several in multiple mode, with its own placeholder', async () => {
    const search = server([
      ['a', '角色甲'],
      ['b', '角色乙'],
    ])
    const onChange = vi.fn()
    wrap(
      <SearchSelect
        id="pick_roles"
        label="复核角色"
        placeholder="选择要复核的角色"
        multiple
        search={search}
        onChange={onChange}
      />,
    )
    expect(screen.getByText('选择要复核的角色')).toBeTruthy()
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '复核角色' }))
    fireEvent.click(await screen.findByTitle('角色甲'))
    expect(onChange).toHaveBeenLastCalledWith([1], expect.anything())
    fireEvent.click(screen.getByTitle('角色乙'))
    expect(onChange).toHaveBeenLastCalledWith([1, 2], expect.anything())
  })
})
