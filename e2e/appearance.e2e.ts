import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import { api, apiLogin, launchBrowser, newPage, openInConsole, screenshot, signIn } from './helpers'

/**
 * How the console looks: it fills the window (no browser frame) at 1920, 1440, 1280 and 600 px, the
 * menu becoming a drawer and tables scrolling sideways on the narrow window; the light and dark themes and
 * the compact density, switched from the header or the sign-in page and kept by the browser; every
 * screen photographed once per theme (test-results/screens/theme-<theme>-<screen>.png); at most
 * three toasts at once.
 */

let browser: Browser
let token: string
const s = Date.now().toString(36)
const created = createdData()
const ids = {} as Record<'user' | 'role' | 'adminRole' | 'group' | 'org' | 'station' | 'position', number>

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}

/** Relative luminance (0 black … 1 white) of a CSS rgb()/rgba() colour. */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number)
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
}
const backgroundOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor)
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)

/** The page fills the window: no body margin, the outermost box at the window's corners and full width. */
async function expectFrameless(page: Page, selector: string) {
  const view = page.viewportSize()!
  const margin = await page.evaluate(() => getComputedStyle(document.body).margin)
  expect(margin).toBe('0px')
  const box = (await page.locator(selector).first().boundingBox())!
  expect({ x: box.x, y: box.y, width: Math.round(box.width) }).toEqual({ x: 0, y: 0, width: view.width })
  expect(box.height).toBeGreaterThanOrEqual(view.height - 1)
}

async function chooseAppearance(page: Page, label: string) {
  await page.getByTestId('appearance').first().click()
  await page.getByRole('menuitem', { name: label }).click()
  await page.keyboard.press('Escape')
}

