import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BEYOND_POWER_PREFIX, MSG } from '@amg/contract'
import { api, apiLogin, launchBrowser, newPage, settledScreenshot, signIn } from './helpers'

/**
 * DESIGN.md §6a in the console: a limited user administrator (user and user-group management only)
 * sees, in a user's link pickers, what they may not grant disabled with the reason, never sees the
 * super-admin role, and can still link what lies within their power.
 */

const RUN = Date.now().toString(36)
const NAMES = {
  limitedRole: `e2e受限管理-${RUN}`,
  weakRole: `e2e客服-${RUN}`,
  strongRole: `e2e部门管理员-${RUN}`,
  strongGroup: `e2e部门管理组-${RUN}`,
  weakGroup: `e2e客服组-${RUN}`,
  limitedUser: `e2e_helpdesk_${RUN}`,
  target: `e2e_target_${RUN}`,
}
const LIMITED_PASSWORD = 'Helpdesk@2024'

/** User management (with its link buttons) and user-group management: no organisation codes. */
const LIMITED_CODES = [
  'access',
  'user',
  'user:edit',
  'user:role',
  'user:group',
  'usergroup',
  'usergroup:edit',
  'usergroup:link',
]
/** Codes the limited administrator lacks. */
const STRONG_CODES = ['organization', 'org', 'org:add']

let browser: Browser
let page: Page
let admin: string
let limited: string
const ids: Record<keyof typeof NAMES, number> = {} as never

