import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { adminUser as admin, at, renderAt } from '../../../test/render-app'
import { api, resetApi } from '../../../test/mock-http'

vi.mock('../../lib/http', () => import('../../../test/mock-http'))

const { useSession } = await import('../../lib/session-store')
const { OWN_PASSWORD_HINT } = await import('./base-info-tab')

beforeEach(() => {
  resetApi()
  api.get.mockImplementation(async (url: string) => {
    if (url === '/config')
      return { isAms: false, showOperatorUser: false, hideUserBaseInfo: true, uploadMaxSizeMb: 10 }
    if (url === '/org/tree') return []
    return null
  })
  api.post.mockImplementation(async () => ({ list: [], total: 0 }))
  useSession.setState({ token: 'tok', user: admin, auths: ['/**'], userAuth: true, hideUserBaseInfo: true })
})

describe('user tabs container', () => {
  it('opens the first visible tab when the base info tab is hidden by the deployment flag', async () => {
    const router = renderAt('/usermanage/userinfo?id=3&title=bob')
    await waitFor(() => expect(at(router)).toBe('/usermanage/userinfo/roleformbyuser?id=3&title=bob'))
  })

  it('opens the first tab the access list allows', async () => {
    useSession.setState({
      hideUserBaseInfo: false,
      auths: ['/usermanage/userinfo', '/usermanage/userinfo/positionformbyuser'],
    })
    api.get.mockImplementation(async (url: string) =>
      url === '/config'
        ? { isAms: false, showOperatorUser: false, hideUserBaseInfo: false, uploadMaxSizeMb: 10 }
        : [],
    )
    const router = renderAt('/usermanage/userinfo?id=3&title=bob')
    await waitFor(() => expect(at(router)).toBe('/usermanage/userinfo/positionformbyuser?id=3&title=bob'))
  })
})

describe('base info tab', () => {
  const detailOf = (id: number, nickName: string) => ({
    id,
    nickName,
    realName: null,
    mobile: null,
    status: 1,
    passwordIsInitial: false,
    createTime: '2026-01-01T00:00:00.000Z',
    updateTime: '2026-01-01T00:00:00.000Z',
  })
  beforeEach(() => {
    useSession.setState({ hideUserBaseInfo: false })
    api.get.mockImplementation(async (url: string, query?: { userId?: number }) => {
      if (url === '/config')
        return { isAms: false, showOperatorUser: false, hideUserBaseInfo: false, uploadMaxSizeMb: 10 }
      if (url === '/user/detail') return detailOf(query!.userId!, query!.userId === 1 ? 'admin' : 'bob')
      return []
    })
    api.put.mockResolvedValue(null)
  })

  // DESIGN.md §6a: one's own password changes only with the old one, through 修改密码.
  it('offers no password field for oneself, pointing to 修改密码, and never sends one', async () => {
    renderAt('/usermanage/userinfo/userbaseinfo?id=1&title=admin')
    const hint = await screen.findByText(OWN_PASSWORD_HINT)
    await waitFor(() =>
      expect((screen.getByPlaceholderText('请输入用户昵称') as HTMLInputElement).value).toBe('admin'),
    )
    expect(screen.queryByPlaceholderText('请输入新密码')).toBeNull()
    // the tab's own 修改密码, beside the hint (the header has one too); the dialog is seen in Chromium
    expect(
      within(hint.closest('.ant-form-item') as HTMLElement).getByRole('button', { name: '修改密码' }),
    ).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }))
    await waitFor(() => expect(api.put).toHaveBeenCalled())
    const [url, body] = api.put.mock.calls[0]
    expect(url).toBe('/user/update')
    expect(body).not.toHaveProperty('password', expect.anything())
  }, 60_000) // a whole form in jsdom on a busy machine

  it("keeps the password field for another user's base info", async () => {
    renderAt('/usermanage/userinfo/userbaseinfo?id=3&title=bob')
    expect(await screen.findByPlaceholderText('请输入新密码')).toBeTruthy()
    expect(screen.queryByText(OWN_PASSWORD_HINT)).toBeNull()
  })
})
