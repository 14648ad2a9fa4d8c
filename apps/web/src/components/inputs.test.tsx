import { describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import {
  Button,
  Checkbox,
  CheckboxGroup,
  DATE_FORMAT,
  DEFAULT_SIZE,
  DatePicker,
  NumberInput,
  RadioGroup,
  Select,
  Switch,
  TEXTAREA_DEFAULT_ROWS,
  TIME_FORMAT,
  TIME_RANGE,
  TREE_SELECT_MAX_HEIGHT,
  TextArea,
  TextInput,
  TimePicker,
  isTimeInRange,
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

describe('text input and text area', () => {
  it('text input shows the count against its maximum length', async () => {
    const { container } = render(<TextInput maxLength={10} defaultValue="abc" aria-label="名称" />)
    expect(screen.getByLabelText('名称')).toHaveAttribute('maxlength', '10')
    expect(container.querySelector('.ant-input-show-count-suffix')).toHaveTextContent('3 / 10')
  })
  it('text input without maxLength has no count', () => {
    const { container } = render(<TextInput aria-label="名称" />)
    expect(container.querySelector('.ant-input-show-count-suffix')).toBeNull()
  })
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

describe('number input', () => {
  it('clamps to min and max', async () => {
    const onChange = vi.fn()
    render(<NumberInput aria-label="排序" min={1} max={10} onChange={onChange} />)
    const input = screen.getByLabelText('排序')
    expect(input).toHaveAttribute('aria-valuemin', '1')
    expect(input).toHaveAttribute('aria-valuemax', '10')
    fireEvent.change(input, { target: { value: '50' } })
    fireEvent.blur(input)
    expect(onChange).toHaveBeenLastCalledWith(10)
    fireEvent.change(input, { target: { value: '-3' } })
    fireEvent.blur(input)
    expect(onChange).toHaveBeenLastCalledWith(1)
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

describe('checkbox, checkbox group, radio group, switch', () => {
  it('checkbox toggles', async () => {
    const onChange = vi.fn()
    render(<Checkbox onChange={(e) => onChange(e.target.checked)}>同意</Checkbox>)
    await userEvent.click(screen.getByLabelText('同意'))
    expect(onChange).toHaveBeenCalledWith(true)
  })
  it('checkbox group takes plain or object options and answers the values', async () => {
    function Host() {
      const [value, setValue] = useState<(string | number)[]>([])
      return (
        <>
          <CheckboxGroup options={['读', { label: '写入', value: 2 }]} value={value} onChange={setValue} />
          <span data-testid="v">{JSON.stringify(value)}</span>
        </>
      )
    }
    render(<Host />)
    await userEvent.click(screen.getByLabelText('写入'))
    await userEvent.click(screen.getByLabelText('读'))
    expect(screen.getByTestId('v')).toHaveTextContent('["读",2]')
  })
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
  it('switch maps checked to active/inactive values', async () => {
    const onChange = vi.fn()
    const { rerender } = render(<Switch value={2} activeValue={1} inactiveValue={2} onChange={onChange} />)
    const sw = screen.getByRole('switch')
    expect(sw).not.toBeChecked()
    await userEvent.click(sw)
    expect(onChange).toHaveBeenCalledWith(1)
    rerender(<Switch value={1} activeValue={1} inactiveValue={2} onChange={onChange} />)
    expect(screen.getByRole('switch')).toBeChecked()
    await userEvent.click(screen.getByRole('switch'))
    expect(onChange).toHaveBeenLastCalledWith(2)
  })
})

describe('time and date pickers', () => {
  it('time picker: HH:mm:ss, range 00:00:00–23:59:59', () => {
    expect(TIME_FORMAT).toBe('HH:mm:ss')
    expect(TIME_RANGE).toEqual(['00:00:00', '23:59:59'])
    expect(isTimeInRange('00:00:00')).toBe(true)
    expect(isTimeInRange('23:59:59')).toBe(true)
    expect(isTimeInRange('24:00:00')).toBe(false)
    expect(isTimeInRange('08:30:00', '09:00:00', '18:00:00')).toBe(false)
    render(<TimePicker value="08:05:09" placeholder="时间" />)
    expect(screen.getByPlaceholderText('时间')).toHaveValue('08:05:09')
  })
  it('time picker emits HH:mm:ss text', async () => {
    const onChange = vi.fn()
    render(<TimePicker placeholder="时间" onChange={onChange} />)
    const input = screen.getByPlaceholderText('时间')
    await userEvent.click(input)
    await userEvent.type(input, '13:14:15{Enter}')
    expect(onChange).toHaveBeenLastCalledWith('13:14:15')
  })
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