async function ok<T>(res: Promise<{ status: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  expect(r.status, r.msg).toBe(200)
  return r.data
}

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

/** antd puts a space between the two characters of a two-character Chinese button label. */
const button = (scope: Page | Locator, text: string) =>
  scope.getByRole('button', { name: new RegExp(`^${[...text].join('\\s*')}$`) })

const shot = (name: string) => settledScreenshot(page, `escalation-${name}`, { fullPage: false })

const picker = (p = page) => p.getByTestId('link-candidates')
const candidate = (name: string, p = page) => picker(p).locator('tr.ant-table-row', { hasText: name })

/** The tooltip the hovered candidate shows. */
const tooltip = () => page.locator('.ant-tooltip:not(.ant-tooltip-hidden) .ant-tooltip-container')

async function openPicker(tab: string, buttonText: string, p = page) {
  await p.goto(`/usermanage/userinfo/${tab}?id=${ids.target}&title=${encodeURIComponent(NAMES.target)}`)
  await p.getByRole('heading', { name: buttonText, exact: true }).waitFor()
  await p.getByRole('button', { name: buttonText }).click()
  await p.getByTestId('link-candidates').waitFor()
}

/** What the server says the limited administrator lacks for a candidate (the namelist's reason). */
async function reasonFor(url: string, body: object, id: number) {
  const list = await ok(
    api<{ id: number; denyReason: string | null }[]>('POST', url, { token: limited, body }),
  )
  return list.find((c) => c.id === id)?.denyReason
}

beforeAll(async () => {
  admin = await apiLogin()
  const role = (roleName: string, authCodes: string[]) =>
    ok(api<number>('POST', '/role/insert', { token: admin, body: { roleName, authCodes } }))
  ids.limitedRole = await role(NAMES.limitedRole, LIMITED_CODES)
  ids.weakRole = await role(NAMES.weakRole, ['access', 'user'])
  ids.strongRole = await role(NAMES.strongRole, STRONG_CODES)
  const group = (groupName: string, roleId: number) =>
    ok(
      api<number>('POST', '/user_groups/insert', {
        token: admin,
        body: { groupName, status: 1, description: 'e2e', roleIds: String(roleId), userIds: '' },
      }),
    )
  ids.strongGroup = await group(NAMES.strongGroup, ids.strongRole)
  ids.weakGroup = await group(NAMES.weakGroup, ids.weakRole)
  ids.limitedUser = await ok(
    api<number>('POST', '/user/insert', {
      token: admin,
      body: { nickName: NAMES.limitedUser, status: 1, password: LIMITED_PASSWORD },
    }),
  )
  await ok(
    api('PUT', '/rel/user-rel-role', {
      token: admin,
      body: { id: ids.limitedUser, roleIds: String(ids.limitedRole) },
    }),
  )
  ids.target = await ok(
    api<number>('POST', '/user/insert', { token: admin, body: { nickName: NAMES.target } }),
  )
  limited = await apiLogin({ nickName: NAMES.limitedUser, password: LIMITED_PASSWORD })

  browser = await launchBrowser()
  page = await newPage(browser)
  await signIn(page, { nickName: NAMES.limitedUser, password: LIMITED_PASSWORD })
})
afterAll(async () => {
  await browser?.close()
})

describe('link pickers offer only what the caller may grant (DESIGN.md §6a)', () => {
  it('the server sees the limited user as no super admin', async () => {
    const me = await ok(api<{ superAdmin: boolean }>('GET', '/user/current', { token: limited }))
    expect(me.superAdmin).toBe(false)
  })

  it('role picker: the stronger role is disabled with the reason on hover; 超级管理员 is not offered', async () => {
    const reason = await reasonFor('/role/namelist', { userId: ids.target }, ids.strongRole)
    expect(reason).toMatch(new RegExp(`^${BEYOND_POWER_PREFIX}.*新建部门`))

    await openPicker('roleformbyuser', '关联角色')
    // the whole, unfiltered list: every role but the super-admin one
    await candidate(NAMES.strongRole).waitFor()
    expect(await picker().locator('tr.ant-table-row', { hasText: '超级管理员' }).count()).toBe(0)

    const strong = candidate(NAMES.strongRole)
    expect(await strong.getAttribute('aria-disabled')).toBe('true')
    expect(await strong.getByRole('checkbox').isDisabled()).toBe(true)
    expect(await candidate(NAMES.weakRole).getByRole('checkbox').isEnabled()).toBe(true)

    await strong.getByText(NAMES.strongRole).hover()
    await tooltip().filter({ hasText: reason! }).waitFor()
    expect((await tooltip().textContent())?.trim()).toBe(reason)
    await shot('role-picker')

    // searching for it finds nothing either
    await picker().getByPlaceholder('按角色名称搜索').fill('超级管理员')
    await picker().getByPlaceholder('按角色名称搜索').press('Enter')
    await picker().locator('.ant-table-placeholder').waitFor()
    expect(await picker().locator('tr.ant-table-row').count()).toBe(0)
  })

  it('a role within its power links; the server holds it', async () => {
    await openPicker('roleformbyuser', '关联角色')
    await picker().getByPlaceholder('按角色名称搜索').fill(RUN)
    await picker().getByPlaceholder('按角色名称搜索').press('Enter')
    await candidate(NAMES.weakRole).waitFor()
    await candidate(NAMES.weakRole).getByRole('checkbox').check()
    // the disabled row cannot be chosen, not even by clicking it
    await candidate(NAMES.strongRole).locator('.ant-checkbox').click({ force: true })
    expect(await candidate(NAMES.strongRole).getByRole('checkbox').isChecked()).toBe(false)
    await button(picker(), '关联').click()
    await page.locator('.ant-message').getByText(MSG.successBang, { exact: true }).first().waitFor()
    await page.locator('.amg-link-panel tbody tr.ant-table-row', { hasText: NAMES.weakRole }).waitFor()
    await shot('role-linked')

    const held = async () =>
      (
        await ok(
          api<{ list: { id: number }[] }>(
            'POST',
            `/rel/user/rolelist?userId=${ids.target}&pageNum=1&pageSize=100`,
            { token: admin, body: {} },
          ),
        )
      ).list.map((r) => r.id)
    await poll(held).toEqual([ids.weakRole])
  })

  it('the server still refuses the stronger role if it is sent anyway', async () => {
    const res = await api('PUT', '/rel/user-rel-role', {
      token: limited,
      body: { id: ids.target, roleIds: String(ids.strongRole) },
    })
    expect(res.status).toBe(403)
    expect(res.msg).toBe(await reasonFor('/role/namelist', { userId: ids.target }, ids.strongRole))
  })

  it('group picker: the group carrying the stronger role is disabled with the reason on hover', async () => {
    const reason = await reasonFor('/user_groups/namelist', { userId: ids.target }, ids.strongGroup)
    expect(reason).toMatch(new RegExp(`^${BEYOND_POWER_PREFIX}`))

    await openPicker('usergroupformbyuser', '关联用户组')
    await picker().getByPlaceholder('按用户组名称搜索').fill(RUN)
    await picker().getByPlaceholder('按用户组名称搜索').press('Enter')
    const strong = candidate(NAMES.strongGroup)
    await strong.waitFor()
    expect(await strong.getByRole('checkbox').isDisabled()).toBe(true)
    expect(await candidate(NAMES.weakGroup).getByRole('checkbox').isEnabled()).toBe(true)

    await strong.getByText(NAMES.strongGroup).hover()
    await tooltip().filter({ hasText: reason! }).waitFor()
    await shot('group-picker')
  })

  it('a super admin is offered the super-admin role, and the stronger role is not disabled for them', async () => {
    const adminPage = await newPage(browser)
    await signIn(adminPage)
    await openPicker('roleformbyuser', '关联角色', adminPage)
    const superRole = candidate('超级管理员', adminPage)
    await superRole.waitFor()
    expect(await superRole.getByRole('checkbox').isEnabled()).toBe(true)
    expect(await candidate(NAMES.strongRole, adminPage).getByRole('checkbox').isEnabled()).toBe(true)
    await adminPage.waitForTimeout(600)
    await adminPage.screenshot({ path: '/tmp/escalation-admin-role-picker.png' })
    await adminPage.context().close()
  })
})
