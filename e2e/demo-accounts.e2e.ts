import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInDemoAccount, startDemoServer } from './demo-server'
import { launchBrowser, menuLabels, screenshot } from './helpers'

// Each demo account, signed in on a system filled by `npm run seed:demo`, sees what the README says
// its role is for: the menu, the actions on the screens it may open, and 无权访问 on one it may not.
// The system is started here on its own database (demo-server.ts).

let browser: Browser
let server: Awaited<ReturnType<typeof startDemoServer>>

beforeAll(async () => {
  server = await startDemoServer()
  browser = await launchBrowser()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function signInAs(nickName: string): Promise<Page> {
  const page = await signInDemoAccount(browser, server.baseURL, nickName)
  // the menu opened, so that every permitted label is listed
  await page.getByTestId('side-menu').waitFor()
  await page.getByRole('button', { name: '展开菜单' }).click()
  // and every submenu opened
  const closed = page.locator(
    '[data-testid="side-menu"] .ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title',
  )
  while ((await closed.count()) > 0) await closed.first().click()
  return page
}

/** Opens a typed address and waits for its screen (or the 403 page) to settle. */
async function open(page: Page, address: string) {
  await page.goto(address)
  await page.waitForLoadState('networkidle')
}

const forbidden = (page: Page) => page.getByText('无权访问', { exact: true })
/** A button by its text (an icon's name may come first: 'plus 新建'); '修改' is not '修改密码'. */
const button = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^([a-z-]+ )?${name}$`) })
const tableRows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row')

describe('the demo accounts (README)', { timeout: 120_000 }, () => {
  it('demo_audit (只读审计) opens every page, the logs and 权限分析 included, and is offered no change', async () => {
    const page = await signInAs('demo_audit')
    const menu = await menuLabels(page)
    for (const label of [
      '用户管理',
      '角色管理',
      '部门管理',
      '系统监控',
      '操作日志',
      '登录日志',
      '在线用户',
      '权限分析',
    ])
      expect(menu, `${label} in ${menu.join(',')}`).toContain(label)

    await open(page, '/usermanage')
    await tableRows(page).first().waitFor()
    expect(await button(page, '新建').count()).toBe(0)
    expect(await button(page, '删除').allTextContents()).toEqual([])
    await screenshot(page, 'demo-audit-users')

    await open(page, '/rolemanage')
    await tableRows(page).first().waitFor()
    expect(await button(page, '新建').count()).toBe(0)
    expect(await button(page, '修改').count()).toBe(0)
    expect(await button(page, '查看').count()).toBeGreaterThan(0)

    await open(page, '/stationmanage')
    await tableRows(page).first().waitFor()
    expect(await button(page, '新建').count()).toBe(0)
    expect(await button(page, '查看').count()).toBeGreaterThan(0)
    await screenshot(page, 'demo-audit-stations')
    expect(await button(page, '删除').evaluateAll((els) => els.map((e) => e.outerHTML))).toEqual([])

    await open(page, '/operlog')
    await tableRows(page).first().waitFor()
    await open(page, '/online')
    await tableRows(page).first().waitFor()
    expect(await button(page, '强制下线').count()).toBe(0)
    await open(page, '/authzanalysis')
    expect(await forbidden(page).count()).toBe(0)
    await screenshot(page, 'demo-audit-authz')
  })

  it('demo_hr (人事专员) manages users and is refused the role screen with 无权访问', async () => {
    const page = await signInAs('demo_hr')
    const menu = await menuLabels(page)
    expect(menu).toContain('用户管理')
    expect(menu, menu.join(',')).not.toContain('角色管理')
    expect(menu).not.toContain('系统监控')

    await open(page, '/usermanage')
    await tableRows(page).first().waitFor()
    expect(await button(page, '新建').count()).toBe(1)
    expect(await button(page, '修改').count()).toBeGreaterThan(0)

    await open(page, '/rolemanage')
    await forbidden(page).waitFor()
    expect(await tableRows(page).count()).toBe(0)
    await screenshot(page, 'demo-hr-forbidden')
    await button(page, '返回首页').click()
    await page.waitForURL('**/body')
  })

  it('demo_org (组织架构管理员) has the organisation screens and not the users', async () => {
    const page = await signInAs('demo_org')
    const menu = await menuLabels(page)
    for (const label of ['部门管理', '职位管理', '岗位管理'])
      expect(menu, `${label} in ${menu.join(',')}`).toContain(label)
    expect(menu).not.toContain('用户管理')
    await open(page, '/stationmanage')
    await tableRows(page).first().waitFor()
    expect(await button(page, '新建').count()).toBe(1)
    await open(page, '/usermanage')
    await forbidden(page).waitFor()
  })

  it('demo_staff and demo_orders see the welcome page only; any screen of this server is 无权访问', async () => {
    for (const name of ['demo_staff', 'demo_orders']) {
      const page = await signInAs(name)
      expect(await menuLabels(page), name).toEqual(['首页'])
      await open(page, '/rolemanage')
      await forbidden(page).waitFor()
      expect(await tableRows(page).count()).toBe(0)
      await page.context().close()
    }
  })
})
