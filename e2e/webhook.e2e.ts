import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { WEBHOOK_MSG } from '@amg/contract'
import { startBuiltServer } from './global-setup'
import { ADMIN, api, apiLogin, launchBrowser, newPage, screenshot, signIn } from './helpers'

/** DESIGN.md §17 in the console: Webhook 管理 under 系统监控, the secret shown once, the delivery log. */
let browser: Browser
let token: string

const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).last()
const table = (page: Page) => page.getByTestId('webhook-table')
const rowOf = (page: Page, name: string) =>
  table(page).locator('tbody tr.ant-table-row').filter({ hasText: name })
const dialog = (page: Page) => page.locator('.ant-modal:visible')

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
})
afterAll(async () => {
  // whatever this run left behind
  const left = await api<{ list: { id: number; name: string }[] }>('POST', '/webhook/list', {
    token,
    body: { pageNum: 1, pageSize: 100 },
  })
  for (const w of left.data.list.filter((w) => w.name.startsWith('e2e-hook')))
    await api('DELETE', `/webhook/delete?id=${w.id}`, { token })
  await browser?.close()
})

describe('Webhook 管理 (DESIGN.md §17)', () => {
  it('create an endpoint (a private address refused), see its secret once, open its delivery log, delete it', async () => {
    const name = `e2e-hook-${Date.now()}`
    const page = await newPage(browser)
    await signIn(page)
    await page.getByRole('menuitem', { name: /系统监控/ }).hover()
    await page.getByRole('menuitem', { name: 'Webhook 管理' }).click()
    await page.waitForURL('**/webhookmanage')

    await page.getByRole('button', { name: /新\s*建/ }).click()
    // this server refuses private targets, and the address's help says so
    await dialog(page).getByText('不能指向本机、内网或云元数据地址').waitFor()
    await dialog(page).getByLabel('名称').fill(name)
    await dialog(page).getByLabel('地址').fill('http://169.254.169.254/latest/meta-data/')
    await dialog(page).getByLabel('事件类型').click()
    await page.locator('.ant-select-item-option', { hasText: 'user.created' }).click()
    await page.keyboard.press('Escape')
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click()
    await toast(page, WEBHOOK_MSG.urlPrivate).waitFor()
    await screenshot(page, 'webhook-refused')

    // a public address: saved (the e2e server has no route out, so nothing is sent while it is disabled)
    await dialog(page).getByLabel('地址').fill('https://93.184.216.34/hooks/amg')
    await dialog(page).getByLabel('启用').click()
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click()
    const secret = page.getByTestId('webhook-secret')
    await secret.waitFor()
    expect(await secret.textContent()).toMatch(/^whsec_[A-Za-z0-9+/=]+/)
    await screenshot(page, 'webhook-secret')
    await page.getByRole('button', { name: '我已保存' }).click()
    await secret.waitFor({ state: 'detached' })

    const row = rowOf(page, name)
    await row.waitFor()
    expect(await row.textContent()).toContain('https://93.184.216.34/hooks/amg')
    expect(await row.textContent()).toContain('停用')
    // the secret is in no list answer and nowhere on the screen any more
    expect(await page.locator('body').textContent()).not.toContain('whsec_')
    await screenshot(page, 'webhook-list')

    await row.getByRole('button', { name: '投递记录' }).click()
    await page.getByTestId('delivery-table').waitFor()
    await page.locator('.ant-drawer-title', { hasText: name }).waitFor()
    await screenshot(page, 'webhook-deliveries')
    await page.locator('.ant-drawer-close').click()

    await row.getByRole('button', { name: '删除' }).click()
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定/ })
      .click()
    await expect.poll(() => rowOf(page, name).count()).toBe(0)
  })
})

describe('Webhook 管理 on a server that allows private targets (WEBHOOK_ALLOW_PRIVATE=true)', () => {
  let server: Awaited<ReturnType<typeof startBuiltServer>>
  let dataDir: string
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-e2e-hook-private-'))
    server = await startBuiltServer(inject('webDist'), dataDir, ADMIN.password, {
      env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
    })
  })
  afterAll(async () => {
    await server?.stop()
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('the address help says private targets are allowed, and not that they are refused', async () => {
    const page = await newPage(browser, undefined, server.baseURL)
    try {
      await signIn(page)
      await page.goto('/webhookmanage')
      await table(page).waitFor()
      await page.getByRole('button', { name: /新\s*建/ }).click()
      await dialog(page).getByText('本服务已开启 WEBHOOK_ALLOW_PRIVATE，也可指向本机和内网地址').waitFor()
      expect(await dialog(page).getByText('不能指向本机、内网或云元数据地址').count()).toBe(0)
      await screenshot(page, 'webhook-form-private-allowed')
    } finally {
      await page.context().close()
    }
  })
})
