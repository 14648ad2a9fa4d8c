import { Radio, type RadioChangeEvent } from 'antd'
import type { ReactNode } from 'react'
import { DEFAULT_SIZE, type WidgetSize } from './size'

export type ChoiceOption = string | number | { label: ReactNode; value: string | number; disabled?: boolean }

const toChoiceOptions = (options: readonly ChoiceOption[]) =>
  options.map((o) => (typeof o === 'object' ? o : { label: String(o), value: o }))

export interface RadioGroupProps {
  options: readonly ChoiceOption[]
  value?: string | number
  onChange?: (value: string | number) => void
  disabled?: boolean
  /** Render as buttons. */
  button?: boolean
  size?: WidgetSize
  id?: string
}

/** Radio group: plain values or {label, value} objects; onChange gets the value. */
export function RadioGroup({ options, onChange, button, size = DEFAULT_SIZE, ...props }: RadioGroupProps) {
  return (
    <Radio.Group
      {...props}
      size={size}
      options={toChoiceOptions(options)}
      optionType={button ? 'button' : 'default'}
      onChange={(e: RadioChangeEvent) => onChange?.(e.target.value)}
    />
  )
}
