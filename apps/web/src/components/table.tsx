import { Table as AntTable, type TableProps as AntTableProps } from 'antd'
import { useMemo, useState, type Key } from 'react'
import { DEFAULT_SIZE } from './size'

/** SPEC.md §3: the built-in row index the table adds to each row (used for expansion). */
export const BUILT_IN_INDEX = 'haeBuildInIndex'

export type IndexedRow<T> = T & { haeBuildInIndex: number }

/** Copies the rows, adding haeBuildInIndex (0-based position). */
export function withBuiltInIndex<T extends object>(rows: readonly T[]): IndexedRow<T>[] {
  return rows.map((row, index) => ({ ...row, [BUILT_IN_INDEX]: index }) as IndexedRow<T>)
}

export interface TableProps<T extends object> extends Omit<
  AntTableProps<IndexedRow<T>>,
  'dataSource' | 'size'
> {
  dataSource?: readonly T[]
  size?: 'small' | 'medium' | 'large'
  /** Content of an expanded row; only one row is expanded at a time. */
  expandedRowRender?: (row: IndexedRow<T>, index: number) => React.ReactNode
}

const SIZE = { small: 'small', medium: 'middle', large: 'large' } as const

/** Table: adds haeBuildInIndex to each row and keeps at most one row expanded. */
export function Table<T extends object>({
  dataSource = [],
  rowKey = BUILT_IN_INDEX,
  size = DEFAULT_SIZE,
  expandedRowRender,
  expandable,
  pagination = false,
  ...props
}: TableProps<T>) {
  const rows = useMemo(() => withBuiltInIndex(dataSource), [dataSource])
  const [expanded, setExpanded] = useState<readonly Key[]>([])
  const expand =
    expandedRowRender || expandable
      ? {
          ...expandable,
          expandedRowRender: expandedRowRender ?? expandable?.expandedRowRender,
          expandedRowKeys: expanded,
          onExpandedRowsChange: (keys: readonly Key[]) =>
            setExpanded(keys.length ? [keys[keys.length - 1]] : []),
        }
      : undefined
  return (
    <AntTable<IndexedRow<T>>
      {...props}
      size={SIZE[size]}
      rowKey={rowKey}
      dataSource={rows}
      pagination={pagination}
      expandable={expand}
    />
  )
}
