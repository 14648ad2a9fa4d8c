import { describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {
  Button,
  DATE_FORMAT,
  DEFAULT_SIZE,
  DatePicker,
  RadioGroup,
  Select,
  TEXTAREA_DEFAULT_ROWS,
  TREE_SELECT_MAX_HEIGHT,
  TextArea,
  normalizeOptions,
} from '.'

describe('button and size', () => {
  it('default size is medium', () => {
    expect(DEFAULT_SIZE).toBe('medium')
    render(<Button>保存修改</Button>)
    const button = screen.getByRole('button', { name: '保存修改' })
    expect(button.className).not.toMatch(/ant-btn-(sm|lg)/)
  })
  it('small and large map to antd sizes', () => {
    render(
      <>
        <Button size="small">小按钮</Button>
        <Button size="large">大按钮</Button>
      </>,
    )
    expect(screen.getByRole('button', { name: '小按钮' }).className).toMatch(/ant-btn-sm/)
    expect(screen.getByRole('button', { name: '大按钮' }).className).toMatch(/ant-btn-lg/)
  })
})

describe('text area', () => {
  it('text area defaults to 2 rows, takes rows 3–5 and shows the count', () => {
    expect(TEXTAREA_DEFAULT_ROWS).toBe(2)
    render(
      <>
        <TextArea aria-label="默认" />
        <TextArea aria-label="描述" rows={4} maxLength={200} defaultValue="你好" />
      </>,
    )
    expect(screen.getByLabelText('默认')).toHaveAttribute('rows', '2')
    const described = screen.getByLabelText('描述')
    expect(described).toHaveAttribute('rows', '4')
    expect(described).toHaveAttribute('maxlength', '200')
    expect(described.closest('.ant-input-textarea-show-count')).toHaveAttribute('data-count', '2 / 200')
  })
})

describe('select', () => {
  it('normalizes plain values and objects', () => {
    expect(normalizeOptions(['a', 2, { label: '三', value: 3 }])).toEqual([
      { label: 'a', value: 'a' },
      { label: '2', value: 2 },
      { label: '三', value: 3 },
    ])
  })
  it('plain and object options can be chosen', async () => {
    const onChange = vi.fn()
    render(<Select aria-label="类型" options={['甲', { label: '乙类', value: 2 }]} onChange={onChange} />)
    fireEvent.mouseDown(screen.getByRole('combobox'))
    fireEvent.click(await screen.findByTitle('乙类'))
    expect(onChange).toHaveBeenCalledWith(2, expect.anything())
    fireEvent.mouseDown(screen.getByRole('combobox'))
    fireEvent.click(await screen.findByTitle('甲'))
    expect(onChange).toHaveBeenLastCalledWith('甲', expect.anything())
  })
  it('tree mode uses id/children and a 200px dropdown', async () => {
    expect(TREE_SELECT_MAX_HEIGHT).toBe(200)
    const onChange = vi.fn()
    render(
      <Select
        tree
        aria-label="上级部门"
        open
        options={[{ id: 1, label: '总部', children: [{ id: 2, label: '研发部' }] }]}
        onChange={onChange}
      />,
    )
    const popup = document.querySelector('.ant-select-dropdown') as HTMLElement
    expect(popup).toBeTruthy()
    expect(popup.style.maxHeight).toBe('200px')
    fireEvent.click(await within(popup).findByTitle('研发部'))
    expect(onChange).toHaveBeenCalledWith(2, expect.anything(), expect.anything())
  })
})

describe('radio group', () => {
  it('radio group answers the chosen value', async () => {
    const onChange = vi.fn()
    render(
      <RadioGroup
        options={[
          { label: '启用', value: 1 },
          { label: '禁用', value: 2 },
        ]}
        value={1}
        onChange={onChange}
      />,
    )
    expect(screen.getByLabelText('启用')).toBeChecked()
    await userEvent.click(screen.getByLabelText('禁用'))
    expect(onChange).toHaveBeenCalledWith(2)
  })
})

describe('date picker', () => {
  it('date picker: yyyy-MM-dd in and out', async () => {
    expect(DATE_FORMAT).toBe('YYYY-MM-DD')
    const onChange = vi.fn()
    render(<DatePicker value="2024-02-29" placeholder="日期" onChange={onChange} />)
    const input = screen.getByPlaceholderText('日期')
    expect(input).toHaveValue('2024-02-29')
    await userEvent.click(input)
    await userEvent.clear(input)
    await userEvent.type(input, '2025-01-31{Enter}')
    expect(onChange).toHaveBeenLastCalledWith('2025-01-31')
  })
})
