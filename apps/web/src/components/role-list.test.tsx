import { describe, expect, it, vi } from 'vitest'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App, ConfigProvider } from 'antd'
import zhCN from 'antd/locale/zh_CN'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { routerFlushSync } from '../lib/router-flush-sync'
import { RoleList, type RoleListRow } from './role-list'
import { post } from '../../test/mock-http'

vi.mock('../lib/http', () => import('../../test/mock-http'))

const TYPE_FILTERS = [
  { text: '超级管理员', value: 1 },
  { text: '普通角色', value: 3 },
]
const role = (id: number): RoleListRow => ({
  id,
  roleName: `角色${id}`,
  type: 3,
  status: 1,
  description: null,
  createTime: '2026-01-01T00:00:00Z',
  updateTime: '2026-01-01T00:00:00Z',
  createUserVo: null,
  updateUserVo: null,
  dataScope: 1,
  scopeOrgIds: [],
  requestable: false,
  requestApprovals: 1,
  approverRoleIds: [],
})
const noop = () => {}

function renderList(url: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/roles',
        element: (
          <RoleList
            scope="test"
            typeFilters={TYPE_FILTERS}
            canModify={() => true}
            remove={async () => {}}
            onCreate={noop}
            onEdit={noop}
            onView={noop}
          />
        ),
      },
    ],
    { initialEntries: [url] },
  )
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <ConfigProvider locale={zhCN}>
      <QueryClientProvider client={queryClient}>
        <App>
          <RouterProvider router={router} flushSync={routerFlushSync} />
        </App>
      </QueryClientProvider>
    </ConfigProvider>,
  )
  return { router, queryClient }
}
const query = (router: ReturnType<typeof createMemoryRouter>) =>
  Object.fromEntries(new URLSearchParams(router.state.location.search))

const header = (title: string) => screen.getAllByRole('columnheader').find((th) => th.textContent === title)!

async function openFilter(title: string) {
  await userEvent.click(header(title).querySelector('.ant-table-filter-trigger')!)
  return waitFor(() => {
    const dropdown = [...document.querySelectorAll<HTMLElement>('.ant-table-filter-dropdown')].at(-1)
    expect(dropdown).toBeTruthy()
    return dropdown!
  })
}

describe('RoleList state in the URL', { timeout: 60_000 }, () => {
  it('reads search, filters and page from the URL and shows the filters as applied', async () => {
    post.mockResolvedValue({ list: [role(1)], total: 12 })
    renderList('/roles?roleName=a&status=1&types=3&pageNum=2')
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/role/listall', {
        pageNum: 2,
        pageSize: 10,
        roleName: 'a',
        status: 1,
        types: [3],
      }),
    )
    expect(screen.getByPlaceholderText('按角色名称搜索')).toHaveValue('a')
    expect(header('状态').querySelector('.ant-table-filter-trigger.active')).toBeTruthy()
    expect(header('类型').querySelector('.ant-table-filter-trigger.active')).toBeTruthy()
  })

  it('keeps a choice made in an open filter dropdown when the list re-renders meanwhile', async () => {
    post.mockReset()
    post.mockResolvedValue({ list: [role(1)], total: 1 })
    const { router, queryClient } = renderList('/roles?roleName=a')
    await screen.findByText('角色1')
    const dropdown = await openFilter('状态')
    await userEvent.click(within(dropdown).getByText('启用'))
    // the rows are fetched again (another screen changed a role) before the choice is confirmed
    await act(() => queryClient.invalidateQueries())
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2))
    await userEvent.click(within(dropdown).getByRole('button', { name: /确\s*定/ }))
    await waitFor(() => expect(query(router)).toEqual({ roleName: 'a', status: '1' }))
  })

  it('writes only the confirmed column and keeps a change made just before (no stale query)', async () => {
    post.mockReset()
    post.mockResolvedValue({ list: [role(1)], total: 30 })
    const { router } = renderList('/roles?status=2')
    await screen.findByText('角色1')
    const dropdown = await openFilter('类型')
    await userEvent.click(within(dropdown).getByText('普通角色'))
    await userEvent.click(within(dropdown).getByRole('button', { name: /确\s*定/ }))
    await waitFor(() => expect(query(router)).toEqual({ status: '2', types: '3' }))
    await userEvent.click(document.querySelector('.ant-pagination-item-2')!)
    await waitFor(() => expect(query(router)).toEqual({ status: '2', types: '3', pageNum: '2' }))
  })
})
