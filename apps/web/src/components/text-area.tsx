import { Input } from 'antd'
import type { TextAreaProps as AntTextAreaProps } from 'antd/es/input'
import { DEFAULT_SIZE } from './size'

/** The widget's default row count (SPEC.md §9); screens pass 3 to 5 where SPEC says so. */
export const TEXTAREA_DEFAULT_ROWS = 2

export interface TextAreaProps extends Omit<AntTextAreaProps, 'showCount'> {
  maxLength?: number
  showCount?: boolean
}

/** Text area: 2 rows by default, a showCount maximum length. */
export function TextArea({
  size = DEFAULT_SIZE,
  rows = TEXTAREA_DEFAULT_ROWS,
  maxLength,
  showCount,
  ...props
}: TextAreaProps) {
  return (
    <Input.TextArea
      size={size}
      rows={props.autoSize ? undefined : rows}
      maxLength={maxLength}
      showCount={showCount ?? maxLength !== undefined}
      {...props}
    />
  )
}
