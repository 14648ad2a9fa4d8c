import { describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { routes, type PageResult } from '@amg/contract'
import { useSession } from '../lib/session-store'
import { adminUser } from '../../test/render-app'
import { LinkPanel, type LinkPanelProps } from './link-panel'

interface Row {
  id: number
  name: string
}

const columns = [
  { title: 'ID', dataIndex: 'id', key: 'id' },
  { title: '名称', dataIndex: 'name', key: 'name' },
]

/** A server stand-in: `linked` rows, candidates in pages of 2. */
function fakeServer(linkedRows: Row[], candidateRows: Row[]) {
  const linked = [...linkedRows]
  return {
    linked,
    fetchLinked: vi.fn(async ({ pageNum, pageSize, keyword }) => {
      const all = linked.filter((r) => r.name.includes(keyword))
      return { list: all.slice((pageNum - 1) * pageSize, pageNum * pageSize), total: all.length }
    }) as LinkPanelProps<Row, Row>['fetchLinked'],
    unlink: vi.fn(async (row: Row) => {
      linked.splice(
        linked.findIndex((r) => r.id === row.id),
        1,
      )
    }),
    fetchCandidates: vi.fn(async (keyword: string, pageNum: number): Promise<PageResult<Row>> => {
      const all = candidateRows.filter((r) => r.name.includes(keyword))
      return { list: all.slice((pageNum - 1) * 2, pageNum * 2), total: all.length }
    }),
    link: vi.fn(async (ids: number[]) => {
      ids.forEach((id) => linked.push(candidateRows.find((r) => r.id === id)!))
    }),
  }
}

function renderPanel(server: ReturnType<typeof fakeServer>, extra: Partial<LinkPanelProps<Row, Row>> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <LinkPanel<Row, Row>
        queryKey={['test-links']}
        columns={columns}
        searchPlaceholder="按名称搜索"
        unlinkConfirm="确定要移除该角色关联吗？"
        linkButtonText="关联角色"
        candidateColumns={columns}
        candidatePlaceholder="搜索候选"
        fetchLinked={server.fetchLinked}
        unlink={server.unlink}
        fetchCandidates={server.fetchCandidates}
        link={server.link}
        calls={{ link: [], unlink: [] }}
        {...extra}
      />
    </QueryClientProvider>,
  )
}

const candidates = () => within(screen.getByTestId('link-candidates'))