beforeAll(async () => {
  token = await apiLogin()
  ids.user = (await ok(api<{ id: number }>('GET', '/user/current', { token }))).id
  ids.role = await ok(
    api<number>('POST', '/role/insert', { token, body: { roleName: `ap${s}角色`, authCodes: [] } }),
  )
  ids.adminRole = await ok(
    api<number>('POST', '/role/admin/insert', { token, body: { roleName: `ap${s}内置`, authCodes: [] } }),
  )
  ids.group = await ok(
    api<number>('POST', '/user_groups/insert', {
      token,
      body: { groupName: `ap${s}组`, status: 1, description: '外观截图用', userIds: String(ids.user) },
    }),
  )
  const [root] = await ok(api<{ id: number }[]>('GET', '/org/tree', { token }))
  ids.org = await ok(
    api<number>('POST', '/org/insert', { token, body: { organizationName: `ap${s}部门`, parent: root.id } }),
  )
  ids.station = await ok(
    api<number>('POST', '/station/insert', {
      token,
      body: { stationName: `ap${s}职位`, type: 1, orgIds: [ids.org] },
    }),
  )
  const positions = await ok(
    api<{ list: { id: number }[] }>('POST', '/position/list', {
      token,
      body: { orgId: ids.org, pageNum: 1, pageSize: 10 },
    }),
  )
  ids.position = positions.list[0].id
  created.remember(`/role/delete?id=${ids.role}`)
  created.remember(`/role/admin/delete?id=${ids.adminRole}`)
  created.remember(`/user_groups/delete?userGroupsId=${ids.group}`)
  created.remember(`/org/delete?orgId=${ids.org}`)
  created.remember(`/station/delete?stationId=${ids.station}`)
  await ok(
    api('PUT', '/rel/position-rel-user', { token, body: { positionId: ids.position, userIds: [ids.user] } }),
  )
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

describe('appearance', () => {
  it('the theme and density switch is kept by the browser, the sign-in page included', async () => {
    const page = await newPage(browser)
    await page.goto('/')
    expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.8)
    await chooseAppearance(page, '深色主题')
    await expect.poll(async () => luminance(await bodyBackground(page))).toBeLessThan(0.1)
    expect(luminance(await backgroundOf(page, '[data-testid="login-card"]'))).toBeLessThan(0.2)
    await page.reload()
    await page.getByPlaceholder('用户昵称').waitFor()
    expect(luminance(await bodyBackground(page))).toBeLessThan(0.1)
    await screenshot(page, 'appearance-login-dark')

    await signIn(page)
    expect(luminance(await backgroundOf(page, '.ant-layout-header'))).toBeLessThan(0.2)
    // compact: the header's controls get smaller
    await page.goto('/usermanage')
    const height = async () => (await page.getByRole('button', { name: /查\s*询/ }).boundingBox())!.height
    const standard = await height()
    await chooseAppearance(page, '紧凑密度')
    await expect.poll(height).toBeLessThan(standard)
    await page.reload()
    await page.getByTestId('user-table').waitFor()
    expect(await height()).toBeLessThan(standard)
    expect(luminance(await bodyBackground(page))).toBeLessThan(0.1)
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('amg.appearance')!))).toEqual({
      mode: 'dark',
      density: 'compact',
    })
    await screenshot(page, 'appearance-users-dark-compact')

    // back to light, standard: also kept
    await chooseAppearance(page, '浅色主题')
    await chooseAppearance(page, '标准密度')
    await page.reload()
    await page.getByTestId('user-table').waitFor()
    expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.8)
    expect(await height()).toBe(standard)
    await page.context().close()
  })

  it('fills the window at 1920, 1440, 1280 and 600 px in both themes; the narrow window puts the menu in a drawer and keeps the page within it', async () => {
    const useTheme = async (page: Page, mode: 'light' | 'dark') => {
      await page.evaluate(
        (value) => localStorage.setItem('amg.appearance', value),
        JSON.stringify({ mode, density: 'default' }),
      )
      await page.reload()
    }
    for (const width of [1920, 1440, 1280, 600]) {
      const page = await newPage(browser, { width, height: 900 })
      await page.goto('/')
      for (const mode of ['light', 'dark'] as const) {
        await useTheme(page, mode)
        await page.getByPlaceholder('用户昵称').waitFor()
        await expectFrameless(page, '#root > div')
        await screenshot(page, `frame-${mode}-${width}-login`)
      }
      await signIn(page)
      await page.goto('/usermanage')
      for (const mode of ['dark', 'light'] as const) {
        await useTheme(page, mode)
        await page.getByTestId('user-table').locator('tr.ant-table-row').first().waitFor()
        await expectFrameless(page, '.ant-layout')
        if (width === 600) {
          // no menu beside the screen: it opens as a drawer from the header
          expect(await page.locator('.ant-layout-sider').count()).toBe(0)
          await page.getByRole('button', { name: '打开菜单' }).waitFor()
          // the user list shows its phone columns (nickname, status, actions), the rest in each row;
          // no sideways scrolling of the page itself
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
        } else {
          const sider = (await page.locator('.ant-layout-sider').boundingBox())!
          expect({ x: sider.x, y: sider.y }).toEqual({ x: 0, y: 0 })
          expect(sider.height).toBeGreaterThanOrEqual(899)
        }
        await screenshot(page, `frame-${mode}-${width}-users`)
      }
      await page.context().close()
    }
    // an opened menu becomes the drawer's button when the window becomes narrow, and comes back as it was
    const page = await newPage(browser)
    await signIn(page)
    await page.getByRole('button', { name: '展开菜单' }).click()
    await expect.poll(async () => (await page.locator('.ant-layout-sider').boundingBox())!.width).toBe(220)
    await page.setViewportSize({ width: 600, height: 900 })
    await page.getByRole('button', { name: '打开菜单' }).waitFor()
    expect(await page.locator('.ant-layout-sider').count()).toBe(0)
    await page.setViewportSize({ width: 1440, height: 900 })
    await expect.poll(async () => (await page.locator('.ant-layout-sider').boundingBox())?.width).toBe(220)
    await page.context().close()
  }, 180_000)

  it('shows at most three toasts at once', async () => {
    const page = await newPage(browser)
    await signIn(page)
    await page.goto('/stationmanage')
    const row = page.locator('tr.ant-table-row').first()
    await row.waitFor()
    // turning a delete down says 已取消删除 at once: five quick refusals, five toasts asked for
    let most = 0
    for (let i = 0; i < 5; i++) {
      await row.getByRole('button', { name: /删\s*除/ }).click()
      await page
        .locator('.ant-popconfirm:not(.ant-popover-hidden)')
        .getByRole('button', { name: /取\s*消/ })
        .click()
      most = Math.max(most, await page.locator('.ant-message-notice').count())
    }
    await page.locator('.ant-message-notice', { hasText: '已取消删除' }).first().waitFor()
    await page.waitForTimeout(300)
    most = Math.max(most, await page.locator('.ant-message-notice').count())
    expect(most).toBe(3)
    await screenshot(page, 'appearance-toasts')
    await page.context().close()
  })
})

const q = encodeURIComponent

/**
 * Every screen of the console: [file name, path, a text that shows once the screen has loaded]. The
 * lists open searched for this spec's rows (their state is in the URL): other specs' rows come first.
 */
