import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import {
  api,
  apiLogin,
  attemptStamp,
  launchBrowser,
  newPage,
  openInConsole,
  screenshot,
  signIn,
} from './helpers'

/**
 * The lists as a new administrator meets them: the user list fits a 1280×800 window with its first
 * columns (操作 in view without scrolling) and shows nickname, status and actions on a 390×844 phone;
 * every list has the one search bar, and no list makes the page wider than the window. Each list is
 * photographed at both sizes (test-results/screens/lists-*.png).
 */

const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

let browser: Browser
let token: string
const created = createdData()
const stamp = attemptStamp()
const NICK = `ll${stamp}`

async function ok<T>(res: Promise<{ status: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200) throw new Error(`${r.status} ${r.msg}`)
  return r.data
}

/** [file name, path, a text the screen shows once loaded]: every list screen of the console. */
const LISTS: [string, string, string][] = [
  ['users', `/usermanage?keyword=${NICK}`, NICK],
  ['roles', '/rolemanage', '角色管理'],
  ['admin-roles', '/adminrolemanage', '内置角色管理'],
  ['groups', '/usergroupmanage', '用户组管理'],
  ['stations', '/stationmanage', '职位管理'],
  ['positions', '/positionmanage', '岗位管理'],
  ['services', '/servicemanage', '应用管理'],
  ['apikeys', '/apikeymanage', 'API 密钥'],
  ['webhooks', '/webhookmanage', 'Webhook 管理'],
  ['operation-log', '/operlog', '操作日志'],
  ['login-log', '/loginlog', '登录日志'],
  ['online', '/online', '在线用户'],
]

async function page(viewport: { width: number; height: number }): Promise<Page> {
  const touch = viewport.width === PHONE.width
  const p = touch
    ? await (
        await browser.newContext({
          baseURL: (await import('./helpers')).baseURL(),
          viewport,
          locale: 'zh-CN',
          reducedMotion: 'reduce',
          hasTouch: true,
          isMobile: true,
        })
      ).newPage()
    : await newPage(browser, viewport)
  await signIn(p)
  return p
}

/** The page reaches no further sideways than the window. */
const pageFits = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)

/** The widths of the user table's scroll container: what it holds and what it shows. */
const tableWidths = (p: Page) =>
  p
    .getByTestId('user-table')
    .locator('.ant-table-content, .ant-table-body')
    .first()
    .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))

/** Whether the element lies wholly within the window sideways, and starts within it downwards. */
async function inView(p: Page, target: Locator) {
  const box = (await target.boundingBox())!
  const view = p.viewportSize()!
  return box.x >= 0 && box.x + box.width <= view.width + 0.5 && box.y >= 0 && box.y < view.height
}

const header = (p: Page, title: string) =>
  p.getByTestId('user-table').locator('.ant-table-thead th', { hasText: new RegExp(`^${title}$`) })
const userRow = (p: Page) => p.getByTestId('user-table').locator('tr.ant-table-row', { hasText: NICK })

async function openList(p: Page, path: string, text: string) {
  await openInConsole(p, path)
  await p.locator('.ant-layout-content').getByText(text).first().waitFor()
  await expect.poll(() => p.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0)
  await p.waitForTimeout(300)
}

