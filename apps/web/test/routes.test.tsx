import { screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { adminUser as admin, at, renderAt } from './render-app'
import { api, resetApi } from './mock-http'

vi.mock('../src/lib/http', () => import('./mock-http'))

const { useSession } = await import('../src/lib/session-store')
const { visibleUserTabs } = await import('../src/features/user/pages')

beforeEach(() => {
  resetApi()
  api.get.mockImplementation(async (url: string) => {
    if (url === '/config')
      return { isAms: false, showOperatorUser: false, hideUserBaseInfo: false, uploadMaxSizeMb: 10 }
    throw new Error(`unexpected ${url}`)
  })
  useSession.setState({ token: 'tok', user: admin, auths: ['/**'], userAuth: true, hideUserBaseInfo: false })
})

describe('route table (SPEC.md §2)', () => {
  it('a signed-out visitor of an (auth) route is sent to /', async () => {
    useSession.setState({ token: null, user: null, auths: [] })
    const router = renderAt('/usermanage')
    await waitFor(() => expect(at(router)).toBe('/'))
    expect(await screen.findByPlaceholderText('用户昵称')).toBeInTheDocument()
    expect(screen.getByPlaceholderText('密码')).toBeInTheDocument()
  })

  it.each([
    ['/authmanage', '/authmanage/addform'],
    ['/orgmanage', '/orgmanage/orgaddform'],
    ['/orgmanage/orgeditform?id=7', '/orgmanage/editform/orgbaseinfo?id=7'],
    ['/usermanage/userinfo?id=3&title=bob', '/usermanage/userinfo/userbaseinfo?id=3&title=bob'],
    ['/positionmanage/positioninfo?id=5&title=x', '/positionmanage/positioninfo/roleform?id=5&title=x'],
  ])('%s redirects to %s', async (from, to) => {
    const router = renderAt(from)
    await waitFor(() => expect(at(router)).toBe(to))
  })

  it('/body shows the welcome heading with a breadcrumb home link', async () => {
    renderAt('/body')
    expect(await screen.findByRole('heading', { name: '欢迎使用角色权限管理系统' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: '首页' })).toHaveAttribute('href', '/body')
  })

  it('the initial-password warning shows while passwordIsInitial is true', async () => {
    useSession.setState({ user: { ...admin, passwordIsInitial: true } })
    renderAt('/body')
    expect(await screen.findByText(/仍在使用初始密码/)).toBeInTheDocument()
  })

  it('an unknown path shows the 404 page inside the console', async () => {
    renderAt('/nowhere')
    expect(await screen.findByText('页面不存在', { selector: '.ant-result-subtitle' })).toBeInTheDocument()
  })

  it('the signed-in user is loaded from GET /user/current when missing', async () => {
    useSession.setState({ user: null })
    api.get.mockImplementation(async (url: string) =>
      url === '/user/current' ? { ...admin, nickName: '张三' } : {},
    )
    renderAt('/body')
    expect(await screen.findByText('张三')).toBeInTheDocument()
  })
})

describe('user tabs (SPEC.md §2: only those the access list allows)', () => {
  it('filters by path and by the deployment flag', () => {
    expect(visibleUserTabs(['/**'], true, false).map((t) => t.key)).toEqual([
      'userbaseinfo',
      'roleformbyuser',
      'usergroupformbyuser',
      'positionformbyuser',
    ])
    expect(visibleUserTabs(['/usermanage/userinfo/userbaseinfo'], true, false).map((t) => t.key)).toEqual([
      'userbaseinfo',
    ])
    expect(visibleUserTabs(['/usermanage/userinfo/**'], true, true).map((t) => t.key)).toEqual([
      'roleformbyuser',
      'usergroupformbyuser',
      'positionformbyuser',
    ])
    expect(visibleUserTabs([], false, false)).toHaveLength(4)
  })
})
