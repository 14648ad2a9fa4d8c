import { Switch as AntSwitch, type SwitchProps as AntSwitchProps } from 'antd'

export interface SwitchProps extends Omit<AntSwitchProps, 'value' | 'checked' | 'onChange'> {
  /** The current value: checked when it equals activeValue. */
  value?: unknown
  /** Value when on (default true). */
  activeValue?: unknown
  /** Value when off (default false). */
  inactiveValue?: unknown
  onChange?: (value: any) => void
}

/** Switch with configurable on/off values (e.g. status 1 and 2). */
export function Switch({
  value,
  activeValue = true,
  inactiveValue = false,
  onChange,
  ...props
}: SwitchProps) {
  return (
    <AntSwitch
      {...props}
      checked={value === activeValue}
      onChange={(checked) => onChange?.(checked ? activeValue : inactiveValue)}
    />
  )
}
