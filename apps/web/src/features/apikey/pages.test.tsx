import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { adminUser, renderAt, signInAs } from '../../../test/render-app'
import dayjs from '../../lib/dayjs'
import { expiryOfDay } from './key-form'
import { api, resetApi } from '../../../test/mock-http'

/**
 * DESIGN.md §16: the API 密钥 screen. The list shows what tells keys apart (never a key); 新建 sends
 * the user, the name and the end of the chosen day, then shows the answered key once; 吊销 asks first;
 * each button shows only with the call it needs.
 */

vi.mock('../../lib/http', () => import('../../../test/mock-http'))

const KEY = 'ak_' + 'x'.repeat(43)
const ROW = {
  id: 11,
  userId: 1,
  nickName: 'admin',
  name: '报表同步',
  prefix: 'ak_Xy12',
  expiresAt: '2020-01-01T00:00:00.000Z',
  lastUsedTime: null,
  createTime: '2026-01-01T08:00:00.000Z',
  createUserName: 'admin',
}

/** Holds the page node and its list call only: neither 新建 nor 吊销. */
const reader = {
  ...adminUser,
  id: 9,
  nickName: 'keyreader',
  superAdmin: false,
  auths: ['/apikeymanage'],
  calls: [{ method: 'POST', uri: '/apikey/list' }],
}

beforeEach(() => {
  resetApi()
  api.get.mockImplementation(async (url: string) =>
    url === '/config'
      ? { isAms: false, showOperatorUser: false, hideUserBaseInfo: true, uploadMaxSizeMb: 10 }
      : null,
  )
  api.post.mockImplementation(async (url: string) => {
    if (url === '/apikey/list') return { list: [ROW], total: 1 }
    if (url === '/user/namelist')
      return { list: [{ id: 5, nickName: 'svc-shop', realName: null, status: 1 }], total: 1 }
    if (url === '/apikey/insert') return { id: 12, key: KEY }
    return { list: [], total: 0 }
  })
  api.del.mockResolvedValue(null)
})

const table = () => within(screen.getByTestId('apikey-table'))

describe('API 密钥 screen', { timeout: 60_000 }, () => {
  it('lists name, user, prefix and a past expiry marked 已过期, never a key; no buttons without their calls', async () => {
    signInAs(reader)
    renderAt('/apikeymanage')
    await waitFor(() => expect(table().getByText('报表同步')).toBeVisible())
    expect(table().getByText('ak_Xy12…')).toBeVisible()
    expect(table().getByText('已过期')).toBeVisible()
    expect(table().getByText('从未使用')).toBeVisible()
    expect(screen.queryByRole('button', { name: /新\s*建/ })).toBeNull()
    expect(table().queryByRole('button', { name: /吊\s*销/ })).toBeNull()
  })

  it('新建 sends the user, the name and the end of the chosen day, then shows the key once', async () => {
    signInAs(adminUser)
    renderAt('/apikeymanage')
    await userEvent.click(await screen.findByRole('button', { name: /新\s*建/ }))
    const dialog = within(await screen.findByRole('dialog'))
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }))
    expect(await dialog.findByText('请输入密钥名称')).toBeVisible()
    expect(api.post).not.toHaveBeenCalledWith('/apikey/insert', expect.anything())
    await userEvent.type(dialog.getByLabelText('名称'), '  订单同步 ')
    const day = dayjs().add(30, 'day').format('YYYY-MM-DD')
    await userEvent.type(dialog.getByPlaceholderText('永不过期'), `${day}{enter}`)
    await userEvent.click(dialog.getByRole('button', { name: /确\s*定/ }))
    await waitFor(() =>
      expect(api.post).toHaveBeenCalledWith('/apikey/insert', {
        userId: adminUser.id,
        name: '订单同步',
        expiresAt: expiryOfDay(day),
      }),
    )
    expect(await screen.findByTestId('apikey-secret')).toHaveTextContent(KEY)
    await userEvent.click(screen.getByRole('button', { name: '我已保存' }))
    await waitFor(() => expect(screen.queryByTestId('apikey-secret')).toBeNull())
  })

  it('吊销 asks first; only 确定 revokes', async () => {
    signInAs(adminUser)
    renderAt('/apikeymanage')
    await userEvent.click(await table().findByRole('button', { name: /吊\s*销/ }))
    // the confirmation shows once antd's pop-up motion has run
    await waitFor(() => expect(screen.getByText(/吊销密钥“报表同步”/)).toBeVisible())
    expect(api.del).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: /确\s*定/ }))
    await waitFor(() => expect(api.del).toHaveBeenCalledWith('/apikey/revoke', { id: 11 }))
  })

  it('the key lasts to the end of the chosen day', () => {
    const end = dayjs(expiryOfDay('2030-05-06'))
    expect(end.format('YYYY-MM-DD HH:mm:ss.SSS')).toBe('2030-05-06 23:59:59.999')
  })
})
