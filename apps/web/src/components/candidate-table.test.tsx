import { describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { CandidateTable } from './candidate-table'

interface Row {
  id: number
  name: string
  grantable?: boolean
  denyReason?: string | null
}

const REASON = '不能授予或管理超出自己权限的内容：部门管理、新增部门'
const rows: Row[] = [
  { id: 1, name: '客服', grantable: true, denyReason: null },
  { id: 2, name: '部门管理员', grantable: false, denyReason: REASON },
  { id: 3, name: '未标记' }, // e.g. a user candidate: the server does not mark those
]
const columns = [{ title: '名称', dataIndex: 'name', key: 'name' }]

function renderTable(selected: number[] = []) {
  const onSelect = vi.fn()
  render(
    <CandidateTable<Row>
      columns={columns}
      rows={rows}
      loading={false}
      selected={selected}
      onSelect={onSelect}
    />,
  )
  return onSelect
}

const rowOf = (name: string) => screen.getByText(name).closest('tr')!

describe('CandidateTable', { timeout: 60_000 }, () => {
  it('shows a candidate the caller may not grant disabled, with the reason on hover', async () => {
    renderTable()
    const denied = rowOf('部门管理员')
    expect(within(denied).getByRole('checkbox')).toBeDisabled()
    expect(denied).toHaveAttribute('aria-disabled', 'true')
    expect(screen.queryByText(REASON)).toBeNull()

    await userEvent.hover(within(denied).getByText('部门管理员'))
    // antd's pop-up motion runs on timers in jsdom: wait for the tooltip to settle
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent(REASON))
    await waitFor(() => expect(screen.getByText(REASON).closest('.ant-tooltip')).toBeVisible(), {
      timeout: 5_000,
    })
  })

  it('keeps grantable and unmarked candidates selectable, without a tooltip', async () => {
    const onSelect = renderTable()
    for (const name of ['客服', '未标记']) {
      expect(within(rowOf(name)).getByRole('checkbox')).toBeEnabled()
      expect(rowOf(name)).not.toHaveAttribute('aria-disabled')
    }
    await userEvent.click(within(rowOf('客服')).getByRole('checkbox'))
    expect(onSelect).toHaveBeenLastCalledWith([1])
    await userEvent.hover(within(rowOf('客服')).getByText('客服'))
    await new Promise((r) => setTimeout(r, 300)) // longer than the tooltip's open delay
    expect(screen.queryByRole('tooltip')).toBeNull()
  })

  it('"select all" leaves the disabled candidate out', async () => {
    const onSelect = renderTable()
    const [selectAll] = screen.getAllByRole('checkbox')
    await userEvent.click(selectAll)
    expect(onSelect).toHaveBeenLastCalledWith([1, 3])
  })
})
