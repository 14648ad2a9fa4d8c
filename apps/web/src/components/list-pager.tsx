import type { ListState } from '../lib/list-state'
import { Pagination } from './pagination'

/**
 * A list's pager on its own line under the table, on the right, bound to the list's page in the URL
 * (lib/list-state.ts).
 */
export function ListPager({
  list,
  page,
  pageSizes,
  marginTop = 16,
}: {
  list: Pick<ListState<never>, 'pageNum' | 'pageSize' | 'setPage'>
  /** the current page's answer (undefined while the first one loads) */
  page: { total: number; totalIsEstimate?: boolean } | undefined
  pageSizes?: readonly number[]
  marginTop?: number
}) {
  return (
    <div style={{ marginTop, display: 'flex', justifyContent: 'flex-end' }}>
      <Pagination
        total={page?.total ?? 0}
        estimated={page?.totalIsEstimate}
        current={list.pageNum}
        pageSize={list.pageSize}
        pageSizes={pageSizes}
        onChange={(pageNum, pageSize) => list.setPage(pageNum, pageSize)}
      />
    </div>
  )
}
