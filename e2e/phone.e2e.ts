import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import { api, apiLogin, baseURL, launchBrowser, newPage, openInConsole, screenshot, signIn } from './helpers'

/**
 * The console on a phone (390×844): the menu is a drawer opened from the header, no screen is wider
 * than the phone, the department tree's actions open with a tap on "⋯", and the form under the tree
 * comes into view. Every screen is photographed in both themes (test-results/screens/phone-*.png),
 * and the changed screens at 1280 px as well (desktop-*.png).
 */

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }

let browser: Browser
let token: string
const s = Date.now().toString(36)
const created = createdData()
let orgId: number
const orgName = `ph${s}部门`

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}

/** A signed-in page in the given theme: a touch phone, or a desktop window. */
async function phone(mode: 'light' | 'dark' = 'light', viewport = PHONE): Promise<Page> {
  const touch = viewport.width === PHONE.width
  const page = touch
    ? await (
        await browser.newContext({
          baseURL: baseURL(),
          viewport,
          locale: 'zh-CN',
          reducedMotion: 'reduce',
          hasTouch: true,
          isMobile: true,
        })
      ).newPage()
    : await newPage(browser, viewport)
  await page.addInitScript(
    (value) => localStorage.setItem('amg.appearance', value),
    JSON.stringify({ mode, density: 'default' }),
  )
  await signIn(page)
  return page
}

/** A shot of the window as it is (a full-page shot resizes the window, which closes an open menu). */
const shotAsIs = (page: Page, name: string) => screenshot(page, name, { fullPage: false })

/** How far the page reaches sideways: the phone's width when nothing sticks out. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)

/** The row of the department with exactly this name. */
const orgRow = (page: Page, name: string): Locator =>
  page.locator('[data-testid="org-tree"] .ant-tree-treenode', {
    has: page.locator('.ant-tree-title', { hasText: new RegExp(`^${name}$`) }),
  })

/** Whether the element lies within the window (it may be cut at the bottom, never sideways). */
async function inView(page: Page, target: Locator) {
  const box = (await target.boundingBox())!
  const view = page.viewportSize()!
  return box.x >= 0 && box.x + box.width <= view.width && box.y >= 0 && box.y < view.height
}

// The route table's screens: [file name, path, a text that shows once the screen has loaded].
const screens = (): [string, string, string][] => [
  ['welcome', '/body', '欢迎'],
  ['users', '/usermanage?nickName=admin', 'admin'],
  ['user-add', '/usermanage/adduser', '新建用户'],
  ['user-base', '/usermanage/userinfo/userbaseinfo?id=1&title=admin', '基本信息'],
  ['user-roles', '/usermanage/userinfo/roleformbyuser?id=1&title=admin', '关联角色'],
  ['roles', '/rolemanage', '角色管理'],
  ['role-add', '/rolemanage/addrole?isShow=true', '新建角色'],
  ['admin-roles', '/adminrolemanage', '内置角色管理'],
  ['groups', '/usergroupmanage', '用户组管理'],
  ['group-add', '/usergroupmanage/addusergroup', '关联用户'],
  ['auth-add', '/authmanage/addform', '新增权限'],
  ['auth-edit', '/authmanage/editform?code=user&isLeaf=false', '修改权限'],
  ['services', '/servicemanage', '应用管理'],
  ['apikeys', '/apikeymanage', 'API 密钥'],
  ['org-add', '/orgmanage/orgaddform', '新增部门'],
  ['org-base', `/orgmanage/editform/orgbaseinfo?id=${orgId}`, '修改部门'],
  ['org-stations', `/orgmanage/editform/orgrelstation?id=${orgId}`, '修改部门'],
  ['stations', '/stationmanage', '职位管理'],
  ['station-add', '/stationmanage/addstation', '新建职位'],
  ['positions', '/positionmanage', '岗位管理'],
  ['operation-log', '/operlog', '操作日志'],
  ['login-log', '/loginlog', '登录日志'],
  ['online', '/online', '在线用户'],
  ['authz-analysis', '/authzanalysis', '权限分析'],
  ['not-found', '/404', '页面不存在'],
  // DESIGN.md §21
  ['access-review', '/accessreview', '权限复核'],
]

async function openScreen(page: Page, path: string, text: string) {
  await openInConsole(page, path)
  await page.locator('.ant-layout-content').getByText(text, { exact: false }).first().waitFor()
  await expect.poll(() => page.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0)
  await page.waitForTimeout(200)
}

