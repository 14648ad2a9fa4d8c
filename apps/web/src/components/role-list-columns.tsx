import { Button, Space, Tag, type TableColumnsType } from 'antd'
import { MSG, roleTypeLabel, routes, STATUS, STATUS_LABEL, type RouteData } from '@amg/contract'
import { createContext, useContext, useMemo } from 'react'
import { toastInfo } from '../lib/feedback'
import type { IndexedRow } from './table'
import { ConfirmLink } from './confirm-link'
import { formatTime, operatorColumns } from './list-columns'

/** A row of the role list, as the contract types the list's answer. */
export type RoleListRow = RouteData<typeof routes.role.list>['list'][number]

/** What a row's action buttons do; given by the list around the table. */
export interface RoleRowActions {
  canModify(row: RoleListRow): boolean
  /** left out when the user may not delete or edit: the button is not shown */
  remove?(row: RoleListRow): Promise<unknown>
  onEdit?(row: RoleListRow): void
  onView(row: RoleListRow): void
}

/**
 * The action cells read their handlers from here rather than from the column definitions: the
 * handlers change on every render, and new columns would make antd reset an open filter dropdown
 * to the applied filter, throwing away the choice the user is making in it.
 */
export const RoleRowActionsContext = createContext<RoleRowActions | null>(null)

function RoleActions({ row }: { row: RoleListRow }) {
  const actions = useContext(RoleRowActionsContext)
  if (!actions) return null
  const locked = !actions.canModify(row)
  const { onEdit, remove } = actions
  return (
    <Space size={0}>
      {onEdit && (
        <Button type="link" size="small" disabled={locked} onClick={() => onEdit(row)}>
          修改
        </Button>
      )}
      <Button type="link" size="small" onClick={() => actions.onView(row)}>
        查看
      </Button>
      {remove && (
        <ConfirmLink
          title={`此操作将永久删除角色「${row.roleName}」, 是否继续?`}
          disabled={locked}
          onConfirm={() => remove(row)}
          onCancel={() => toastInfo(MSG.cancelDelete)}
        >
          删除
        </ConfirmLink>
      )}
    </Space>
  )
}

const STATUS_FILTERS = [STATUS.enabled, STATUS.disabled].map((value) => ({
  text: STATUS_LABEL[value],
  value,
}))

export interface RoleColumnsOptions {
  /** The type filter's choices (a constant of each screen). */
  typeFilters: { text: string; value: number }[]
  /** The applied filters, from the URL: the columns show exactly these (controlled). */
  types: number[]
  status: number | undefined
  showOperatorUser: boolean
}

/**
 * The role table's columns (SPEC.md §2). They change only with the applied filters, so a re-render
 * for any other reason (rows arriving, the loading flag) leaves an open filter dropdown alone.
 */
export function useRoleColumns({
  typeFilters,
  types,
  status,
  showOperatorUser,
}: RoleColumnsOptions): TableColumnsType<IndexedRow<RoleListRow>> {
  return useMemo(
    () => [
      { title: '角色名称', dataIndex: 'roleName', key: 'roleName' },
      {
        title: '类型',
        dataIndex: 'type',
        key: 'type',
        width: 130,
        filters: typeFilters,
        filteredValue: types,
        render: (type: number) => roleTypeLabel(type),
      },
      {
        title: '状态',
        dataIndex: 'status',
        key: 'status',
        width: 100,
        filters: STATUS_FILTERS,
        filterMultiple: false,
        filteredValue: status ? [status] : [],
        render: (value: number) => (
          <Tag color={value === 1 ? 'green' : 'default'}>
            {STATUS_LABEL[value as keyof typeof STATUS_LABEL] ?? value}
          </Tag>
        ),
      },
      { title: '描述', dataIndex: 'description', key: 'description', ellipsis: true },
      { title: '创建时间', dataIndex: 'createTime', key: 'createTime', width: 180, render: formatTime },
      { title: '更新时间', dataIndex: 'updateTime', key: 'updateTime', width: 180, render: formatTime },
      ...operatorColumns<RoleListRow>(showOperatorUser),
      {
        title: '操作',
        key: 'actions',
        width: 190,
        render: (_: unknown, row: RoleListRow) => <RoleActions row={row} />,
      },
    ],
    [typeFilters, types, status, showOperatorUser],
  )
}
