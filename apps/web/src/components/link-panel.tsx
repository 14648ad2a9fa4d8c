import { useRef, useState } from 'react'
import { Button, Input, Space, Table, Typography, type TableColumnsType } from 'antd'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, type PageResult } from '@amg/contract'
import { useCanCall, type CallDescription } from '../lib/can-call'
import { toastSuccess } from '../lib/feedback'
import { Pagination, DEFAULT_PAGE_SIZE } from './pagination'
import { CandidateTable } from './candidate-table'
import { Popover } from './popover'
import { useLinkChosen } from './link-chosen'
import { ConfirmLink } from './confirm-link'
import { ExpiryPicker, expiryColumn } from './link-expiry'

export interface LinkPanelProps<T extends { id: number }, C extends { id: number }> {
  /** identifies the linked list in the query cache, e.g. ['group-roles', groupId] */
  queryKey: readonly unknown[]
  columns: TableColumnsType<T>
  searchPlaceholder: string
  /** a member list may say how many members lie outside the caller's data scope (`outsideCount`) */
  fetchLinked(params: {
    pageNum: number
    pageSize: number
    keyword: string
  }): Promise<PageResult<T> & { outsideCount?: number }>
  unlink(row: T): Promise<unknown>
  /** SPEC.md's confirmation text, e.g. '确定要移除该角色关联吗？' */
  unlinkConfirm: string
  /** the popover button, e.g. '关联角色' */
  linkButtonText: string
  candidateColumns: TableColumnsType<C>
  candidatePlaceholder: string
  /** one page of candidates; `total` tells whether more can be loaded */
  fetchCandidates(keyword: string, pageNum: number): Promise<PageResult<C>>
  /** `expiresAt`: the picker's 到期时间 when `expiry` is on (null: permanent) */
  link(ids: number[], expiresAt?: string | null): Promise<unknown>
  /** a user's link to a role, group or position (DESIGN.md §20): a 到期时间 in the picker and the list */
  expiry?: boolean
  /**
   * The calls linking and removing make (linking: the candidates' list too): an action shows only to
   * a user who may make all of its calls
   */
  calls: { link: CallDescription[]; unlink: CallDescription[] }
  /** read-only: no link or remove actions */
  disabled?: boolean
  /** extra filters shown before the search box */
  filters?: React.ReactNode
  /** '操作成功!' after linking or removing (default true; off where the choice stays local until a form is saved) */
  successToast?: boolean
}

/**
 * The link pattern shared by the user, group and position tabs (SPEC.md §2): a searchable, paged table
 * of what is linked with a remove action behind a confirmation, and a popover that searches candidates,
 * allows several to be chosen and links them; its link button stays disabled until a row is chosen.
 * Candidates the caller may not grant are shown disabled with the reason (CandidateTable).
 * Links change at once and the list then refreshes (SPEC.md §4).
 */
export function LinkPanel<T extends { id: number }, C extends { id: number }>(props: LinkPanelProps<T, C>) {
  const queryClient = useQueryClient()
  const [keyword, setKeyword] = useState('')
  const [search, setSearch] = useState('')
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE })
  const linked = useQuery({
    queryKey: [...props.queryKey, search, page.pageNum, page.pageSize],
    queryFn: () => props.fetchLinked({ ...page, keyword: search }),
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: props.queryKey })
  const mayLink = useCanCall(...props.calls.link) && !props.disabled
  const mayUnlink = useCanCall(...props.calls.unlink) && !props.disabled

  const removeRow = async (row: T) => {
    try {
      await props.unlink(row)
    } catch {
      return // the HTTP layer already showed the failure
    }
    if (props.successToast !== false) toastSuccess(MSG.successBang)
    // Removing the last row of a page moves back one page, so the table never shows an empty page.
    if (linked.data && linked.data.list.length === 1 && page.pageNum > 1)
      setPage({ ...page, pageNum: page.pageNum - 1 })
    await refresh()
  }

  const shown: TableColumnsType<T> = props.expiry ? [...props.columns, expiryColumn<T>()] : props.columns
  const columns: TableColumnsType<T> = !mayUnlink
    ? shown
    : [
        ...shown,
        {
          title: '操作',
          key: 'actions',
          width: 100,
          render: (_: unknown, row: T) => (
            <ConfirmLink title={props.unlinkConfirm} onConfirm={() => removeRow(row)}>
              移除
            </ConfirmLink>
          ),
        },
      ]

  return (
    <div className="amg-link-panel">
      <Space wrap style={{ marginBottom: 12 }}>
        {props.filters}
        <Input.Search
          allowClear
          placeholder={props.searchPlaceholder}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(value) => {
            setSearch(value.trim())
            setPage({ ...page, pageNum: 1 })
          }}
          style={{ width: 240 }}
        />
        {mayLink ? <CandidatePicker {...props} onLinked={refresh} /> : null}
      </Space>
      <Table<T>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={linked.data?.list ?? []}
        loading={linked.isFetching}
        pagination={false}
        // a narrow window scrolls the table sideways rather than squeezing its columns
        scroll={{ x: 560 }}
      />
      <OutsideLine count={linked.data?.outsideCount} />
      <div style={{ marginTop: 12, display: 'flex', justifyContent: 'flex-end' }}>
        <Pagination
          total={linked.data?.total ?? 0}
          current={page.pageNum}
          pageSize={page.pageSize}
          onChange={(pageNum, pageSize) => setPage({ pageNum, pageSize })}
        />
      </div>
    </div>
  )
}

