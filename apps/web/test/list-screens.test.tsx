import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { adminUser, renderAt, signInAs } from './render-app'
import { api, resetApi } from './mock-http'

/**
 * Every list screen has the one search bar (ListQueryBar): its filters, then 查询 and 重置 side by
 * side, then the screen's own buttons; and a row's actions end with a red 删除 (where rows are deleted).
 */

vi.mock('../src/lib/http', () => import('./mock-http'))

/** One row that every list can show: each screen reads the fields it has. */
const ROW = {
  id: 7,
  // user, online session, login log
  nickName: '行七',
  realName: null,
  mobile: null,
  status: 1,
  positions: [],
  roles: [],
  mfaEnabled: false,
  // role
  roleName: '行七',
  type: 3,
  description: null,
  dataScope: 1,
  scopeOrgIds: [],
  // group
  groupName: '行七',
  // job title, position
  stationName: '行七',
  organizationCompleteName: '总公司',
  // service, webhook, API key
  key: 'svc7',
  name: '行七',
  rootCode: 'svc7',
  rootName: 'svc7',
  builtIn: false,
  url: 'https://example.com/hook',
  eventTypes: ['*'],
  enabled: true,
  failingSince: null,
  disabledReason: null,
  userId: 1,
  prefix: 'ak_Xy12',
  expiresAt: null,
  lastUsedTime: null,
  // logs
  time: '2026-01-01T08:00:00.000Z',
  result: 'success',
  summary: '行七',
  createTime: '2026-01-01T08:00:00.000Z',
  updateTime: '2026-01-01T08:00:00.000Z',
  createUserVo: null,
  updateUserVo: null,
}

/** [the list, its path, whether its rows are deleted (then the last action is a red 删除)]. */
const LISTS: [string, string, boolean][] = [
  ['用户管理', '/usermanage', true],
  ['角色管理', '/rolemanage', true],
  ['内置角色管理', '/adminrolemanage', true],
  ['用户组管理', '/usergroupmanage', true],
  ['职位管理', '/stationmanage', true],
  ['岗位管理', '/positionmanage', true],
  ['应用管理', '/servicemanage', true],
  ['Webhook 管理', '/webhookmanage', true],
  // a key is revoked (吊销), a session ended (强制下线), a log row only read
  ['API 密钥', '/apikeymanage', false],
  ['操作日志', '/operlog', false],
  ['登录日志', '/loginlog', false],
  ['在线用户', '/online', false],
]

beforeEach(() => {
  resetApi()
  api.get.mockImplementation(async (url: string) =>
    url === '/config'
      ? { isAms: false, showOperatorUser: false, hideUserBaseInfo: true, uploadMaxSizeMb: 10 }
      : [],
  )
  api.post.mockImplementation(async (url: string) =>
    url.endsWith('/simple') || url.endsWith('/namelist') ? [] : { list: [ROW], total: 1 },
  )
})

const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`)

describe('list screens', { timeout: 60_000 }, () => {
  for (const [title, path, deletes] of LISTS) {
    it(`${title}: the one search bar with 查询 and 重置${deletes ? '; row actions end with a red 删除' : ''}`, async () => {
      signInAs(adminUser)
      renderAt(path)
      await waitFor(() => expect(screen.getAllByText('行七', { exact: false }).length).toBeGreaterThan(0))
      const bars = screen.getAllByTestId('list-search-bar')
      expect(bars).toHaveLength(1)
      // 查询 then 重置, together, before any button of the screen's own
      const queryButtons = within(bars[0]).getByTestId('list-query-buttons')
      expect(
        within(queryButtons)
          .getAllByRole('button')
          .map((b) => b.textContent?.replace(/\s/g, '')),
      ).toEqual(['查询', '重置'])
      const actions = within(bars[0]).queryByTestId('list-actions')
      if (actions) {
        expect(queryButtons.compareDocumentPosition(actions) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
        expect(within(actions).queryByRole('button', { name: label('查询') })).toBeNull()
      }
      if (!deletes) return
      const row = document.querySelector<HTMLElement>('.ant-table-tbody tr.ant-table-row')!
      const cells = row.querySelectorAll('td')
      const rowButtons = within(cells[cells.length - 1]).getAllByRole('button')
      expect(rowButtons.length).toBeGreaterThan(1)
      const last = rowButtons[rowButtons.length - 1]
      expect(last).toHaveAccessibleName(label('删除'))
      expect(last).toHaveClass('ant-btn-dangerous')
      // the common action (修改 where the screen edits in place, the links of a position) comes first
      expect(rowButtons[0]).toHaveAccessibleName(/^(修\s*改|修改关联)$/)
    })
  }
})
