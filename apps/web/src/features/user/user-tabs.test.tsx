import { waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { adminUser as admin, at, renderAt } from '../../../test/render-app'

const api = vi.hoisted(() => ({
  get: vi.fn(),
  post: vi.fn(),
  put: vi.fn(),
  patch: vi.fn(),
  del: vi.fn(),
  call: vi.fn(),
}))
vi.mock('../../lib/http', () => ({ ...api, onUnauthorized: () => () => {} }))

const { useSession } = await import('../../lib/session-store')

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset())
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
    useSession.setState({ hideUserBaseInfo: false, auths: ['/usermanage/userinfo/positionformbyuser'] })
    api.get.mockImplementation(async (url: string) =>
      url === '/config'
        ? { isAms: false, showOperatorUser: false, hideUserBaseInfo: false, uploadMaxSizeMb: 10 }
        : [],
    )
    const router = renderAt('/usermanage/userinfo?id=3&title=bob')
    await waitFor(() => expect(at(router)).toBe('/usermanage/userinfo/positionformbyuser?id=3&title=bob'))
  })
})
