import { useInfiniteQuery } from '@tanstack/react-query'
import type { UserRow } from '@amg/contract'
import { Button, Empty, Select, Space, Spin, Tag, Typography } from 'antd'
import { useEffect, useMemo, useState, type UIEvent } from 'react'
import { AUTHZ_KEY, searchUsers } from './api'

const PAGE_SIZE = 20
/** Typing is answered once it pauses, not with one call per key. */
const SEARCH_DELAY_MS = 300

export interface PickedUser {
  id: number
  nickName: string
  realName?: string | null
  status?: number
}

function UserLabel({ user }: { user: PickedUser }) {
  return (
    <Space size={6}>
      <span>{user.nickName}</span>
      {user.realName ? <Typography.Text type="secondary">{user.realName}</Typography.Text> : null}
      {user.status === 2 ? <Tag color="error">冻结</Tag> : null}
    </Space>
  )
}

/**
 * The user to analyse: searched by nickName on the server (POST /user/list), a page at a time; the
 * next page comes when the list is scrolled to its end or with 加载更多.
 */
export function UserPicker({
  value,
  onChange,
}: {
  value: PickedUser | null
  onChange(user: PickedUser | null): void
}) {
  const [keyword, setKeyword] = useState('')
  const [search, setSearch] = useState('')
  const [open, setOpen] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setSearch(keyword.trim()), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [keyword])

  const pages = useInfiniteQuery({
    queryKey: [...AUTHZ_KEY, 'users', search],
    queryFn: ({ pageParam }) => searchUsers(search, pageParam, PAGE_SIZE),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.length * PAGE_SIZE < last.total ? all.length + 1 : undefined),
    // nothing is asked until the picker is opened (a link opens the page with its user already chosen)
    enabled: open,
  })
  const users: UserRow[] = useMemo(() => pages.data?.pages.flatMap((p) => p.list) ?? [], [pages.data])
  const options = useMemo(() => {
    const list: PickedUser[] = users
    // the chosen user keeps its label while other users are listed
    const all = value && !list.some((u) => u.id === value.id) ? [value, ...list] : list
    return all.map((u) => ({ value: u.id, label: <UserLabel user={u} />, user: u }))
  }, [users, value])

  const loadMore = () => {
    if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage()
  }
  const onPopupScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 24) loadMore()
  }

  return (
    <Select<number | undefined>
      aria-label="选择用户"
      data-testid="user-picker"
      placeholder="搜索并选择用户（按用户昵称）"
      style={{ width: 360, maxWidth: '100%' }}
      allowClear
      value={value?.id}
      options={options}
      showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
      onOpenChange={setOpen}
      onChange={(id) => {
        onChange(options.find((o) => o.value === id)?.user ?? null)
        setKeyword('')
      }}
      loading={pages.isFetching}
      notFoundContent={
        pages.isFetching ? (
          <Spin size="small" />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有匹配的用户" />
        )
      }
      onPopupScroll={onPopupScroll}
      popupRender={(menu) => (
        <>
          {menu}
          {pages.hasNextPage ? (
            // mouse-down would take the focus from the search box and close the list
            <div onMouseDown={(e) => e.preventDefault()}>
              <Button type="link" block size="small" loading={pages.isFetchingNextPage} onClick={loadMore}>
                加载更多
              </Button>
            </div>
          ) : null}
        </>
      )}
    />
  )
}
