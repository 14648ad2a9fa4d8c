import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { adminUser as admin, renderAt } from './render-app'
import { api, resetApi } from './mock-http'

vi.mock('../src/lib/http', () => import('./mock-http'))

const { useSession } = await import('../src/lib/session-store')

/** A screen is loaded on first use: give it time on a busy machine. */
const LOADED = { timeout: 10_000 }

/** What each list answers in this test: its total, flagged as an estimate or not. */
let page: { list: never[]; total: number; totalIsEstimate?: boolean }

beforeEach(() => {
  resetApi()
  api.get.mockImplementation(async (url: string) => {
    if (url === '/config')
      return { isAms: false, showOperatorUser: false, hideUserBaseInfo: false, uploadMaxSizeMb: 10 }
    if (url === '/org/tree') return []
    throw new Error(`unexpected GET ${url}`)
  })
  api.post.mockImplementation(async (url: string) => {
    if (['/user/list', '/user_groups/list', '/position/list'].includes(url)) return page
    if (url === '/station/list/simple') return []
    throw new Error(`unexpected POST ${url}`)
  })
  useSession.setState({ token: 'tok', user: admin, auths: ['/**'], userAuth: true, hideUserBaseInfo: false })
})

// a total the server only estimates (past 10,000 matches) is not shown as a number (DESIGN.md §12)
describe.each([['/usermanage'], ['/usergroupmanage'], ['/positionmanage']])('%s pagination', (path) => {
  it('shows an estimated total as 超过 10000 条, without the estimate', async () => {
    page = { list: [], total: 100_005, totalIsEstimate: true }
    renderAt(path)
    expect(await screen.findByText('超过 10000 条', {}, LOADED)).toBeInTheDocument()
    expect(screen.queryByText(/100005/)).toBeNull()
  })

  it('shows an exact total as 共 N 条', async () => {
    page = { list: [], total: 42 }
    renderAt(path)
    expect(await screen.findByText('共 42 条', {}, LOADED)).toBeInTheDocument()
  })
})
