import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { adminUser, renderAt, signInAs } from '../../../test/render-app'
import { api, resetApi } from '../../../test/mock-http'

/**
 * DESIGN.md §6a in the user's link tabs: the pickers offer only what the caller may grant. The server
 * marks the candidates; the console disables the refused ones with the reason and never offers the
 * super-admin role to a caller who is not a super admin.
 */

vi.mock('../../lib/http', () => import('../../../test/mock-http'))

const ROLE_REASON = '不能授予或管理超出自己权限的内容：部门管理、新增部门'
const GROUP_REASON = '不能授予或管理超出自己权限的内容：部门管理'
const ROLES = [
  {
    id: 1,
    roleName: '超级管理员',
    type: 1,
    status: 1,
    grantable: false,
    denyReason: '不能授予或管理超出自己权限的内容：超级管理员',
  },
  { id: 7, roleName: '部门管理员', type: 3, status: 1, grantable: false, denyReason: ROLE_REASON },
  { id: 8, roleName: '客服', type: 3, status: 1, grantable: true, denyReason: null },
]
const GROUPS = [
  { id: 4, groupName: '部门管理组', status: 1, grantable: false, denyReason: GROUP_REASON },
  { id: 5, groupName: '客服组', status: 1, grantable: true, denyReason: null },
]

const limitedUser = {
  ...adminUser,
  id: 9,
  nickName: 'helpdesk',
  superAdmin: false,
  auths: [
    '/usermanage',
    '/usermanage/userinfo',
    '/usermanage/userinfo/roleformbyuser',
    '/usermanage/userinfo/usergroupformbyuser',
  ],
  // the user:role and user:group nodes' calls (the seeded tree)
  calls: [
    'POST /rel/user/rolelist',
    'POST /role/namelist',
    'PUT /rel/user-rel-role',
    'PUT /rel/user-un-rel-role',
    'POST /rel/user/grouplist',
    'POST /user_groups/namelist',
    'PUT /rel/user-rel-groups',
    'PUT /rel/user-un-rel-groups',
  ].map((call) => ({ method: call.split(' ')[0], uri: call.split(' ')[1] })),
}

beforeEach(() => {
  resetApi()
  api.get.mockImplementation(async (url: string) =>
    url === '/config'
      ? { isAms: false, showOperatorUser: false, hideUserBaseInfo: true, uploadMaxSizeMb: 10 }
      : null,
  )
  api.post.mockImplementation(async (url: string) => {
    if (url === '/role/namelist') return ROLES
    if (url === '/user_groups/namelist') return GROUPS
    return { list: [], total: 0 }
  })
})

/** The layout has tooltips of its own: look for the one holding `text`. */
const tooltipSays = (text: string) =>
  waitFor(() => expect(screen.getByText(text).closest('.ant-tooltip')).toBeVisible(), { timeout: 5_000 })

const candidates = () => within(screen.getByTestId('link-candidates'))
const candidateRow = (name: string) => candidates().getByText(name).closest('tr')!

async function openPicker(path: string, button: string, firstCandidate: string) {
  renderAt(`/usermanage/userinfo/${path}?id=3&title=bob`)
  await userEvent.click(await screen.findByRole('button', { name: button }, { timeout: 10_000 }))
  await waitFor(() => expect(candidates().getByText(firstCandidate)).toBeVisible())
}

describe('user link pickers offer only what the caller may grant', { timeout: 60_000 }, () => {
  it('role picker, caller not a super admin: 超级管理员 left out, the stronger role disabled with the reason', async () => {
    signInAs(limitedUser)
    await openPicker('roleformbyuser', '关联角色', '客服')
    expect(candidates().queryByText('超级管理员')).toBeNull()
    expect(within(candidateRow('客服')).getByRole('checkbox')).toBeEnabled()
    const denied = candidateRow('部门管理员')
    expect(within(denied).getByRole('checkbox')).toBeDisabled()
    await userEvent.hover(within(denied).getByText('部门管理员'))
    await tooltipSays(ROLE_REASON)
  })

  it('role picker, super admin: 超级管理员 is offered', async () => {
    signInAs(adminUser)
    api.post.mockImplementation(async (url: string) =>
      url === '/role/namelist'
        ? ROLES.map((r) => ({ ...r, grantable: true, denyReason: null }))
        : { list: [], total: 0 },
    )
    await openPicker('roleformbyuser', '关联角色', '客服')
    expect(within(candidateRow('超级管理员')).getByRole('checkbox')).toBeEnabled()
  })

  it('group picker: the group carrying a stronger role is disabled with the reason; linking sends only what was chosen', async () => {
    signInAs(limitedUser)
    await openPicker('usergroupformbyuser', '关联用户组', '客服组')
    const denied = candidateRow('部门管理组')
    expect(within(denied).getByRole('checkbox')).toBeDisabled()
    await userEvent.hover(within(denied).getByText('部门管理组'))
    await tooltipSays(GROUP_REASON)

    await userEvent.click(candidates().getAllByRole('checkbox')[0]) // "select all"
    await userEvent.click(candidates().getByRole('button', { name: /关\s*联/ }))
    await waitFor(() =>
      expect(api.put).toHaveBeenCalledWith('/rel/user-rel-groups', {
        id: 3,
        greoupIds: '5',
        expiresAt: null,
      }),
    )
  })
})
