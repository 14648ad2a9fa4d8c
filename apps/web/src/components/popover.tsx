import {
  Popover as AntPopover,
  Table as AntTable,
  type PopoverProps as AntPopoverProps,
  type TableProps,
} from 'antd'
import type { ReactNode } from 'react'

/** SPEC.md §9: popover width 350, table height 250. */
export const POPOVER_WIDTH = 350
export const POPOVER_TABLE_HEIGHT = 250

export interface PopoverProps extends Omit<AntPopoverProps, 'styles'> {
  width?: number
}

/** Popover 350px wide. */
export function Popover({ width = POPOVER_WIDTH, ...props }: PopoverProps) {
  return <AntPopover {...props} styles={{ container: { width } }} />
}

export interface PopoverTableProps<T extends object> extends Omit<PopoverProps, 'content'> {
  columns: TableProps<T>['columns']
  dataSource: readonly T[]
  rowKey?: TableProps<T>['rowKey']
  children: ReactNode
}

/** A popover holding a table scrolled at 250px. */
export function PopoverTable<T extends object>({
  columns,
  dataSource,
  rowKey,
  children,
  ...props
}: PopoverTableProps<T>) {
  return (
    <Popover
      {...props}
      content={
        <AntTable<T>
          size="small"
          columns={columns}
          dataSource={dataSource as T[]}
          rowKey={rowKey}
          pagination={false}
          scroll={{ y: POPOVER_TABLE_HEIGHT }}
        />
      }
    >
      {children}
    </Popover>
  )
}