describe('LinkPanel', { timeout: 60_000 }, () => {
  it('lists the linked rows with their total, and searches them', async () => {
    const server = fakeServer(
      [
        { id: 1, name: '管理员' },
        { id: 2, name: '审计员' },
      ],
      [],
    )
    renderPanel(server)
    await waitFor(() => expect(screen.getByText('管理员')).toBeVisible())
    expect(screen.getByText('审计员')).toBeVisible()
    expect(screen.getByText('共 2 条')).toBeVisible()
    expect(server.fetchLinked).toHaveBeenLastCalledWith({ pageNum: 1, pageSize: 10, keyword: '' })

    await userEvent.type(screen.getByPlaceholderText('按名称搜索'), ' 审计 {enter}')
    await waitFor(() => expect(screen.queryByText('管理员')).toBeNull())
    expect(screen.getByText('审计员')).toBeVisible()
    expect(server.fetchLinked).toHaveBeenLastCalledWith({ pageNum: 1, pageSize: 10, keyword: '审计' })
  })

  it("says how many members lie outside the caller's scope, and nothing when none do", async () => {
    const server = fakeServer([{ id: 1, name: '管理员' }], [])
    renderPanel(server, {
      fetchLinked: async (q) => ({ ...(await server.fetchLinked(q)), outsideCount: 3 }),
    })
    expect(await screen.findByText('另有 3 名成员不在您的管理范围内')).toBeVisible()

    const none = fakeServer([{ id: 1, name: '审计员' }], [])
    renderPanel(none, {
      queryKey: ['test-links-none'],
      fetchLinked: async (q) => ({ ...(await none.fetchLinked(q)), outsideCount: 0 }),
    })
    await screen.findByText('审计员')
    expect(screen.getAllByText(/不在您的管理范围内/)).toHaveLength(1)
  })

  it('removes a row only after the confirmation, then refreshes', async () => {
    const server = fakeServer([{ id: 1, name: '管理员' }], [])
    renderPanel(server)
    await screen.findByText('管理员')
    await userEvent.click(screen.getByRole('button', { name: /移\s*除/ }))
    expect(await screen.findByText('确定要移除该角色关联吗？')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /取\s*消/ }))
    expect(server.unlink).not.toHaveBeenCalled()

    await userEvent.click(screen.getByRole('button', { name: /移\s*除/ }))
    await userEvent.click(await screen.findByRole('button', { name: /确\s*定/ }))
    await waitFor(() => expect(server.unlink).toHaveBeenCalledWith({ id: 1, name: '管理员' }))
    await waitFor(() => expect(screen.queryByText('管理员')).toBeNull())
    expect(await screen.findByText('操作成功!')).toBeInTheDocument()
  })

  it('keeps the row when removing fails', async () => {
    const server = fakeServer([{ id: 1, name: '管理员' }], [])
    server.unlink.mockRejectedValueOnce(new Error('没有权限执行此操作'))
    renderPanel(server)
    await screen.findByText('管理员')
    await userEvent.click(screen.getByRole('button', { name: /移\s*除/ }))
    await userEvent.click(await screen.findByRole('button', { name: /确\s*定/ }))
    await waitFor(() => expect(server.unlink).toHaveBeenCalled())
    expect(screen.getByText('管理员')).toBeVisible()
    expect(screen.queryByText('操作成功!')).toBeNull()
  })

  it('links the chosen candidates; the link button is disabled until a row is chosen', async () => {
    const server = fakeServer(
      [],
      [
        { id: 5, name: '财务' },
        { id: 6, name: '人事' },
      ],
    )
    renderPanel(server)
    await userEvent.click(screen.getByRole('button', { name: '关联角色' }))
    await waitFor(() => expect(candidates().getByText('财务')).toBeVisible())
    expect(server.fetchCandidates).toHaveBeenLastCalledWith('', 1)
    const linkButton = candidates().getByRole('button', { name: /关\s*联/ })
    expect(linkButton).toBeDisabled()

    const checkboxes = candidates().getAllByRole('checkbox')
    await userEvent.click(checkboxes[1]) // first data row (0 is "select all")
    await userEvent.click(checkboxes[2])
    expect(linkButton).toBeEnabled()
    await userEvent.click(linkButton)
    await waitFor(() => expect(server.link).toHaveBeenCalledWith([5, 6]))
    // the linked list refreshes
    await waitFor(() => expect(screen.getByText('共 2 条')).toBeVisible())
  })

  it('loads more candidates, continuing the searched text', async () => {
    const rows = [1, 2, 3, 4, 5].map((id) => ({ id, name: `用户${id}` }))
    const server = fakeServer([], rows)
    renderPanel(server)
    await userEvent.click(screen.getByRole('button', { name: '关联角色' }))
    await candidates().findByText('用户2')
    await userEvent.click(candidates().getByRole('button', { name: '加载更多' }))
    await waitFor(() => expect(candidates().getByText('用户4')).toBeVisible())
    expect(server.fetchCandidates).toHaveBeenLastCalledWith('', 2)
    await userEvent.click(candidates().getByRole('button', { name: '加载更多' }))
    await waitFor(() => expect(candidates().getByText('用户5')).toBeVisible())
    expect(candidates().getByRole('button', { name: '加载更多' })).toBeDisabled() // all 5 shown

    await userEvent.type(candidates().getByPlaceholderText('搜索候选'), '用户3{enter}')
    await waitFor(() => expect(candidates().queryByText('用户1')).toBeNull())
    expect(server.fetchCandidates).toHaveBeenLastCalledWith('用户3', 1)
  })

  it('rolls the page counter back when loading more fails (SPEC.md §8)', async () => {
    const rows = [1, 2, 3, 4, 5].map((id) => ({ id, name: `用户${id}` }))
    const server = fakeServer([], rows)
    renderPanel(server)
    await userEvent.click(screen.getByRole('button', { name: '关联角色' }))
    await candidates().findByText('用户2')

    server.fetchCandidates.mockRejectedValueOnce(new Error('Network Error'))
    await userEvent.click(candidates().getByRole('button', { name: '加载更多' }))
    await waitFor(() => expect(server.fetchCandidates).toHaveBeenLastCalledWith('', 2))
    expect(candidates().queryByText('用户3')).toBeNull()

    // the next "load more" asks for page 2 again, not page 3
    await waitFor(() => expect(candidates().getByRole('button', { name: '加载更多' })).toBeEnabled())
    await userEvent.click(candidates().getByRole('button', { name: '加载更多' }))
    await waitFor(() => expect(candidates().getByText('用户3')).toBeVisible())
    expect(server.fetchCandidates).toHaveBeenLastCalledWith('', 2)
    expect(candidates().getByText('用户4')).toBeVisible()
    expect(candidates().queryByText('用户5')).toBeNull()
  })

  it('can link without the success toast (a choice kept locally until a form is saved)', async () => {
    const server = fakeServer([], [{ id: 5, name: '财务' }])
    renderPanel(server, { successToast: false })
    await userEvent.click(screen.getByRole('button', { name: '关联角色' }))
    await userEvent.click((await candidates().findAllByRole('checkbox'))[1])
    await userEvent.click(candidates().getByRole('button', { name: /关\s*联/ }))
    await waitFor(() => expect(server.link).toHaveBeenCalledWith([5]))
    await waitFor(() => expect(screen.getByText('共 1 条')).toBeVisible())
    expect(screen.queryByText('操作成功!')).toBeNull()
  })

  it('is read-only when disabled: no remove action and no link button', async () => {
    const server = fakeServer([{ id: 1, name: '管理员' }], [])
    renderPanel(server, { disabled: true })
    await waitFor(() => expect(screen.getByText('管理员')).toBeVisible())
    expect(screen.queryByRole('button', { name: /移\s*除/ })).toBeNull()
    expect(screen.queryByRole('button', { name: '关联角色' })).toBeNull()
    expect(screen.queryByText('操作')).toBeNull()
  })
  it('offers only the actions whose calls the signed-in user may make', async () => {
    const linkCalls = [routes.role.nameList, routes.user.linkRoles]
    const unlinkCall = routes.user.unlinkRole
    const user = (calls: { method: string; uri: string }[]) =>
      useSession.setState({ user: { ...adminUser, superAdmin: false, calls } })
    const server = fakeServer([{ id: 1, name: '管理员' }], [])

    user([
      { method: 'POST', uri: '/role/namelist' },
      { method: 'PUT', uri: '/rel/user-rel-role' },
    ])
    const linkOnly = renderPanel(server, { calls: { link: linkCalls, unlink: [unlinkCall] } })
    await waitFor(() => expect(screen.getByText('管理员')).toBeVisible())
    expect(screen.getByRole('button', { name: '关联角色' })).toBeVisible()
    expect(screen.queryByRole('button', { name: /移\s*除/ })).toBeNull()
    linkOnly.unmount()

    user([{ method: 'PUT', uri: '/rel/user-un-rel-role' }])
    renderPanel(server, { calls: { link: linkCalls, unlink: [unlinkCall] } })
    await waitFor(() => expect(screen.getByText('管理员')).toBeVisible())
    expect(screen.getByRole('button', { name: /移\s*除/ })).toBeVisible()
    expect(screen.queryByRole('button', { name: '关联角色' })).toBeNull()
    useSession.setState({ user: null })
  })
})
