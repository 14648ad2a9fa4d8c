import { fireEvent, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { adminUser, renderAt, signInAs } from '../../test/render-app'
import { api, resetApi } from '../../test/mock-http'

/** 导出 on the list screens sends the screen's current filters (DESIGN.md §15). */

vi.mock('../lib/http', () => import('../../test/mock-http'))

beforeEach(() => {
  resetApi()
  api.get.mockImplementation(async (url: string) => {
    if (url === '/config')
      return { isAms: false, showOperatorUser: false, hideUserBaseInfo: true, uploadMaxSizeMb: 10 }
    if (url === '/org/tree') return []
    return null
  })
  api.post.mockImplementation(async (url: string) => (url.endsWith('/simple') ? [] : { list: [], total: 0 }))
  api.download.mockImplementation(async () => ({ blob: new Blob(['x']), fileName: 'export.xlsx' }))
  URL.createObjectURL = vi.fn(() => 'blob:test')
  URL.revokeObjectURL = vi.fn()
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
  signInAs(adminUser)
})

async function exportFrom(url: string) {
  renderAt(url)
  const button = await screen.findByRole('button', { name: /导\s*出/ })
  fireEvent.click(button)
  await waitFor(() => expect(api.download).toHaveBeenCalledOnce())
  const [path, params] = api.download.mock.calls[0]
  return { path, params }
}

describe('each list’s 导出 sends the list’s filters', { timeout: 60_000 }, () => {
  it('roles: name, status and the type filter', async () => {
    expect(await exportFrom('/rolemanage?roleName=%E8%B4%A2%E5%8A%A1&status=2&types=1,3')).toEqual({
      path: '/role/export',
      params: { roleName: '财务', status: 2, types: [1, 3] },
    })
  })

  it('roles: no filter, no parameters', async () => {
    expect(await exportFrom('/rolemanage')).toEqual({ path: '/role/export', params: {} })
  })

  it('groups: name, description and status', async () => {
    expect(
      await exportFrom(
        '/usergroupmanage?groupName=%E9%94%80%E5%94%AE&description=%E5%8D%8E%E4%B8%9C&status=1',
      ),
    ).toEqual({ path: '/user_groups/export', params: { groupName: '销售', description: '华东', status: 1 } })
  })

  it('job titles: the name searched', async () => {
    expect(await exportFrom('/stationmanage?stationName=%E5%B7%A5%E7%A8%8B%E5%B8%88')).toEqual({
      path: '/station/export',
      params: { stationName: '工程师' },
    })
  })

  it('positions: department and job title', async () => {
    expect(await exportFrom('/positionmanage?orgId=4&stationId=7')).toEqual({
      path: '/position/export',
      params: { orgId: 4, stationId: 7 },
    })
  })
})
