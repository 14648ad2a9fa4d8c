import { EXACT_TOTAL_LIMIT } from '@amg/contract'
import { Pagination as AntPagination } from 'antd'
import zhCN from 'antd/es/locale/zh_CN'
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../lib/page-sizes'
import { DEFAULT_SIZE, type WidgetSize } from './size'

/** SPEC.md §9: layout total, sizes, prev, pager, next, jumper. */
export { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, PAGE_SIZES }
export const showTotal = (total: number) => `共 ${total} 条`
/** A total the server only estimated (the logs past 10,000 matches) is not shown as a number. */
export const showEstimatedTotal = () => `超过 ${EXACT_TOTAL_LIMIT} 条`

export interface PaginationProps {
  total: number
  current?: number
  pageSize?: number
  pageSizes?: readonly number[]
  onChange?: (page: number, pageSize: number) => void
  size?: WidgetSize
  disabled?: boolean
  /** the total is the server's estimate (`totalIsEstimate`): shown as 超过 10000 条 */
  estimated?: boolean
}

/** Pagination with total, sizes, prev/pager/next and jumper. */
export function Pagination({
  total,
  current,
  pageSize,
  pageSizes = PAGE_SIZES,
  onChange,
  size = DEFAULT_SIZE,
  disabled,
  estimated,
}: PaginationProps) {
  return (
    <AntPagination
      total={total}
      current={current}
      pageSize={pageSize}
      defaultCurrent={DEFAULT_PAGE}
      defaultPageSize={DEFAULT_PAGE_SIZE}
      pageSizeOptions={pageSizes.map(String)}
      showTotal={estimated ? showEstimatedTotal : showTotal}
      showSizeChanger
      showQuickJumper
      locale={zhCN.Pagination}
      size={size === 'small' ? 'small' : 'medium'}
      disabled={disabled}
      onChange={onChange}
    />
  )
}
