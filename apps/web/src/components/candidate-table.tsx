import { Table, Tooltip, theme, type TableColumnsType } from 'antd'
import type { HTMLAttributes } from 'react'
import { denyReasonOf } from '../lib/grantable'
import { POPOVER_TABLE_HEIGHT } from './popover'

export interface CandidateTableProps<C extends { id: number }> {
  columns: TableColumnsType<C>
  rows: readonly C[]
  loading: boolean
  selected: number[]
  onSelect(ids: number[]): void
}

/**
 * The table of a link picker's popover: candidates with a checkbox each. A candidate the caller may
 * not grant (DESIGN.md §6a) is greyed out, cannot be chosen (nor by "select all"), and tells why on
 * hover, so the user learns the reason before trying rather than from a refused call.
 */
export function CandidateTable<C extends { id: number }>(props: CandidateTableProps<C>) {
  return (
    <Table<C>
      rowKey="id"
      size="small"
      columns={props.columns}
      dataSource={props.rows}
      loading={props.loading}
      pagination={false}
      scroll={{ y: POPOVER_TABLE_HEIGHT }}
      components={{ body: { row: CandidateRow } }}
      // The reason travels to the row as its `title`; CandidateRow turns it into a tooltip.
      onRow={(row) => ({ title: denyReasonOf(row) ?? undefined })}
      rowSelection={{
        selectedRowKeys: props.selected,
        // chosen rows stay chosen while the list is searched again or grows ("load more")
        preserveSelectedRowKeys: true,
        getCheckboxProps: (row) => ({ disabled: denyReasonOf(row) !== null }),
        onChange: (keys) => props.onSelect(keys.map(Number)),
      }}
    />
  )
}

/** A body row; with a `title` (the deny reason) it is shown disabled and the reason is its tooltip. */
function CandidateRow({ title, style, ...rest }: HTMLAttributes<HTMLTableRowElement>) {
  const { token } = theme.useToken()
  if (!title) return <tr style={style} {...rest} />
  return (
    // beside the picker rather than above the row, so it never hides the other candidates
    <Tooltip title={title} placement="right">
      <tr
        {...rest}
        aria-disabled
        data-deny-reason={title}
        style={{ ...style, color: token.colorTextDisabled, cursor: 'not-allowed' }}
      />
    </Tooltip>
  )
}
