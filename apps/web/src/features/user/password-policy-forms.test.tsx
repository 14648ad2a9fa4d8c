import { fireEvent, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { POLICY_MSG, passwordPolicyText } from '@amg/contract'
import { adminUser as admin, renderAt } from '../../../test/render-app'
import { api, resetApi } from '../../../test/mock-http'

vi.mock('../../lib/http', () => import('../../../test/mock-http'))

const { useSession } = await import('../../lib/session-store')

/** Stricter than the defaults in every part the console checks. */
const STRICT = { minLength: 20, minClasses: 4, notUsername: true, historyCount: 3 }

beforeEach(() => {
  resetApi()
  api.get.mockImplementation(async (url: string) => {
    if (url === '/config')
      return { isAms: false, showOperatorUser: false, hideUserBaseInfo: true, uploadMaxSizeMb: 10 }
    if (url === '/settings/password-policy') return STRICT
    return []
  })
  api.post.mockImplementation(async (url: string) =>
    url === '/position/namelist' ? [] : { list: [], total: 0 },
  )
  useSession.setState({ token: 'tok', user: admin, auths: ['/**'], userAuth: true, hideUserBaseInfo: true })
})

/** a whole form in jsdom on a busy machine */
const SLOW = { timeout: 10_000 }

const type = (placeholder: string, value: string) =>
  fireEvent.change(screen.getByPlaceholderText(placeholder), { target: { value } })

describe('新建用户 under the live password policy', () => {
  it('shows the policy read from the server and names the broken rule before sending', async () => {
    renderAt('/usermanage/adduser')
    expect(await screen.findByText(`不填写时使用预设的初始密码；${passwordPolicyText(STRICT)}`)).toBeTruthy()
    type('请输入用户昵称', 'zhangsan')
    const save = () => fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }))

    // SPEC.md §5's rule would take these two; the live policy does not
    type('请输入密码', 'Abcdef@1234567')
    save()
    expect(await screen.findByText(POLICY_MSG.tooShort(20), undefined, SLOW)).toBeTruthy()
    type('请输入密码', 'abcdefgh@123456789012')
    save()
    expect(await screen.findByText(POLICY_MSG.classes(4), undefined, SLOW)).toBeTruthy()
    type('请输入密码', 'Zhangsan@12345678901x')
    save()
    expect(await screen.findByText(POLICY_MSG.containsUsername, undefined, SLOW)).toBeTruthy()
    expect(api.post.mock.calls.filter(([url]) => url === '/user/insert')).toHaveLength(0)

    type('请输入密码', 'Strong@Pass-123456789')
    save()
    await waitFor(() => expect(api.post.mock.calls.filter(([url]) => url === '/user/insert')).toHaveLength(1))
    expect(api.get.mock.calls.some(([url]) => url === '/settings/password-policy')).toBe(true)
  }, 60_000) // a whole form in jsdom on a busy machine
})