const screens = (): [string, string, string][] => {
  const user = `id=${ids.user}&title=admin&isShow=1`
  const group = `isDisable=false&id=${ids.group}&isShow=true`
  const position = `id=${ids.position}&title=${encodeURIComponent(`修改ap${s}部门-ap${s}职位的关联关系`)}`
  return [
    ['welcome', '/body', '欢迎'],
    ['users', '/usermanage?nickName=admin', 'admin'],
    ['user-add', '/usermanage/adduser', '新建用户'],
    ['user-base', `/usermanage/userinfo/userbaseinfo?${user}`, '基本信息'],
    ['user-roles', `/usermanage/userinfo/roleformbyuser?${user}`, '关联角色'],
    ['user-groups', `/usermanage/userinfo/usergroupformbyuser?${user}`, '关联用户组'],
    ['user-positions', `/usermanage/userinfo/positionformbyuser?${user}`, '关联岗位'],
    ['roles', `/rolemanage?roleName=${q(`ap${s}角色`)}`, `ap${s}角色`],
    ['role-add', '/rolemanage/addrole?isShow=true', '新建角色'],
    [
      'role-edit',
      `/rolemanage/roleinfo?title=修改角色&isDisable=false&id=${ids.role}&isShow=true`,
      '权限管理',
    ],
    ['admin-roles', `/adminrolemanage?roleName=${q(`ap${s}内置`)}`, `ap${s}内置`],
    ['admin-role-add', '/adminrolemanage/adminroleadd?isShow=true', '新建内置角色'],
    [
      'admin-role-view',
      `/adminrolemanage/adminroleinfo?title=查看内置角色&isDisable=true&id=${ids.adminRole}&isShow=true`,
      '权限管理',
    ],
    ['groups', `/usergroupmanage?groupName=${q(`ap${s}组`)}`, `ap${s}组`],
    ['group-add', '/usergroupmanage/addusergroup', '关联用户'],
    ['group-base', `/usergroupmanage/usergroupinfo?${group}`, '外观截图用'],
    ['group-roles', `/usergroupmanage/usergroupinfo?${group}&tab=usergrouprolerel`, '关联角色'],
    ['group-users', `/usergroupmanage/usergroupinfo?${group}&tab=usergroupuserrel`, 'admin'],
    ['auth-add', '/authmanage/addform', '新增权限'],
    ['auth-edit', '/authmanage/editform?code=user&isLeaf=false', '修改权限'],
    ['org-add', '/orgmanage/orgaddform', '新增部门'],
    ['org-base', `/orgmanage/editform/orgbaseinfo?id=${ids.org}`, '修改部门'],
    ['org-stations', `/orgmanage/editform/orgrelstation?id=${ids.org}`, `ap${s}职位`],
    ['stations', `/stationmanage?stationName=${q(`ap${s}职位`)}`, `ap${s}职位`],
    ['station-add', '/stationmanage/addstation', '新建职位'],
    ['station-edit', `/stationmanage/editstation?title=修改职位&id=${ids.station}`, '所属部门'],
    ['station-view', `/stationmanage/viewstation?title=查看职位&id=${ids.station}`, '所属部门'],
    ['positions', `/positionmanage?stationId=${ids.station}`, `ap${s}职位`],
    ['position-roles', `/positionmanage/positioninfo/roleform?${position}`, '关联角色'],
    ['position-users', `/positionmanage/positioninfo/userform?${position}`, 'admin'],
    ['operation-log', '/operlog', '操作日志'],
    ['login-log', '/loginlog', '登录日志'],
    ['online', '/online', '在线用户'],
    ['not-found', '/404', '页面不存在'],
  ]
}

describe('every screen in both themes', () => {
  // in two halves per theme, each within a test's time on a slow machine
  const half = (all: ReturnType<typeof screens>, second: boolean) =>
    second ? all.slice(Math.ceil(all.length / 2)) : all.slice(0, Math.ceil(all.length / 2))
  for (const mode of ['light', 'dark'] as const) {
    for (const second of [false, true]) {
      const part = second ? 'second half and the pop-ups' : 'first half'
      it(`${mode}: every screen renders in the theme, filling the window (${part})`, async () => {
        const page = await newPage(browser)
        await page.addInitScript(
          (value) => localStorage.setItem('amg.appearance', value),
          JSON.stringify({ mode, density: 'default' }),
        )
        await signIn(page)
        for (const [name, path, text] of half(screens(), second)) {
          await openInConsole(page, path)
          await page.locator('.ant-layout-content').getByText(text, { exact: false }).first().waitFor()
          // loading spinners gone (the screen's code, then its tables, trees and forms filled)
          await expect.poll(() => page.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0)
          await expectFrameless(page, '.ant-layout')
          // the page and the screen's card (the welcome and 404 screens have none: the header then)
          const body = luminance(await bodyBackground(page))
          const hasCard = (await page.locator('.ant-layout-content .ant-card').count()) > 0
          const surface = luminance(
            await backgroundOf(page, hasCard ? '.ant-layout-content .ant-card' : '.ant-layout-header'),
          )
          if (mode === 'dark') expect([name, body < 0.1, surface < 0.2]).toEqual([name, true, true])
          else expect([name, body > 0.8, surface > 0.9]).toEqual([name, true, true])
          await screenshot(page, `theme-${mode}-${name}`)
        }
        if (second) {
          // the header's pop-ups too: the appearance menu and the password dialog
          await page.getByTestId('appearance').click()
          await page.getByRole('menuitem', { name: '深色主题' }).waitFor()
          await screenshot(page, `theme-${mode}-appearance-menu`)
          await page.keyboard.press('Escape')
          await page.getByRole('button', { name: '修改密码' }).first().click()
          await page.locator('.ant-modal').waitFor()
          await screenshot(page, `theme-${mode}-password-dialog`)
        }
        await page.context().close()
      })
    }
  }
})
