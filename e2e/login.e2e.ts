import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, api, launchBrowser, newPage, settledScreenshot as shot, signIn } from './helpers'

const WELCOME = '欢迎使用角色权限管理系统'
const UNAUTHORIZED = '没有权限，请重新登录'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

describe('sign-in (issue 2 item 8)', () => {
  it('the admin signs in, sees the welcome heading and the nickName, and signs out back to /', async () => {
    const page = await newPage(browser)
    await page.goto('/')
    await shot(page, 'login-page')
    await expect.poll(() => page.title()).toBe('登录 - 权限管理系统')
    await signIn(page)
    await page.getByRole('heading', { name: WELCOME }).waitFor()
    await expect.poll(() => page.title()).toBe('权限管理系统')
    expect(await page.getByTestId('current-user').textContent()).toBe(ADMIN.nickName)
    const token = await page.evaluate(() => localStorage.getItem('Authorization'))
    expect(token).toBeTruthy()
    // the initial password is still in use: a warning banner
    await page.getByText('当前账号仍在使用初始密码').waitFor()
    await shot(page, 'login-welcome')

    await page.getByRole('button', { name: '退出登录' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await page.getByPlaceholder('用户昵称').waitFor()
    expect(await page.evaluate(() => localStorage.getItem('Authorization'))).toBeNull()
    // POST /api/logout ended the session on the server: the old token no longer works
    expect((await api('GET', '/user/current', { token: token! })).status).toBe(401)

    // signed out: an (auth) route sends the visitor back to /
    await page.goto('/usermanage')
    await page.waitForURL((url) => url.pathname === '/')
    await page.getByPlaceholder('用户昵称').waitFor()
    await page.context().close()
  })

  it('a wrong password shows the server message and stays on /', async () => {
    const page = await newPage(browser)
    await page.goto('/')
    await page.getByPlaceholder('用户昵称').fill(ADMIN.nickName)
    await page.getByPlaceholder('密码').fill('wrong-password')
    await page.getByRole('button', { name: /登\s*录/ }).click()
    await page.getByText('用户昵称或密码错误').waitFor()
    expect(new URL(page.url()).pathname).toBe('/')
    expect(await page.evaluate(() => localStorage.getItem('Authorization'))).toBeNull()
    await shot(page, 'login-wrong-password')
    await page.context().close()
  })

  it('a 401 (stale token) logs out and lands on / with 没有权限，请重新登录', async () => {
    const page = await newPage(browser)
    await signIn(page)
    await page.getByRole('heading', { name: WELCOME }).waitFor()
    await page.evaluate(() => localStorage.setItem('Authorization', 'corrupted-token'))
    await page.goto('/usermanage')
    await page.getByText(UNAUTHORIZED).waitFor()
    await page.waitForURL((url) => url.pathname === '/')
    await page.getByPlaceholder('用户昵称').waitFor()
    expect(await page.evaluate(() => localStorage.getItem('Authorization'))).toBeNull()
    await shot(page, 'login-401')
    await page.context().close()
  })

  it('signing in from a deep link lands on the page asked for; after 退出登录 it starts at the welcome page', async () => {
    const page = await newPage(browser)
    const fillAndSend = async () => {
      await page.getByPlaceholder('用户昵称').fill(ADMIN.nickName)
      await page.getByPlaceholder('密码').fill(ADMIN.password)
      await page.getByRole('button', { name: /登\s*录/ }).click()
    }
    await page.goto('/rolemanage?roleName=admin')
    await page.waitForURL((url) => url.pathname === '/')
    await fillAndSend()
    await page.waitForURL((url) => url.pathname === '/rolemanage')
    expect(new URL(page.url()).searchParams.get('roleName')).toBe('admin')
    await page.getByRole('heading', { name: '角色管理' }).waitFor()

    await page.getByRole('button', { name: '退出登录' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await fillAndSend()
    await page.waitForURL('**/body')
    await page.getByRole('heading', { name: WELCOME }).waitFor()
    await page.context().close()
  })

  it('a deep link loads the console (history fallback) after signing in', async () => {
    const page = await newPage(browser)
    await signIn(page)
    await page.goto('/rolemanage')
    await page.getByRole('heading', { name: '角色管理' }).waitFor()
    await page.context().close()
  })
})