beforeAll(async () => {
  token = await apiLogin()
  const id = await ok(
    api<number>('POST', '/user/insert', {
      token,
      body: { nickName: NICK, realName: `列表${stamp}`, mobile: null, status: 1 },
    }),
  )
  created.remember(`/user/delete?userId=${id}`)
  const roles = await ok(
    api<{ list: { id: number }[] }>('POST', '/role/listall', {
      token,
      body: { pageNum: 1, pageSize: 1, types: [3] },
    }),
  )
  if (roles.list[0])
    await ok(api('PUT', '/rel/user-rel-role', { token, body: { id, roleIds: String(roles.list[0].id) } }))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

describe('the user list', () => {
  it('fits 1280×800 with its default columns, 操作 in view without scrolling', async () => {
    const p = await page(DESKTOP)
    await p.goto(`/usermanage?keyword=${NICK}`)
    await userRow(p).waitFor()
    const headers = (await p.getByTestId('user-table').locator('.ant-table-thead th').allTextContents())
      .map((h) => h.trim())
      .filter(Boolean)
    expect(headers).toEqual(['用户昵称', '姓名', '部门/岗位', '角色', '状态', '操作'])
    expect(await pageFits(p)).toBe(true)
    const widths = await tableWidths(p)
    expect(widths.scroll).toBeLessThanOrEqual(widths.client)
    expect(await inView(p, header(p, '操作'))).toBe(true)
    expect(await inView(p, userRow(p).getByRole('button', { name: /^修\s*改$/ }))).toBe(true)
    expect(await inView(p, userRow(p).getByRole('button', { name: /^删\s*除$/ }))).toBe(true)
    await screenshot(p, 'lists-users-1280-default')

    // the times are in 列设置; shown, they come last, before 操作 which stays on the right
    await p.getByRole('button', { name: /列设置/ }).click()
    const settings = p.locator('.ant-popover:not(.ant-popover-hidden)')
    await settings.getByText('创建时间', { exact: true }).click()
    await settings.getByText('更新时间', { exact: true }).click()
    await p.keyboard.press('Escape')
    await expect
      .poll(async () => (await p.locator('.ant-table-thead th').allTextContents()).includes('更新时间'))
      .toBe(true)
    const all = (await p.getByTestId('user-table').locator('.ant-table-thead th').allTextContents())
      .map((h) => h.trim())
      .filter(Boolean)
    expect(all.slice(-3)).toEqual(['创建时间', '更新时间', '操作'])
    expect(await inView(p, header(p, '操作'))).toBe(true)
    await screenshot(p, 'lists-users-1280-times')
    // the choice is this browser's: kept after a reload
    await p.reload()
    await userRow(p).waitFor()
    expect(await header(p, '创建时间').count()).toBe(1)
    await p.context().close()
  })

  it('shows nickname, status and actions on a 390×844 phone, the rest in the row, the page no wider', async () => {
    const p = await page(PHONE)
    await p.goto(`/usermanage?keyword=${NICK}`)
    await userRow(p).waitFor()
    expect(await pageFits(p)).toBe(true)
    for (const title of ['用户昵称', '状态', '操作'])
      expect([title, await inView(p, header(p, title))]).toEqual([title, true])
    expect(await header(p, '部门/岗位').count()).toBe(0)
    const row = userRow(p)
    expect(await inView(p, row.getByText(NICK, { exact: true }))).toBe(true)
    expect(await inView(p, row.getByRole('switch'))).toBe(true)
    expect(await inView(p, row.getByRole('button', { name: /^修\s*改$/ }))).toBe(true)
    expect(await inView(p, row.getByRole('button', { name: /^删\s*除$/ }))).toBe(true)
    await screenshot(p, 'lists-users-390')
    // the other columns open under the row
    await row.locator('.ant-table-row-expand-icon').tap()
    const details = p.getByTestId('user-row-details')
    await details.getByText(`列表${stamp}`).waitFor()
    expect(await details.textContent()).toContain('创建时间')
    expect(await pageFits(p)).toBe(true)
    await screenshot(p, 'lists-users-390-expanded')
    await p.context().close()
  })
})

describe('every list', () => {
  for (const [size, viewport] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(
      `has the one search bar, 查询 and 重置 in view, and fits the page at ${size} px`,
      { timeout: 300_000 },
      async () => {
        const p = await page(viewport)
        const wide: string[] = []
        for (const [name, path, text] of LISTS) {
          await openList(p, path, text)
          const bar = p.getByTestId('list-search-bar')
          expect([name, await bar.count()]).toEqual([name, 1])
          for (const label of [/(^|\s)查\s*询$/, /(^|\s)重\s*置$/])
            expect([name, await inView(p, bar.getByRole('button', { name: label }))]).toEqual([name, true])
          if (!(await pageFits(p))) wide.push(name)
          await screenshot(p, `lists-${name}-${size}`)
        }
        expect(wide).toEqual([])
        await p.context().close()
      },
    )
  }
})
