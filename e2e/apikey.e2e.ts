import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, apiLogin, baseURL, launchBrowser, newPage, screenshot, signIn } from './helpers'

/**
 * DESIGN.md §16 in Chromium: API 密钥 under 权限管理 — make a key (shown once, with copy), see it
 * listed by its prefix, call the API with it, revoke it after a confirmation and be refused.
 */
let browser: Browser
let token: string

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
})
afterAll(async () => browser?.close())

const callWith = (key: string) =>
  fetch(`${baseURL()}/api/user/current`, { headers: { authorization: `Bearer ${key}` } })

describe('API 密钥 (DESIGN.md §16)', () => {
  it('create a key shown once, list it by prefix, use it, revoke it with a confirmation', async () => {
    const name = `e2e-key-${Date.now()}`
    const page = await newPage(browser)
    // the screen and its dialogs leave no error or warning in the browser console (antd 6 props)
    const noise: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') noise.push(m.text())
    })
    await signIn(page)
    await page.getByRole('menuitem', { name: /权限管理/ }).hover()
    await page.getByRole('menuitem', { name: 'API 密钥' }).click()
    await page.waitForURL('**/apikeymanage')
    await page.getByRole('button', { name: /新\s*建/ }).click()
    const dialog = page.getByRole('dialog')
    // nothing typed: the name is asked for
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    await expect
      .poll(() => dialog.locator('.ant-form-item-explain-error').allTextContents())
      .toEqual(['请输入密钥名称'])
    await dialog.getByLabel('名称').fill(name)
    await screenshot(page, 'apikey-new')
    await dialog.getByRole('button', { name: /确\s*定/ }).click()

    const secret = page.getByTestId('apikey-secret')
    await secret.waitFor()
    const key = (await secret.textContent())!.trim()
    expect(key).toMatch(/^ak_[A-Za-z0-9_-]{43}$/)
    await screenshot(page, 'apikey-created')
    expect(
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /复制|Copy/ })
        .count(),
    ).toBe(1)
    await page.getByRole('button', { name: '我已保存' }).click()

    const row = page.getByTestId('apikey-table').locator('tbody tr.ant-table-row', { hasText: name })
    await row.waitFor()
    expect(await row.textContent()).toContain(key.slice(0, 7))
    expect(await row.textContent()).not.toContain(key)
    expect(await row.textContent()).toContain('永不过期')
    expect(await row.textContent()).toContain('从未使用')
    // the key signs in as its user; the list then shows it used
    expect((await callWith(key)).status).toBe(200)
    await page.reload()
    await expect.poll(() => row.textContent()).not.toContain('从未使用')
    await screenshot(page, 'apikey-list')

    await row.getByRole('button', { name: /吊\s*销/ }).click()
    await page.getByRole('button', { name: /确\s*定/ }).click()
    await row.waitFor({ state: 'detached' })
    await expect.poll(async () => (await callWith(key)).status).toBe(401)
    const left = await api<{ list: { name: string }[] }>('POST', '/apikey/list', {
      token,
      body: { pageNum: 1, pageSize: 100 },
    })
    expect(left.data.list.map((k) => k.name)).not.toContain(name)
    expect(noise).toEqual([])
    await page.context().close()
  })
})
