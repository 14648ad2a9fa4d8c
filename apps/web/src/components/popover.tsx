import { Popover as AntPopover, type PopoverProps as AntPopoverProps } from 'antd'

/** SPEC.md §9: popover width 350, a table inside it scrolls at 250. */
export const POPOVER_WIDTH = 350
export const POPOVER_TABLE_HEIGHT = 250

export interface PopoverProps extends Omit<AntPopoverProps, 'styles'> {
  width?: number
}

/** Popover 350px wide. */
export function Popover({ width = POPOVER_WIDTH, ...props }: PopoverProps) {
  return <AntPopover {...props} styles={{ container: { width } }} />
}
