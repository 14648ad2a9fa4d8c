import { Button as AntButton, type ButtonProps as AntButtonProps } from 'antd'
import { DEFAULT_SIZE } from './size'

export type ButtonProps = AntButtonProps

/** Button (SPEC.md §1) with the default size medium. */
export function Button({ size = DEFAULT_SIZE, ...props }: ButtonProps) {
  return <AntButton size={size} {...props} />
}