beforeAll(async () => {
  token = await apiLogin()
  const [root] = await ok(api<{ id: number }[]>('GET', '/org/tree', { token }))
  orgId = await ok(
    api<number>('POST', '/org/insert', { token, body: { organizationName: orgName, parent: root.id } }),
  )
  created.remember(`/org/delete?orgId=${orgId}`)
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

describe('on a phone', () => {
  it('the menu is a drawer opened from the header; choosing a screen goes there and closes it', async () => {
    const page = await phone()
    // no side menu beside the screen: the header and the screen have the whole width
    await page.getByRole('button', { name: '打开菜单' }).waitFor()
    expect(await page.locator('.ant-layout-sider:not([data-testid="menu-drawer"])').count()).toBe(0)
    const header = (await page.locator('.ant-layout-header').boundingBox())!
    expect([header.x, Math.round(header.width)]).toEqual([0, PHONE.width])
    // the initial-password warning reads as a sentence, its button under it
    const banner = page.getByTestId('initial-password-banner')
    if (await banner.count()) {
      const title = (await banner.locator('.ant-alert-title').boundingBox())!
      expect(title.width).toBeGreaterThan(200)
      expect(await inView(page, banner.getByRole('button', { name: '立即修改' }))).toBe(true)
    }
    await screenshot(page, 'phone-header')

    await page.getByRole('button', { name: '打开菜单' }).click()
    const drawer = page.getByTestId('menu-drawer')
    await drawer.waitFor()
    await page.waitForTimeout(300)
    await screenshot(page, 'phone-menu-drawer')
    await drawer.getByRole('menuitem', { name: '职位管理', exact: true }).click()
    await page.waitForURL('**/stationmanage')
    await drawer.waitFor({ state: 'hidden' })
    await page.getByRole('heading', { name: '职位管理', exact: true }).waitFor()

    // and again, to a screen of another group
    await page.getByRole('button', { name: '打开菜单' }).click()
    await drawer.getByRole('menuitem', { name: '角色管理', exact: true }).click()
    await page.waitForURL('**/rolemanage')
    await drawer.waitFor({ state: 'hidden' })
    await page.context().close()
  })

  it('no screen is wider than the phone; the search bars show their buttons whole', async () => {
    const page = await phone()
    const wide: string[] = []
    for (const [name, path, text] of screens()) {
      await openScreen(page, path, text)
      if ((await pageWidth(page)) > PHONE.width) wide.push(`${name}: ${await pageWidth(page)}`)
      const bar = page.getByTestId('list-search-bar')
      if (await bar.count()) {
        for (const button of await bar.getByRole('button').all()) {
          if (await button.isVisible()) expect([name, await inView(page, button)]).toEqual([name, true])
        }
      }
    }
    expect(wide).toEqual([])
    await page.context().close()
  })

  it("a department's actions open with a tap on ⋯; the new child's form is in view under the tree", async () => {
    const page = await phone()
    await page.goto('/orgmanage')
    await page.waitForURL('**/orgmanage/orgaddform')
    await expect.poll(() => page.getByTestId('tree-actions-hint').textContent()).toBe('右键或点击 ⋯ 操作节点')
    await page.getByTestId('org-tree').getByPlaceholder('输入部门名称进行过滤').fill(orgName)
    const row = orgRow(page, orgName)
    const more = row.getByRole('button', { name: `${orgName} 的操作` })
    // shown without hovering: a phone has no hover
    expect(await more.evaluate((el) => getComputedStyle(el).opacity)).toBe('1')
    await more.tap()
    const menu = page.getByTestId('org-context-menu')
    await menu.waitFor()
    expect((await menu.locator('.ant-menu-title-content').allTextContents()).map((t) => t.trim())).toEqual([
      '编辑',
      '新增下级',
      '删除',
    ])
    expect(await inView(page, menu)).toBe(true)
    await shotAsIs(page, 'phone-org-menu')
    await menu.getByText('新增下级', { exact: true }).tap()
    await page.waitForURL((u) => u.searchParams.get('parent') === String(orgId))

    // the add form comes into view under the tree
    const name = page.getByPlaceholder('请输入部门名称')
    await expect.poll(() => page.getByTestId('org-parent-name').textContent()).toBe(orgName)
    await expect.poll(() => inView(page, name)).toBe(true)
    const childName = `ph${s}下级`
    await name.fill(childName)
    await page.getByRole('button', { name: /^创\s*建$/ }).tap()
    await page.waitForURL(/\/orgmanage\/editform\/orgbaseinfo\?id=\d+$/)
    const childId = Number(new URL(page.url()).searchParams.get('id'))
    created.remember(`/org/delete?orgId=${childId}`)
    const child = await ok(
      api<{ organizationName: string; parent: number }>('GET', `/org/detail?orgId=${childId}`, { token }),
    )
    expect(child).toMatchObject({ organizationName: childName, parent: orgId })

    // the edit form is within the phone's width and in view, labels above their fields
    await expect.poll(() => name.inputValue()).toBe(childName)
    await expect.poll(() => inView(page, name)).toBe(true)
    const label = (await page.locator('label[for]', { hasText: '部门名称' }).first().boundingBox())!
    const field = (await name.boundingBox())!
    expect(label.y + label.height).toBeLessThanOrEqual(field.y + 1)
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width)
    await screenshot(page, 'phone-org-child-created')
    await page.context().close()
  })

  it('the permission tree offers the same ⋯ menu', async () => {
    const page = await phone()
    await page.goto('/authmanage/addform')
    const node = page.locator('[data-testid="auth-tree"] .ant-tree-treenode', {
      has: page.locator('[data-code="user"]'),
    })
    await node.waitFor()
    await node.getByRole('button', { name: /的操作$/ }).tap()
    const menu = page.getByTestId('auth-context-menu')
    await menu.waitFor()
    expect(await inView(page, menu)).toBe(true)
    await shotAsIs(page, 'phone-auth-menu')
    await menu.getByText('编辑', { exact: true }).tap()
    await page.waitForURL(
      (u) => u.pathname === '/authmanage/editform' && u.searchParams.get('code') === 'user',
    )
    await expect.poll(() => inView(page, page.getByTestId('auth-form'))).toBe(true)
    await screenshot(page, 'phone-auth-edit')
    await page.context().close()
  })

  it('a form beside its tree keeps what was typed when the window narrows to a phone and widens again', async () => {
    const page = await phone('light', DESKTOP)
    await page.goto('/authmanage/addform')
    const form = page.getByTestId('auth-form')
    const chName = form.getByPlaceholder('中文名')
    const filter = page.getByTestId('auth-tree').getByPlaceholder('输入关键字进行过滤')
    await chName.fill(`窄窗${s}`)
    await form.getByPlaceholder('英文名').fill(`narrow_${s}`)
    await filter.fill('用户')
    const treeBox = async () => (await page.getByTestId('auth-tree').boundingBox())!
    const formBox = async () => (await form.boundingBox())!
    expect((await formBox()).x).toBeGreaterThan((await treeBox()).x + 200) // side by side

    await page.setViewportSize(PHONE)
    // stacked: the form under the tree, what was typed still there
    await expect.poll(async () => (await formBox()).y > (await treeBox()).y + 100).toBe(true)
    expect(await chName.inputValue()).toBe(`窄窗${s}`)
    expect(await filter.inputValue()).toBe('用户')

    await page.setViewportSize(DESKTOP)
    await expect.poll(async () => (await formBox()).x > (await treeBox()).x + 200).toBe(true)
    expect(await chName.inputValue()).toBe(`窄窗${s}`)
    expect(await form.getByPlaceholder('英文名').inputValue()).toBe(`narrow_${s}`)
    expect(await filter.inputValue()).toBe('用户')
    await page.context().close()
  })

  for (const mode of ['light', 'dark'] as const) {
    // two dozen screens, each loaded and photographed: longer than one check on a busy machine
    it(`${mode}: every screen photographed at 390 px`, { timeout: 300_000 }, async () => {
      const page = await phone(mode)
      for (const [name, path, text] of screens()) {
        await openScreen(page, path, text)
        await screenshot(page, `phone-${mode}-${name}`)
      }
      await page.getByRole('button', { name: '打开菜单' }).click()
      await page.getByTestId('menu-drawer').waitFor()
      await page.waitForTimeout(300)
      await screenshot(page, `phone-${mode}-menu-drawer`)
      // a phone user closes the drawer by tapping beside it; wait until its mask is gone
      await page.mouse.click(PHONE.width - 20, PHONE.height / 2)
      await page.locator('.ant-drawer-mask').waitFor({ state: 'hidden' })
      await page.getByRole('button', { name: '修改密码' }).click()
      await page.locator('.ant-modal').waitFor()
      await page.waitForTimeout(300)
      const modal = (await page.locator('.ant-modal').boundingBox())!
      expect(modal.x).toBeGreaterThanOrEqual(0)
      expect(modal.x + modal.width).toBeLessThanOrEqual(PHONE.width)
      await screenshot(page, `phone-${mode}-password-dialog`)
      await page.context().close()
    })
  }

  it('on a desktop the side menu stays, and the tree actions show on hover', async () => {
    const page = await phone('light', DESKTOP)
    await page.locator('.ant-layout-sider').waitFor()
    await page.locator('.ant-layout-header').waitFor()
    expect(await page.getByRole('button', { name: '打开菜单' }).count()).toBe(0)
    for (const [name, path, text] of screens().filter(([n]) =>
      /^(org|auth|users|stations|services)/.test(n),
    )) {
      await openScreen(page, path, text)
      await screenshot(page, `desktop-${name}`)
    }
    await page.goto('/orgmanage/orgaddform')
    await page.getByTestId('org-tree').getByPlaceholder('输入部门名称进行过滤').fill(orgName)
    const row = orgRow(page, orgName)
    const more = row.getByRole('button', { name: `${orgName} 的操作` })
    await row.waitFor()
    await page.mouse.move(0, 0)
    expect(await more.evaluate((el) => getComputedStyle(el).opacity)).toBe('0')
    await row.hover()
    await expect.poll(() => more.evaluate((el) => getComputedStyle(el).opacity)).toBe('1')
    await more.click()
    await page.getByTestId('org-context-menu').waitFor()
    await shotAsIs(page, 'desktop-org-menu')
    await page.context().close()
  })
})
