import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import { api, apiLogin, launchBrowser, newPage, screenshot, signIn } from './helpers'

/**
 * Expiring links (DESIGN.md §20) in the console: the link pickers take an optional 到期时间, and the
 * link lists show it (永久 for a link without one).
 */

let browser: Browser
let page: Page
let token: string
const s = Date.now().toString(36)
const names = { user: `lx${s}用户`, kept: `lx${s}永久角色`, timed: `lx${s}临时角色`, group: `lx${s}组` }
const ids: Record<string, number> = {}
const created = createdData()

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}

const picker = () => page.locator('[data-testid="link-candidates"]:visible')
const linkedRow = (name: string) =>
  page.locator('.amg-link-panel .ant-table-tbody tr.ant-table-row', { hasText: name })

/** Types a time into the picker's 到期时间 and confirms it. */
async function chooseExpiry(text: string) {
  const input = picker().getByPlaceholder('到期时间（不填为永久）')
  await input.click()
  await input.fill(text)
  await input.press('Enter')
  await expect.poll(() => input.inputValue()).toBe(text)
}

beforeAll(async () => {
  token = await apiLogin()
  ids.user = await ok(api<number>('POST', '/user/insert', { token, body: { nickName: names.user } }))
  created.remember(`/user/delete?userId=${ids.user}`)
  for (const key of ['kept', 'timed'] as const) {
    ids[key] = await ok(
      api<number>('POST', '/role/insert', {
        token,
        body: { roleName: names[key], authCodes: [] },
      }),
    )
    created.remember(`/role/delete?id=${ids[key]}`)
  }
  await ok(api('PUT', '/rel/user-rel-role', { token, body: { id: ids.user, roleIds: `${ids.kept}` } }))
  ids.group = await ok(
    api<number>('POST', '/user_groups/insert', {
      token,
      body: { groupName: names.group, status: 1, description: '' },
    }),
  )
  created.remember(`/user_groups/delete?userGroupsId=${ids.group}`)
  browser = await launchBrowser()
  page = await newPage(browser)
  await signIn(page)
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

describe('到期时间 on the link pickers and lists', () => {
  it('a user linked to a role until a time: the list shows it, a permanent link shows 永久', async () => {
    await page.goto(
      `/usermanage/userinfo/roleformbyuser?id=${ids.user}&title=${encodeURIComponent(names.user)}`,
    )
    await linkedRow(names.kept).waitFor()
    await expect.poll(() => page.locator('.amg-link-panel thead').textContent()).toContain('到期时间')
    expect(await linkedRow(names.kept).textContent()).toContain('永久')

    await page.getByRole('button', { name: '关联角色' }).click()
    await picker().waitFor()
    await picker().getByPlaceholder('按角色名称搜索').fill(names.timed)
    await picker().getByPlaceholder('按角色名称搜索').press('Enter')
    await picker().locator('tr.ant-table-row', { hasText: names.timed }).getByRole('checkbox').check()
    await chooseExpiry('2031-03-04 08:30')
    await screenshot(page, 'link-expiry-picker')
    await picker()
      .getByRole('button', { name: /^关\s*联$/ })
      .click()
    await linkedRow(names.timed).waitFor()
    await expect.poll(() => linkedRow(names.timed).textContent()).toContain('2031-03-04 08:30')
    expect(await linkedRow(names.kept).textContent()).toContain('永久')
    await screenshot(page, 'link-expiry-list')

    // the server holds that instant (the browser's own zone)
    const expected = await page.evaluate(() => new Date(2031, 2, 4, 8, 30).toISOString())
    const tab = await ok(
      api<{ list: { id: number; expiresAt: string | null }[] }>(
        'POST',
        `/rel/user/rolelist?userId=${ids.user}&pageNum=1&pageSize=10`,
        { token },
      ),
    )
    expect(tab.list.find((r) => r.id === ids.timed)?.expiresAt).toBe(expected)
    expect(tab.list.find((r) => r.id === ids.kept)?.expiresAt).toBeNull()
  })

  it("a group's 关联用户: the picker takes a 到期时间 and the list shows it", async () => {
    await page.goto(
      `/usergroupmanage/usergroupinfo?isDisable=false&id=${ids.group}&isShow=true&tab=usergroupuserrel`,
    )
    await page.getByRole('button', { name: '关联用户' }).waitFor()
    await page.getByRole('button', { name: '关联用户' }).click()
    await picker().waitFor()
    await picker()
      .getByPlaceholder(/用户昵称/)
      .fill(names.user)
    await picker()
      .getByPlaceholder(/用户昵称/)
      .press('Enter')
    await picker().locator('tr.ant-table-row', { hasText: names.user }).getByRole('checkbox').check()
    await chooseExpiry('2031-05-06 18:00')
    await picker()
      .getByRole('button', { name: /^关\s*联$/ })
      .click()
    await linkedRow(names.user).waitFor()
    await expect.poll(() => linkedRow(names.user).textContent()).toContain('2031-05-06 18:00')
    await screenshot(page, 'link-expiry-group')
  })
})
