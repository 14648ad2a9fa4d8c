import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, apiLogin, launchBrowser, newPage, screenshot, signIn } from './helpers'
import { createdData } from './cleanup'

/**
 * The home page (/body): under the welcome heading, the counts of what the user may list, their own
 * recent operations and the security figures, at a desktop width and on a phone, in both themes.
 */
let browser: Browser
let token: string
const created = createdData()
const stationName = `首页职位${Date.now()}`

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
  // an operation of admin's own, for the recent operations card
  const res = await api<number>('POST', '/station/insert', { token, body: { stationName, type: 1 } })
  expect(res.status, res.msg).toBe(200)
  created.remember(`/station/delete?stationId=${res.data}`)
})
afterAll(async () => {
  await created.removeAll(token)
  await browser?.close()
})

const statistic = (page: Page, card: string, title: string) =>
  page
    .getByTestId(`overview-${card}`)
    .locator('.ant-statistic', { has: page.locator('.ant-statistic-title', { hasText: title }) })
    .locator('.ant-statistic-content')

async function useDark(page: Page) {
  await page.evaluate(() =>
    localStorage.setItem('amg.appearance', JSON.stringify({ mode: 'dark', density: 'default' })),
  )
  await page.reload()
}

describe('the home page', () => {
  it('shows admin every count, their recent operations and the security figures', async () => {
    const page = await newPage(browser, { width: 1280, height: 800 })
    await signIn(page)
    await page.getByRole('heading', { name: '欢迎使用角色权限管理系统' }).waitFor()
    const overview = (await api('GET', '/system/overview', { token })).data
    await expect
      .poll(() => statistic(page, 'users', '正常').textContent())
      .toBe(String(overview.users.active))
    expect(await statistic(page, 'users', '冻结').textContent()).toBe(String(overview.users.frozen))
    for (const card of ['roles', 'userGroups', 'organizations', 'stations', 'positions'])
      expect(await statistic(page, card, '总数').textContent()).toBe(String(overview[card]))
    expect(await statistic(page, 'security', '超级管理员').textContent()).toBe(String(overview.superAdmins))
    expect(await statistic(page, 'security', '服务').textContent()).toBe(String(overview.services))
    // admin's own newest operation, with its record's name
    const recent = page.getByTestId('overview-recent')
    await expect.poll(() => recent.locator('li').first().textContent()).toContain('新建职位')
    expect(await recent.locator('li').first().textContent()).toContain(stationName)
    await screenshot(page, 'home-1280-light')

    // each card leads to its screen
    await page.getByTestId('overview-stations').getByRole('link', { name: '查看' }).click()
    await page.waitForURL('**/stationmanage')
    await page.goBack()
    await page.getByTestId('overview-recent').getByRole('link', { name: '查看' }).click()
    await page.waitForURL('**/operlog')

    await page.goto('/body')
    await useDark(page)
    await statistic(page, 'users', '正常').waitFor()
    await page.waitForTimeout(400)
    await screenshot(page, 'home-1280-dark')
    await page.context().close()
  })

  it('stacks the cards on a phone', async () => {
    const page = await newPage(browser, { width: 390, height: 844 })
    await signIn(page)
    await statistic(page, 'users', '正常').waitFor()
    const users = (await page.getByTestId('overview-users').boundingBox())!
    const roles = (await page.getByTestId('overview-roles').boundingBox())!
    // one column: each card below the one before, as wide as the content
    expect(roles.y).toBeGreaterThanOrEqual(users.y + users.height)
    expect(Math.abs(roles.x - users.x)).toBeLessThan(2)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(page, 'home-390-light')
    await useDark(page)
    await statistic(page, 'users', '正常').waitFor()
    await page.waitForTimeout(400)
    await screenshot(page, 'home-390-dark')
    await page.context().close()
  })

  it('explains the model under the titles of 职位管理, 岗位管理 and the role screens', async () => {
    const page = await newPage(browser, { width: 1280, height: 800 })
    await signIn(page)
    for (const [path, text] of [
      ['/stationmanage', '把职位关联到部门后，就成为该部门的岗位'],
      ['/positionmanage', '岗位 = 部门 + 职位'],
      ['/rolemanage', '超级管理员和内置角色在这里只能查看'],
      ['/adminrolemanage', '超级管理员拥有全部权限，不能修改或删除'],
      ['/usergroupmanage', '组内用户获得该组关联的角色'],
    ]) {
      await page.goto(path)
      await expect.poll(() => page.getByTestId('screen-description').textContent()).toContain(text)
    }
    await screenshot(page, 'help-usergroup-1280')
    await page.context().close()
  })
})
