import { TimePicker as AntTimePicker } from 'antd'
import dayjs, { type Dayjs } from '../lib/dayjs'
import { DEFAULT_SIZE, type WidgetSize } from './size'

/** SPEC.md §9: time format HH:mm:ss, range 00:00:00 to 23:59:59. */
export const TIME_FORMAT = 'HH:mm:ss'
export const TIME_RANGE = ['00:00:00', '23:59:59'] as const

export interface TimePickerProps {
  /** 'HH:mm:ss' text. */
  value?: string | null
  onChange?: (value: string | null) => void
  onBlur?: () => void
  /** Earliest and latest selectable times (default the whole day). */
  min?: string
  max?: string
  placeholder?: string
  disabled?: boolean
  size?: WidgetSize
  id?: string
  allowClear?: boolean
}

const seconds = (t: string) => {
  const [h = 0, m = 0, s = 0] = t.split(':').map(Number)
  return h * 3600 + m * 60 + s
}
const range = (n: number) => Array.from({ length: n }, (_, i) => i)

/** Time picker: value and output as 'HH:mm:ss', limited to [min, max]. */
export function TimePicker({
  value,
  onChange,
  min = TIME_RANGE[0],
  max = TIME_RANGE[1],
  size = DEFAULT_SIZE,
  ...props
}: TimePickerProps) {
  const lo = seconds(min)
  const hi = seconds(max)
  const parsed = value ? dayjs(value, TIME_FORMAT) : null
  return (
    <AntTimePicker
      {...props}
      size={size}
      format={TIME_FORMAT}
      value={parsed && parsed.isValid() ? parsed : null}
      onChange={(d: Dayjs | null) => onChange?.(d ? d.format(TIME_FORMAT) : null)}
      disabledTime={() => ({
        disabledHours: () => range(24).filter((h) => h * 3600 + 3599 < lo || h * 3600 > hi),
        disabledMinutes: (h) =>
          range(60).filter((m) => h * 3600 + m * 60 + 59 < lo || h * 3600 + m * 60 > hi),
        disabledSeconds: (h, m) =>
          range(60).filter((s) => h * 3600 + m * 60 + s < lo || h * 3600 + m * 60 + s > hi),
      })}
    />
  )
}

export const isTimeInRange = (value: string, min: string = TIME_RANGE[0], max: string = TIME_RANGE[1]) =>
  /^\d{2}:\d{2}:\d{2}$/.test(value) &&
  seconds(value) >= seconds(min) &&
  seconds(value) <= seconds(max) &&
  seconds(value) < 86400
