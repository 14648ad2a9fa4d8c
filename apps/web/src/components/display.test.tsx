import { describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {
  BUILT_IN_INDEX,
  DEFAULT_PAGE,
  DEFAULT_PAGE_SIZE,
  List,
  PAGE_SIZES,
  POPOVER_TABLE_HEIGHT,
  POPOVER_WIDTH,
  Pagination,
  Popover,
  Table,
  Tree,
  filterTree,
  withBuiltInIndex,
} from '.'

describe('table', () => {
  it('adds haeBuildInIndex to each row', () => {
    expect(BUILT_IN_INDEX).toBe('haeBuildInIndex')
    expect(withBuiltInIndex([{ a: 1 }, { a: 2 }])).toEqual([
      { a: 1, haeBuildInIndex: 0 },
      { a: 2, haeBuildInIndex: 1 },
    ])
    render(
      <Table
        dataSource={[{ name: '甲' }, { name: '乙' }]}
        columns={[
          { title: '序号', dataIndex: 'haeBuildInIndex' },
          { title: '名称', dataIndex: 'name' },
        ]}
      />,
    )
    const cells = screen.getAllByRole('cell').map((c) => c.textContent)
    expect(cells).toEqual(['0', '甲', '1', '乙'])
  })
  it('expands only one row at a time', async () => {
    const { container } = render(
      <Table
        dataSource={[{ name: '甲' }, { name: '乙' }]}
        columns={[{ title: '名称', dataIndex: 'name' }]}
        expandedRowRender={(row) => <p>详情-{row.name}</p>}
      />,
    )
    const buttons = () => container.querySelectorAll<HTMLButtonElement>('.ant-table-row-expand-icon')
    await userEvent.click(buttons()[0])
    expect(screen.getByText('详情-甲')).toBeVisible()
    await userEvent.click(buttons()[1])
    expect(screen.getByText('详情-乙')).toBeVisible()
    await waitFor(() => expect(screen.queryByText('详情-甲')).not.toBeVisible())
    expect(container.querySelectorAll('.ant-table-row-expand-icon-expanded')).toHaveLength(1)
  })
})

describe('list', () => {
  it('renders items or the empty text', () => {
    const { rerender } = render(<List items={['a', 'b']} renderItem={(i) => <span>项-{i}</span>} />)
    expect(screen.getAllByRole('listitem')).toHaveLength(2)
    expect(screen.getByText('项-b')).toBeInTheDocument()
    rerender(<List items={[]} renderItem={(i) => i} />)
    expect(screen.getByText('暂无数据')).toBeInTheDocument()
  })
})

describe('pagination', () => {
  it('page 1, size 10, sizes 10/20/30/40/50/100, total, sizes, jumper', async () => {
    expect([DEFAULT_PAGE, DEFAULT_PAGE_SIZE]).toEqual([1, 10])
    expect(PAGE_SIZES).toEqual([10, 20, 30, 40, 50, 100])
    const onChange = vi.fn()
    const { container } = render(<Pagination total={95} onChange={onChange} />)
    expect(screen.getByText('共 95 条')).toBeInTheDocument()
    expect(container.querySelector('.ant-pagination-item-active')).toHaveTextContent('1')
    expect(container.querySelector('.ant-pagination-options-size-changer')).toBeTruthy()
    expect(container.querySelector('.ant-pagination-options-quick-jumper')).toBeTruthy()
    expect(screen.getByText('10 条/页')).toBeInTheDocument()
    fireEvent.mouseDown(container.querySelector('.ant-pagination-options-size-changer [role="combobox"]')!)
    const options = await screen.findAllByRole('option')
    expect(options.map((o) => o.textContent?.replace(/\D/g, ''))).toEqual([
      '10',
      '20',
      '30',
      '40',
      '50',
      '100',
    ])
    await userEvent.click(container.querySelector('.ant-pagination-next button')!)
    expect(onChange).toHaveBeenCalledWith(2, 10)
  })
})

describe('tree', () => {
  const data = [
    {
      id: 1,
      label: '总部',
      code: 'HQ',
      children: [
        { id: 2, label: '研发部', code: 'RD' },
        { id: 3, label: '市场部', code: 'MK' },
      ],
    },
    { id: 4, label: '分公司', code: 'BR' },
  ]
  it('filters by label substring, keeping ancestors', () => {
    expect(filterTree(data, '研发')).toEqual([{ ...data[0], children: [data[0].children![0]] }])
    expect(filterTree(data, '')).toEqual(data)
    expect(filterTree(data, '无')).toEqual([])
  })
  it('filters by a chosen property and honours custom field names', () => {
    expect(filterTree(data, 'MK', {}, 'code')).toEqual([{ ...data[0], children: [data[0].children![1]] }])
    const custom = [{ id: 1, name: 'A', subs: [{ id: 2, name: 'Bee' }] }]
    expect(filterTree(custom, 'ee', { label: 'name', children: 'subs' })).toEqual([
      { id: 1, name: 'A', subs: [{ id: 2, name: 'Bee' }] },
    ])
  })
  it('offers a search box that filters the nodes', async () => {
    render(<Tree data={data} />)
    expect(screen.getByText('研发部')).toBeInTheDocument()
    await userEvent.type(screen.getByPlaceholderText('输入关键字进行过滤'), '市场')
    await waitFor(() => expect(screen.queryByText('研发部')).toBeNull())
    expect(screen.getByText('市场部')).toBeInTheDocument()
    expect(screen.queryByText('分公司')).toBeNull()
  })
})

describe('popover', () => {
  it('350 wide; a table inside scrolls at 250', async () => {
    expect(POPOVER_WIDTH).toBe(350)
    expect(POPOVER_TABLE_HEIGHT).toBe(250)
    render(
      <>
        <Popover open content="提示内容">
          <span>触发</span>
        </Popover>
      </>,
    )
    const content = await screen.findByText('提示内容')
    const container = content.closest('.ant-popover-container') as HTMLElement
    expect(container.style.width).toBe('350px')
  })
})
