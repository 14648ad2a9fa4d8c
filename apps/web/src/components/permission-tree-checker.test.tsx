import { beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { PermissionTreeChecker, PermissionTreeView, type PermissionNode } from './permission-tree-checker'
import { post } from '../../test/mock-http'

vi.mock('../lib/http', () => import('../../test/mock-http'))

// 权限管理 > 用户管理 > {新建用户, 删除用户}; 权限管理 > 角色管理
const TREE: PermissionNode[] = [
  {
    code: 'access',
    chName: '权限管理',
    children: [
      {
        code: 'user',
        chName: '用户管理',
        children: [
          { code: 'user:add', chName: '新建用户' },
          { code: 'user:delete', chName: '删除用户' },
        ],
      },
      { code: 'role', chName: '角色管理', children: [] },
    ],
  },
]

function Controlled({
  initial = [],
  disabled,
  onChange,
  tree = TREE,
}: {
  initial?: string[]
  disabled?: boolean
  onChange?: (codes: string[]) => void
  tree?: PermissionNode[]
}) {
  const [value, setValue] = useState<string[]>(initial)
  return (
    <>
      <PermissionTreeView
        tree={tree}
        value={value}
        disabled={disabled}
        onChange={(codes) => {
          onChange?.(codes)
          setValue(codes)
        }}
      />
      <output data-testid="value">{[...value].sort().join(',')}</output>
    </>
  )
}

const checkbox = (label: string) => {
  const node = screen.getByText(label).closest('.ant-tree-treenode')
  const box = node?.querySelector<HTMLElement>('.ant-tree-checkbox')
  if (!box) throw new Error(`no checkbox for ${label}`)
  return box
}
const isChecked = (label: string) => checkbox(label).classList.contains('ant-tree-checkbox-checked')
const value = () => screen.getByTestId('value').textContent

beforeEach(() => window.localStorage.clear())

describe('permission tree checker', () => {
  it('shows chName labels, expanded, with the given codes checked', () => {
    render(<Controlled initial={['access', 'role']} />)
    for (const label of ['权限管理', '用户管理', '新建用户', '删除用户', '角色管理'])
      expect(screen.getByText(label)).toBeVisible()
    expect(isChecked('权限管理')).toBe(true)
    expect(isChecked('角色管理')).toBe(true)
    expect(isChecked('用户管理')).toBe(false)
  })

  it('checking a leaf checks all its ancestors and nothing else', async () => {
    render(<Controlled />)
    await userEvent.click(checkbox('新建用户'))
    expect(value()).toBe('access,user,user:add')
    expect(isChecked('新建用户')).toBe(true)
    expect(isChecked('用户管理')).toBe(true)
    expect(isChecked('权限管理')).toBe(true)
    // no cascade down or sideways (antd's own cascade is off)
    expect(isChecked('删除用户')).toBe(false)
    expect(isChecked('角色管理')).toBe(false)
  })

  it('checking a parent does not check its children', async () => {
    render(<Controlled />)
    await userEvent.click(checkbox('用户管理'))
    expect(value()).toBe('access,user')
    expect(isChecked('新建用户')).toBe(false)
  })

  it('unchecking a parent unchecks its descendants and keeps its ancestors', async () => {
    render(<Controlled initial={['access', 'user', 'user:add', 'user:delete', 'role']} />)
    await userEvent.click(checkbox('用户管理'))
    expect(value()).toBe('access,role')
    expect(isChecked('用户管理')).toBe(false)
    expect(isChecked('新建用户')).toBe(false)
    expect(isChecked('删除用户')).toBe(false)
    expect(isChecked('权限管理')).toBe(true)
    // unchecking the root clears everything below it
    await userEvent.click(checkbox('权限管理'))
    expect(value()).toBe('')
  })

  it('unchecking a leaf leaves its parent checked', async () => {
    render(<Controlled initial={['access', 'user', 'user:add']} />)
    await userEvent.click(checkbox('新建用户'))
    expect(value()).toBe('access,user')
  })

  it('is read-only when disabled', async () => {
    const onChange = vi.fn()
    render(<Controlled initial={['access', 'user', 'user:add']} disabled onChange={onChange} />)
    expect(checkbox('新建用户').classList.contains('ant-tree-checkbox-disabled')).toBe(true)
    await userEvent.click(checkbox('删除用户'))
    await userEvent.click(checkbox('新建用户'))
    await userEvent.click(screen.getByText('权限管理'))
    expect(onChange).not.toHaveBeenCalled()
    expect(value()).toBe('access,user,user:add')
    expect(isChecked('新建用户')).toBe(true)
    expect(isChecked('删除用户')).toBe(false)
  })

  it('loads the tree with POST /auth/tree {}', async () => {
    post.mockResolvedValueOnce(TREE)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <PermissionTreeChecker value={['access']} />
      </QueryClientProvider>,
    )
    await waitFor(() => expect(screen.getByText('删除用户')).toBeVisible())
    expect(post).toHaveBeenCalledWith('/auth/tree', {})
    expect(isChecked('权限管理')).toBe(true)
  })
})

// the same tree where the caller may not grant 删除用户
const LIMITED: PermissionNode[] = [
  {
    ...TREE[0]!,
    children: [
      {
        ...TREE[0]!.children![0]!,
        children: [
          { code: 'user:add', chName: '新建用户', grantable: true },
          {
            code: 'user:delete',
            chName: '删除用户',
            grantable: false,
            denyReason: '不能授予或管理超出自己权限的内容：删除用户',
          },
        ],
      },
      TREE[0]!.children![1]!,
    ],
  },
]

