import { Input, type InputProps } from 'antd'
import { DEFAULT_SIZE } from './size'

export interface TextInputProps extends Omit<InputProps, 'showCount'> {
  /** Maximum length, shown with a character count (SPEC.md §5). */
  maxLength?: number
  /** Show the count (on by default when maxLength is set). */
  showCount?: boolean
}

/** Text input: takes a showCount maximum length. */
export function TextInput({
  size = DEFAULT_SIZE,
  maxLength,
  showCount,
  allowClear = true,
  ...props
}: TextInputProps) {
  return (
    <Input
      size={size}
      maxLength={maxLength}
      showCount={showCount ?? maxLength !== undefined}
      allowClear={allowClear}
      {...props}
    />
  )
}
