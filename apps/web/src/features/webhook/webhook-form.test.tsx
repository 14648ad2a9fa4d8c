import { fireEvent, screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { adminUser as admin, renderAt } from '../../../test/render-app'
import { api, resetApi } from '../../../test/mock-http'

vi.mock('../../lib/http', () => import('../../../test/mock-http'))

const { useSession } = await import('../../lib/session-store')

const REFUSED = '接收事件的 http:// 或 https:// 地址；不能指向本机、内网或云元数据地址'
const ALLOWED =
  '接收事件的 http:// 或 https:// 地址；本服务已开启 WEBHOOK_ALLOW_PRIVATE，也可指向本机和内网地址'

/** The list answers with the server's WEBHOOK_ALLOW_PRIVATE; 新建's address help follows it. */
const answerList = (allowPrivate: boolean) => {
  api.get.mockImplementation(async (url: string) =>
    url === '/config'
      ? { isAms: false, showOperatorUser: false, hideUserBaseInfo: true, uploadMaxSizeMb: 10 }
      : [],
  )
  api.post.mockImplementation(async (url: string) =>
    url === '/webhook/list' ? { list: [], total: 0, allowPrivate } : { list: [], total: 0 },
  )
}

beforeEach(() => {
  resetApi()
  useSession.setState({ token: 'tok', user: admin, auths: ['/**'], userAuth: true, hideUserBaseInfo: true })
})

describe('新建 Webhook: the address help', () => {
  it.each([
    [false, REFUSED, ALLOWED],
    [true, ALLOWED, REFUSED],
  ])(
    'with WEBHOOK_ALLOW_PRIVATE %s says what the server does',
    async (allowPrivate, shown, hidden) => {
      answerList(allowPrivate)
      renderAt('/webhookmanage')
      await vi.waitFor(() => expect(api.post.mock.calls.some(([url]) => url === '/webhook/list')).toBe(true))
      fireEvent.click(await screen.findByRole('button', { name: /新\s*建/ }))
      expect(await screen.findByText(shown, undefined, { timeout: 10_000 })).toBeTruthy()
      expect(screen.queryByText(hidden)).toBeNull()
    },
    30_000,
  )
})
