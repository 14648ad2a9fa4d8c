import { describe, expect, it, vi, beforeEach } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { RoleForm, type RoleFormValues } from './role-form'
import { samePermissionSet } from './role-impact'
import { post } from '../../test/mock-http'

vi.mock('../lib/http', () => import('../../test/mock-http'))

// 权限管理 > 用户管理 > 新建用户
const TREE = [
  {
    code: 'access',
    chName: '权限管理',
    children: [{ code: 'user', chName: '用户管理', children: [{ code: 'user:add', chName: '新建用户' }] }],
  },
]
const ROLE = { roleName: '客服', description: '', authCodes: ['access', 'user'] }

function renderForm(onSubmit: (v: RoleFormValues) => void) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RoleForm roleId={7} initialValues={ROLE} onSubmit={onSubmit} onBack={() => {}} />
    </QueryClientProvider>,
  )
}

const checkbox = (label: string) =>
  screen.getByText(label).closest('.ant-tree-treenode')!.querySelector<HTMLElement>('.ant-tree-checkbox')!
const save = () => userEvent.click(screen.getByRole('button', { name: /保\s*存/ }))
const impactCalls = () => post.mock.calls.filter(([url]) => url === '/authz/role-impact')

beforeEach(() => {
  post.mockReset()
  post.mockImplementation(async (url: string) => {
    if (url === '/auth/tree') return TREE
    if (url === '/authz/role-impact')
      return { users: 3, gained: [{ code: 'user:add', chName: '新建用户' }], lost: [], dormant: [] }
    throw new Error(`unexpected ${url}`)
  })
})

describe('samePermissionSet', () => {
  it('ignores order and repetitions', () => {
    expect(samePermissionSet(['a', 'b'], ['b', 'a', 'a'])).toBe(true)
    expect(samePermissionSet(['a'], ['a', 'b'])).toBe(false)
    expect(samePermissionSet([], [])).toBe(true)
  })
})

describe('RoleForm: the impact of a changed permission set (DESIGN.md §10)', () => {
  it('saves at once when the permissions did not change', async () => {
    const onSubmit = vi.fn()
    renderForm(onSubmit)
    await screen.findByText('新建用户')
    await userEvent.type(screen.getByPlaceholderText('请输入角色名称'), '2')
    await save()
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce())
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ roleName: '客服2', authCodes: ['access', 'user'] })
    expect(impactCalls()).toHaveLength(0)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('asks for the impact, shows it, and saves only once confirmed', async () => {
    const onSubmit = vi.fn()
    renderForm(onSubmit)
    await screen.findByText('新建用户')
    await userEvent.click(checkbox('新建用户'))
    await save()
    const dialog = await screen.findByRole('dialog')
    expect(impactCalls()[0][1]).toEqual({ roleId: 7, authCodes: ['access', 'user', 'user:add'] })
    expect(within(dialog).getByTestId('role-impact')).toHaveTextContent('此修改将影响 3 个用户')
    expect(within(dialog).getByTestId('impact-gained')).toHaveTextContent('新增权限（1）新建用户')
    expect(within(dialog).queryByTestId('impact-lost')).not.toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
    await userEvent.click(within(dialog).getByRole('button', { name: /确认保存/ }))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce())
    expect(onSubmit.mock.calls[0][0].authCodes).toEqual(['access', 'user', 'user:add'])
  })

  it('shows the disabled nodes the role would hold, even when no one gains anything now', async () => {
    post.mockImplementation(async (url: string) =>
      url === '/auth/tree'
        ? TREE
        : { users: 2, gained: [], lost: [], dormant: [{ code: 'user:add', chName: '新建用户' }] },
    )
    const onSubmit = vi.fn()
    renderForm(onSubmit)
    await screen.findByText('新建用户')
    await userEvent.click(checkbox('新建用户'))
    await save()
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByTestId('impact-dormant')).toHaveTextContent(
      '已停用、启用后生效的权限（1）：这些权限点已停用，保存后角色将持有它们，一旦启用，上述用户即获得这些权限。新建用户',
    )
    expect(within(dialog).queryByTestId('impact-gained')).not.toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
    await userEvent.click(within(dialog).getByRole('button', { name: /确认保存/ }))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce())
  })

  it('cancel leaves the form as it is, unsaved', async () => {
    const onSubmit = vi.fn()
    renderForm(onSubmit)
    await screen.findByText('新建用户')
    await userEvent.click(checkbox('用户管理')) // unchecks 用户管理 (and its children)
    await save()
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(onSubmit).not.toHaveBeenCalled()
    expect(checkbox('用户管理').className).not.toContain('ant-tree-checkbox-checked')
    expect(checkbox('权限管理').className).toContain('ant-tree-checkbox-checked')
  })

  it.each([
    [
      'only unknown codes moved, or disabled ones left the set',
      { users: 2, gained: [], lost: [], dormant: [] },
    ],
    [
      'no active user holds the role',
      {
        users: 0,
        gained: [{ code: 'user:add', chName: '新建用户' }],
        lost: [],
        dormant: [{ code: 'user:edit', chName: '修改用户' }],
      },
    ],
  ])('saves without a dialog when %s', async (_case, impact) => {
    post.mockImplementation(async (url: string) => (url === '/auth/tree' ? TREE : impact))
    const onSubmit = vi.fn()
    renderForm(onSubmit)
    await screen.findByText('新建用户')
    await userEvent.click(checkbox('新建用户'))
    await save()
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce())
    expect(impactCalls()).toHaveLength(1)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('still lets the change be saved when the preview fails, saying why', async () => {
    post.mockImplementation(async (url: string) => {
      if (url === '/auth/tree') return TREE
      throw new Error('没有权限执行此操作')
    })
    const onSubmit = vi.fn()
    renderForm(onSubmit)
    await screen.findByText('新建用户')
    await userEvent.click(checkbox('新建用户'))
    await save()
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByTestId('role-impact')).toHaveTextContent(
      '无法预览此修改的影响范围：没有权限执行此操作',
    )
    await userEvent.click(within(dialog).getByRole('button', { name: /确认保存/ }))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce())
  })
})
