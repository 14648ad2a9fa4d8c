import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { inject } from 'vitest'

export const ADMIN = { nickName: 'admin', password: 'Admin@123456' }
export const baseURL = () => inject('baseURL')

/** The system's Chromium (never a downloaded browser), headless, with the flags this machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
    ],
  })
}

/**
 * A page of a fresh context. It asks for reduced motion, which the console honours by turning antd's
 * animations off: clicks then land on menus and pop-ups that are already in place.
 */
export async function newPage(
  browser: Browser,
  viewport = { width: 1440, height: 900 },
  base = baseURL(),
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: base,
    viewport,
    locale: 'zh-CN',
    reducedMotion: 'reduce',
  })
  return context.newPage()
}

/** Signs in through the sign-in page at / and waits for the welcome screen. */
export async function signIn(page: Page, user = ADMIN) {
  await page.goto('/')
  await page.getByPlaceholder('用户昵称').fill(user.nickName)
  await page.getByPlaceholder('密码').fill(user.password)
  await page.getByRole('button', { name: /登\s*录/ }).click()
  await page.waitForURL('**/body')
}

/**
 * Opens a screen the way the console's own links do: through its router, without loading the page
 * again (specs that walk every screen would otherwise spend most of their time loading it). It passes
 * by the 404 screen first, whose text no other screen shows, so that waiting for the next screen's text
 * cannot be satisfied by the screen it leaves, which the router keeps on show until the next is ready.
 */
export async function openInConsole(page: Page, path: string) {
  const follow = (to: string) =>
    page.evaluate((target) => {
      history.pushState(null, '', target)
      dispatchEvent(new PopStateEvent('popstate'))
    }, to)
  await follow('/404')
  await page.locator('.ant-layout-content').getByText('页面不存在').first().waitFor()
  await follow(path)
}

/** A name part of its own at each call: a retried test does not meet what its first try created. */
export const attemptStamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`

/**
 * Screenshots are for whoever works on a screen to look at (test-results/screens). A CI run
 * (E2E_SCREENSHOTS=0, set by .ci/run) takes none: nobody looks at them there, and on a slow machine
 * the full-page captures were minutes of the run.
 */
const takesScreenshots = process.env.E2E_SCREENSHOTS !== '0'

/** A screenshot of the page (the whole page unless `fullPage` is false), when screenshots are taken. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  if (!takesScreenshots) return
  const dir = path.resolve('test-results/screens')
  fs.mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage })
}

/** A screenshot once antd's motions (menus, dialogs, toasts) have settled. */
export async function settledScreenshot(page: Page, name: string, { fullPage = true } = {}) {
  await page.waitForTimeout(600)
  await screenshot(page, name, { fullPage })
}

/** Calls the API directly, to prepare data and to check what the server holds after a UI action. */
export async function api<T = any>(
  method: string,
  url: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; code: number; msg: string; data: T }> {
  const res = await fetch(`${baseURL()}/api${url}`, {
    method,
    headers: {
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(opts.token ? { 'x-auth-token': opts.token } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  })
  const body = (await res.json()) as { code: number; msg: string; data: T }
  return { status: res.status, ...body }
}

export async function apiLogin(user = ADMIN): Promise<string> {
  const res = await api<{ token: string }>('POST', '/login', { body: user })
  if (res.status !== 200) throw new Error(`login failed: ${res.msg}`)
  return res.data.token
}

/** The visible top-level labels and the labels inside each expanded submenu of the side menu. */
export async function menuLabels(page: Page): Promise<string[]> {
  const texts = await page.locator('[data-testid="side-menu"] .ant-menu-title-content').allTextContents()
  return texts.map((t) => t.trim())
}
