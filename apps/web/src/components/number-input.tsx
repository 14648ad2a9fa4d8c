import { InputNumber, type InputNumberProps } from 'antd'
import { DEFAULT_SIZE } from './size'

export type NumberInputProps = InputNumberProps<number>

/** Number input: min and max bound the value (SPEC.md §5). */
export function NumberInput({ size = DEFAULT_SIZE, ...props }: NumberInputProps) {
  return <InputNumber<number> size={size} {...props} />
}
