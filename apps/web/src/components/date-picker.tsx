import { DatePicker as AntDatePicker } from 'antd'
import dayjs, { type Dayjs } from '../lib/dayjs'
import { DEFAULT_SIZE, type WidgetSize } from './size'

/** SPEC.md §9: date format yyyy-MM-dd (dayjs: YYYY-MM-DD). */
export const DATE_FORMAT = 'YYYY-MM-DD'

export interface DatePickerProps {
  /** 'YYYY-MM-DD' text. */
  value?: string | null
  onChange?: (value: string | null) => void
  onBlur?: () => void
  placeholder?: string
  disabled?: boolean
  size?: WidgetSize
  id?: string
  allowClear?: boolean
}

/** Date picker: value and output as 'YYYY-MM-DD'. */
export function DatePicker({ value, onChange, size = DEFAULT_SIZE, ...props }: DatePickerProps) {
  const parsed = value ? dayjs(value, DATE_FORMAT) : null
  return (
    <AntDatePicker
      {...props}
      size={size}
      format={DATE_FORMAT}
      value={parsed && parsed.isValid() ? parsed : null}
      onChange={(d: Dayjs | null) => onChange?.(d ? d.format(DATE_FORMAT) : null)}
    />
  )
}
