import { Checkbox as AntCheckbox, type CheckboxProps } from 'antd'
import type { ReactNode } from 'react'

export type { CheckboxProps }

/** Checkbox. */
export function Checkbox(props: CheckboxProps) {
  return <AntCheckbox {...props} />
}

export type ChoiceOption = string | number | { label: ReactNode; value: string | number; disabled?: boolean }

export const toChoiceOptions = (options: readonly ChoiceOption[]) =>
  options.map((o) => (typeof o === 'object' ? o : { label: String(o), value: o }))

export interface CheckboxGroupProps {
  options: readonly ChoiceOption[]
  value?: (string | number)[]
  onChange?: (value: (string | number)[]) => void
  disabled?: boolean
}

/** Checkbox group: plain values or {label, value} objects. */
export function CheckboxGroup({ options, ...props }: CheckboxGroupProps) {
  return <AntCheckbox.Group options={toChoiceOptions(options)} {...props} />
}
