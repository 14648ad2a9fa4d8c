import { describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { PermissionTreeChecker, PermissionTreeView, type PermissionNode } from './permission-tree-checker'

const post = vi.hoisted(() => vi.fn())
vi.mock('../lib/http', () => ({ post }))

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
}: {
  initial?: string[]
  disabled?: boolean
  onChange?: (codes: string[]) => void
}) {
  const [value, setValue] = useState<string[]>(initial)
  return (
    <>
      <PermissionTreeView
        tree={TREE}
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
