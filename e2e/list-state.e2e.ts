import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import { api, apiLogin, launchBrowser, newPage, screenshot, signIn } from './helpers'

/**
 * Every list keeps its search, filters, page and page size in the URL query: going to an edit or
 * view screen and back (its 返回 button or the breadcrumb) shows exactly the rows left, and so do a
 * reload and the same link opened in another browser context.
 */

let browser: Browser
let page: Page
let token: string

const s = Date.now().toString(36)
/** 12 rows per list: a search for the prefix fills page 1 and leaves 2 rows on page 2. */
const PREFIX = {
  user: `ls${s}用户`,
  role: `ls${s}角色`,
  station: `ls${s}职位`,
  org: `ls${s}部门`,
}
const numbered = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`)

let positionStation: { id: number; name: string }
const created = createdData()

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}

const rows = () => page.locator('.ant-table-tbody tr.ant-table-row')
const rowTexts = async () => (await rows().allTextContents()).map((t) => t.trim())
const query = () => Object.fromEntries(new URL(page.url()).searchParams)
const activePage = () => page.locator('.ant-pagination-item-active').textContent()

/** expect.poll with room for a reload (the console and the screen's chunk) and a round trip. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

/** Waits until the table shows exactly `count` rows, all containing `text`. */
async function rowsAre(count: number, text: string) {
  try {
    await poll(async () => {
      const all = await rowTexts()
      return all.length === count && all.every((t) => t.includes(text))
    }).toBe(true)
  } catch (error) {
    // what the table showed instead, so that a failure on a slow machine says why
    const shown = await rowTexts().catch(() => [])
    const pager = await activePage().catch(() => null)
    throw new Error(
      `expected ${count} rows with ${text}; ${page.url()} shows page ${pager}: ${JSON.stringify(shown)}`,
      { cause: error },
    )
  }
}

async function goToPage(n: number) {
  await page.locator(`.ant-pagination-item-${n}`).click()
  await poll(activePage).toBe(String(n))
}

/** The same list state after a reload and in a fresh browser context (a shared link). */
async function survivesReloadAndLink(check: (p: Page) => Promise<void>) {
  const url = page.url()
  await page.reload()
  await check(page)
  const other = await newPage(browser)
  await signIn(other)
  await other.goto(url)
  const saved = page
  page = other
  try {
    await check(other)
  } finally {
    page = saved
    await other.context().close()
  }
}

beforeAll(async () => {
  token = await apiLogin()
  for (const nickName of numbered(PREFIX.user, 12)) {
    const id = await ok(api<number>('POST', '/user/insert', { token, body: { nickName } }))
    created.remember(`/user/delete?userId=${id}`)
  }
  for (const roleName of numbered(PREFIX.role, 12)) {
    const id = await ok(api<number>('POST', '/role/insert', { token, body: { roleName, authCodes: [] } }))
    created.remember(`/role/delete?id=${id}`)
  }
  for (const stationName of numbered(PREFIX.station, 12)) {
    const id = await ok(api<number>('POST', '/station/insert', { token, body: { stationName, type: 1 } }))
    created.remember(`/station/delete?stationId=${id}`)
  }
  // one job title in 12 departments: 12 positions
  const [root] = await ok(api<{ id: number }[]>('GET', '/org/tree', { token }))
  const orgIds: number[] = []
  for (const organizationName of numbered(PREFIX.org, 12)) {
    orgIds.push(
      await ok(api<number>('POST', '/org/insert', { token, body: { organizationName, parent: root.id } })),
    )
    created.remember(`/org/delete?orgId=${orgIds.at(-1)}`)
  }
  const name = `ls${s}岗位职位`
  positionStation = {
    name,
    id: await ok(
      api<number>('POST', '/station/insert', { token, body: { stationName: name, type: 1, orgIds } }),
    ),
  }
  created.remember(`/station/delete?stationId=${positionStation.id}`)
  browser = await launchBrowser()
  page = await newPage(browser)
  await signIn(page)
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

describe('list state in the URL', () => {
  it('users: the search and page survive edit-and-back, a reload and a shared link', async () => {
    await page.goto('/usermanage')
    await page.getByLabel('用户昵称').fill(PREFIX.user)
    await page.getByRole('button', { name: /查\s*询/ }).click()
    await rowsAre(10, PREFIX.user)
    await goToPage(2)
    // newest first: page 2 holds the two oldest
    await rowsAre(2, PREFIX.user)
    expect(query()).toEqual({ keyword: PREFIX.user, pageNum: '2' })

    await rows()
      .first()
      .getByRole('button', { name: /修\s*改/ })
      .click()
    await page.waitForURL('**/usermanage/userinfo/userbaseinfo?**')
    await page.getByRole('button', { name: /返\s*回/ }).click()
    await page.waitForURL((u) => u.pathname === '/usermanage')
    expect(query()).toEqual({ keyword: PREFIX.user, pageNum: '2' })
    const check = async (p: Page) => {
      await rowsAre(2, PREFIX.user)
      expect(await p.getByLabel('用户昵称').inputValue()).toBe(PREFIX.user)
      expect(await activePage()).toBe('2')
    }
    await check(page)
    expect(await rowTexts()).toEqual(expect.arrayContaining([expect.stringContaining(`${PREFIX.user}01`)]))
    await screenshot(page, 'list-state-users')
    await survivesReloadAndLink(check)

    // the side menu opens the list afresh
    await page.getByRole('button', { name: '展开菜单' }).click()
    await page.getByTestId('side-menu').getByRole('menuitem', { name: '用户管理' }).click()
    await poll(query).toEqual({})
    await poll(() => page.getByLabel('用户昵称').inputValue()).toBe('')
    await rowsAre(10, '')
  })

  it('roles: the search, the status filter and the page survive edit-and-back (breadcrumb) and a reload', async () => {
    await page.goto('/rolemanage')
    const list = page.getByTestId('role-list-role')
    await list.getByPlaceholder('按角色名称搜索').fill(PREFIX.role)
    await list.getByPlaceholder('按角色名称搜索').press('Enter')
    await rowsAre(10, PREFIX.role)
    // the status column's filter: 启用
    await page.locator('th', { hasText: '状态' }).locator('.ant-table-filter-trigger').click()
    const dropdown = page.locator('.ant-table-filter-dropdown:visible')
    await dropdown.getByText('启用', { exact: true }).click()
    await dropdown.getByRole('button', { name: /确\s*定/ }).click()
    await poll(query).toEqual({ roleName: PREFIX.role, status: '1' })
    await goToPage(2)
    await rowsAre(2, PREFIX.role)
    expect(query()).toEqual({ roleName: PREFIX.role, status: '1', pageNum: '2' })

    await rows()
      .first()
      .getByRole('button', { name: /修\s*改/ })
      .click()
    await page.waitForURL('**/rolemanage/roleinfo?**')
    await page.getByTestId('breadcrumb').getByRole('link', { name: '角色管理' }).click()
    await page.waitForURL((u) => u.pathname === '/rolemanage')
    const check = async (p: Page) => {
      expect(Object.fromEntries(new URL(p.url()).searchParams)).toEqual({
        roleName: PREFIX.role,
        status: '1',
        pageNum: '2',
      })
      await rowsAre(2, PREFIX.role)
      expect(await p.getByPlaceholder('按角色名称搜索').inputValue()).toBe(PREFIX.role)
      // the filter shows as applied on its column
      await p.locator('th', { hasText: '状态' }).locator('.ant-table-filter-trigger.active').waitFor()
    }
    await check(page)
    await page.reload()
    await check(page)

    // the view screen's 返回 as well
    await rows()
      .first()
      .getByRole('button', { name: /查\s*看/ })
      .click()
    await page.waitForURL('**/rolemanage/roleinfo?**')
    await page.getByRole('button', { name: /返\s*回/ }).click()
    await page.waitForURL((u) => u.pathname === '/rolemanage')
    await check(page)
  })

  it('user groups: the search form, the page and the page size survive view-and-back and a reload', async () => {
    // Each attempt makes its own 25 groups under a prefix of its own: a retry must not also find the
    // rows of the attempt before it.
    const prefix = `ls${Date.now().toString(36)}组`
    for (const groupName of numbered(prefix, 25)) {
      const id = await ok(
        api<number>('POST', '/user_groups/insert', {
          token,
          body: { groupName, status: 1, description: '' },
        }),
      )
      created.remember(`/user_groups/delete?userGroupsId=${id}`)
    }
    await page.goto('/usergroupmanage')
    await page.getByPlaceholder('按用户组名称搜索').fill(prefix)
    await page.getByRole('button', { name: /查\s*询/ }).click()
    await rowsAre(10, prefix)
    // 20 per page: 25 groups leave 5 on page 2
    await page.locator('.ant-pagination-options .ant-select').click()
    await page.locator('.ant-select-item-option', { hasText: '20 条/页' }).click()
    await rowsAre(20, prefix)
    await goToPage(2)
    await rowsAre(5, prefix)
    expect(query()).toEqual({ groupName: prefix, pageSize: '20', pageNum: '2' })

    await rows()
      .first()
      .getByRole('button', { name: /查\s*看/ })
      .click()
    await page.waitForURL('**/usergroupmanage/usergroupinfo?**')
    await page.getByRole('button', { name: /返\s*回/ }).click()
    await page.waitForURL((u) => u.pathname === '/usergroupmanage')
    const check = async (p: Page) => {
      expect(Object.fromEntries(new URL(p.url()).searchParams)).toEqual({
        groupName: prefix,
        pageSize: '20',
        pageNum: '2',
      })
      await rowsAre(5, prefix)
      expect(await p.getByPlaceholder('按用户组名称搜索').inputValue()).toBe(prefix)
      expect(await p.locator('.ant-pagination-options .ant-select').textContent()).toContain('20 条/页')
    }
    await check(page)
    await page.reload()
    await check(page)
  })

  it('job titles: the search and page survive view-and-back, edit-and-back and a reload', async () => {
    await page.goto('/stationmanage')
    await page.getByPlaceholder('按职位名称搜索').fill(PREFIX.station)
    await page.getByPlaceholder('按职位名称搜索').press('Enter')
    await rowsAre(10, PREFIX.station)
    await goToPage(2)
    const check = async (p: Page) => {
      expect(Object.fromEntries(new URL(p.url()).searchParams)).toEqual({
        stationName: PREFIX.station,
        pageNum: '2',
      })
      await rowsAre(2, PREFIX.station)
      expect(await p.getByPlaceholder('按职位名称搜索').inputValue()).toBe(PREFIX.station)
    }
    await check(page)
    for (const action of ['查看', '修改']) {
      await rows()
        .first()
        .getByRole('button', { name: new RegExp(action.split('').join('\\s*')) })
        .click()
      await page.waitForURL(/\/stationmanage\/(view|edit)station\?/)
      await page.getByRole('button', { name: /返\s*回/ }).click()
      await page.waitForURL((u) => u.pathname === '/stationmanage')
      await check(page)
    }
    await page.reload()
    await check(page)
  })

  it('positions: the job title filter and the page survive edit-links-and-back and a reload', async () => {
    await page.goto('/positionmanage')
    const select = page.getByTestId('station-select')
    await select.click()
    await page.keyboard.type(positionStation.name)
    await page.locator('.ant-select-item-option', { hasText: positionStation.name }).click()
    await page.getByRole('button', { name: /查\s*询$/ }).click()
    await rowsAre(10, positionStation.name)
    await goToPage(2)
    const check = async (p: Page) => {
      expect(Object.fromEntries(new URL(p.url()).searchParams)).toEqual({
        stationId: String(positionStation.id),
        pageNum: '2',
      })
      await rowsAre(2, positionStation.name)
      await p.getByTestId('station-select').getByText(positionStation.name).waitFor()
    }
    await check(page)
    await rows()
      .first()
      .getByRole('button', { name: /修改关联/ })
      .click()
    await page.waitForURL('**/positionmanage/positioninfo/roleform?**')
    await page.getByRole('button', { name: /返\s*回/ }).click()
    await page.waitForURL((u) => u.pathname === '/positionmanage')
    await check(page)
    await page.reload()
    await check(page)
    await screenshot(page, 'list-state-positions')
  })
})
