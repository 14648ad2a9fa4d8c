import { Space } from 'antd'
import type { ReactNode } from 'react'
import dayjs from '../lib/dayjs'

/** A record's time as the lists show it; nothing for none. */
export const formatTime = (value: string | Date | null | undefined) =>
  value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : ''

interface WithOperators {
  createUserVo?: { nickName: string } | null
  updateUserVo?: { nickName: string } | null
}

/** 创建人 and 更新人, where the deployment shows who created and last changed a record; none otherwise. */
export function operatorColumns<Row extends WithOperators>(shown: boolean) {
  if (!shown) return []
  return [
    {
      title: '创建人',
      key: 'createUser',
      width: 110,
      render: (_: unknown, row: Row) => row.createUserVo?.nickName ?? '',
    },
    {
      title: '更新人',
      key: 'updateUser',
      width: 110,
      render: (_: unknown, row: Row) => row.updateUserVo?.nickName ?? '',
    },
  ]
}

/** The 操作 column: a row's actions side by side (`wrap`: on several lines where the column is narrow). */
export function actionsColumn<Row>(width: number, actions: (row: Row) => ReactNode, wrap = false) {
  return {
    title: '操作',
    key: 'actions',
    width,
    render: (_: unknown, row: Row) => (
      <Space size={0} wrap={wrap}>
        {actions(row)}
      </Space>
    ),
  }
}