const button = (name: string) => screen.getByRole('button', { name: new RegExp(name.split('').join('\\s*')) })
const count = () => screen.getByTestId('permission-tree-count').textContent
const search = (text: string) => userEvent.type(screen.getByLabelText('搜索权限'), text)

describe('permission tree toolbar', () => {
  it('全选 checks every node, 全不选 none, and the count follows', async () => {
    render(<Controlled />)
    expect(count()).toBe('已选 0 项')
    await userEvent.click(button('全选'))
    expect(value()).toBe('access,role,user,user:add,user:delete')
    expect(count()).toBe('已选 5 项')
    await userEvent.click(button('全不选'))
    expect(value()).toBe('')
    expect(count()).toBe('已选 0 项')
  })

  it('leaves the nodes the caller may not grant disabled, with the reason, and 全选 skips them', async () => {
    render(<Controlled tree={LIMITED} />)
    expect(checkbox('删除用户').classList.contains('ant-tree-checkbox-disabled')).toBe(true)
    expect(checkbox('新建用户').classList.contains('ant-tree-checkbox-disabled')).toBe(false)
    expect(screen.getByText('删除用户').closest('[title]')?.getAttribute('title')).toBe(
      '不能授予或管理超出自己权限的内容：删除用户',
    )
    await userEvent.click(checkbox('删除用户'))
    expect(value()).toBe('')
    await userEvent.click(button('全选'))
    expect(value()).toBe('access,role,user,user:add')
    expect(isChecked('删除用户')).toBe(false)
  })

  it('checks the whole subtree with 勾选时包含下级, remembered in this browser', async () => {
    const { unmount } = render(<Controlled tree={LIMITED} />)
    await userEvent.click(screen.getByRole('checkbox', { name: '勾选时包含下级' }))
    await userEvent.click(checkbox('用户管理'))
    // the subtree and the ancestors; not what the caller may not grant, not the sibling
    expect(value()).toBe('access,user,user:add')
    expect(isChecked('新建用户')).toBe(true)
    expect(isChecked('删除用户')).toBe(false)
    expect(isChecked('角色管理')).toBe(false)
    unmount()
    render(<Controlled />)
    expect(screen.getByRole('checkbox', { name: '勾选时包含下级' })).toBeChecked()
    await userEvent.click(checkbox('权限管理'))
    expect(value()).toBe('access,role,user,user:add,user:delete')
  })

  it('searches by name or code: the matches with their ancestors, highlighted', async () => {
    render(<Controlled />)
    await search('删除')
    expect(screen.getByText('删除').tagName).toBe('MARK')
    expect(screen.getByText('权限管理')).toBeVisible()
    expect(screen.queryByText('新建用户')).toBeNull()
    expect(screen.queryByText('角色管理')).toBeNull()
    await userEvent.clear(screen.getByLabelText('搜索权限'))
    await search('USER:A')
    const hit = screen.getByText('user:a')
    expect(hit.tagName).toBe('MARK')
    expect(within(hit.closest('.ant-tree-treenode')!).getByText(/新建用户/)).toBeVisible()
    expect(screen.queryByText('删除用户')).toBeNull()
    await userEvent.clear(screen.getByLabelText('搜索权限'))
    await search('没有这个')
    expect(screen.getByText('没有匹配的权限')).toBeVisible()
  })

  it('checking in the search view follows the same rules', async () => {
    render(<Controlled />)
    await userEvent.click(screen.getByRole('checkbox', { name: '勾选时包含下级' }))
    await search('用户管理')
    await userEvent.click(checkbox('用户管理'))
    expect(value()).toBe('access,user,user:add,user:delete')
    expect(isChecked('新建用户')).toBe(true)
  })

  it('收起全部 and 展开全部; clearing a search restores what the user had open', async () => {
    render(<Controlled />)
    await userEvent.click(button('收起全部'))
    expect(screen.queryByText('用户管理')).toBeNull()
    await userEvent.click(button('展开全部'))
    expect(screen.getByText('新建用户')).toBeVisible()
    // fold 用户管理 only, search (its children show), clear: it is folded again
    await userEvent.click(
      screen.getByText('用户管理').closest('.ant-tree-treenode')!.querySelector('.ant-tree-switcher')!,
    )
    expect(screen.queryByText('新建用户')).toBeNull()
    await search('新建')
    expect(screen.getByText('新建').tagName).toBe('MARK')
    await userEvent.clear(screen.getByLabelText('搜索权限'))
    expect(screen.getByText('用户管理')).toBeVisible()
    expect(screen.getByText('角色管理')).toBeVisible()
    expect(screen.queryByText('新建用户')).toBeNull()
  })

  it('offers no 全选 or cascade on a read-only tree, but still searches and counts', async () => {
    render(<Controlled initial={['access', 'role']} disabled />)
    expect(screen.queryByRole('button', { name: /全\s*选/ })).toBeNull()
    expect(screen.queryByRole('checkbox', { name: '勾选时包含下级' })).toBeNull()
    expect(count()).toBe('已选 2 项')
    await search('角色')
    expect(screen.queryByText('用户管理')).toBeNull()
  })
})