function CandidatePicker<T extends { id: number }, C extends { id: number }>(
  props: LinkPanelProps<T, C> & { onLinked: () => Promise<unknown> },
) {
  const [open, setOpen] = useState(false)
  const latestRequest = useRef(0)
  const [keyword, setKeyword] = useState('')
  /** the text the shown candidates were searched with ("load more" continues that search) */
  const [searched, setSearched] = useState('')
  const [rows, setRows] = useState<C[]>([])
  const [total, setTotal] = useState(0)
  const [pageNum, setPageNum] = useState(1)
  const [loading, setLoading] = useState(false)
  const [expiresAt, setExpiresAt] = useState<string | null>(null)
  const chosen = useLinkChosen(
    (ids) => (props.expiry ? props.link(ids, expiresAt) : props.link(ids)),
    async () => {
      setOpen(false)
      await props.onLinked()
    },
    props.successToast !== false,
  )
  const { selected, setSelected } = chosen

  const load = async (text: string, nextPage: number) => {
    const previousPage = pageNum
    const request = ++latestRequest.current
    setPageNum(nextPage)
    setSearched(text)
    setLoading(true)
    try {
      const result = await props.fetchCandidates(text, nextPage)
      // A slower answer to an earlier search must not replace the rows of a later one.
      if (request !== latestRequest.current) return
      setRows((current) => (nextPage === 1 ? result.list : [...current, ...result.list]))
      setTotal(result.total)
    } catch {
      if (request === latestRequest.current) setPageNum(previousPage) // SPEC.md §8: a failed "load more" rolls the page counter back
    } finally {
      if (request === latestRequest.current) setLoading(false)
    }
  }

  const onOpenChange = (next: boolean) => {
    setOpen(next)
    if (next) {
      setSelected([])
      setExpiresAt(null)
      void load(keyword.trim(), 1)
    }
  }

  const content = (
    <div data-testid="link-candidates">
      <Input.Search
        allowClear
        size="small"
        placeholder={props.candidatePlaceholder}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onSearch={(value) => void load(value.trim(), 1)}
        style={{ marginBottom: 8 }}
      />
      <CandidateTable<C>
        columns={props.candidateColumns}
        rows={rows}
        loading={loading}
        selected={selected}
        onSelect={setSelected}
      />
      {props.expiry ? (
        <div style={{ marginTop: 8 }}>
          <ExpiryPicker value={expiresAt} onChange={setExpiresAt} />
        </div>
      ) : null}
      <Space style={{ marginTop: 8, width: '100%', justifyContent: 'space-between' }}>
        <Button
          size="small"
          disabled={rows.length >= total || loading}
          onClick={() => void load(searched, pageNum + 1)}
        >
          加载更多
        </Button>
        {chosen.button}
      </Space>
    </div>
  )

  return (
    <Popover trigger="click" placement="bottomLeft" open={open} onOpenChange={onOpenChange} content={content}>
      <Button type="primary">{props.linkButtonText}</Button>
    </Popover>
  )
}

/** DESIGN.md §13: members outside the caller's data scope are not listed, only counted. */
function OutsideLine({ count }: { count?: number }) {
  if (!count) return null
  return (
    <Typography.Text type="secondary" data-testid="outside-count" style={{ display: 'block', marginTop: 8 }}>
      {`另有 ${count} 名成员不在您的管理范围内`}
    </Typography.Text>
  )
}
