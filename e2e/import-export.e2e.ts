import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, apiLogin, launchBrowser, newPage, screenshot, signIn } from './helpers'

/** 导入 and 导出 in the console (DESIGN.md §15), driven in Chromium. */

let browser: Browser
let token: string
let dir: string

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-import-e2e-'))
})
afterAll(async () => {
  await browser?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const HEADER = '登录名*,姓名,手机号,状态,岗位,角色,用户组,初始密码'

async function openImport(page: Page) {
  // errors the page logs, named in the failure below
  const errors: string[] = []
  page.on('pageerror', (err) => errors.push(String(err)))
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') errors.push(msg.text())
  })
  await page.goto('/usermanage')
  // the list has loaded (its first row shows) before the administrator reaches for 导入
  await page.getByTestId('user-table').locator('tbody tr.ant-table-row').first().waitFor()
  const dialog = page.getByRole('dialog', { name: '导入用户' })
  // On a busy machine the list's filters may still move the tool bar when the click lands; a person
  // whose click missed clicks again, and so does this, twice at most, before it reports what it saw.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.getByRole('button', { name: '导入' }).click({ timeout: 5_000 })
      await dialog.getByText('下载导入模板').waitFor({ timeout: attempt === 3 ? 15_000 : 5_000 })
      break
    } catch (err) {
      if (attempt < 3) continue
      // what the page showed instead, for whoever reads the failure
      await screenshot(page, 'import-dialog-missing')
      throw new Error(
        `导入用户 did not open; ${await page.getByRole('dialog').count()} dialog(s), modal titles: ${(
          await page.locator('.ant-modal-title').allTextContents()
        ).join(' | ')}; page errors: ${errors.join(' | ') || 'none'}; the page shows: ${(
          await page.locator('body').innerText()
        ).slice(0, 300)}`,
        { cause: err },
      )
    }
  }
  return dialog
}

describe('user import in the console', () => {
  it('checks first (仅校验 is checked), then imports; the summary and 下载结果 show', async () => {
    // names of this run, so a retry starts clean
    const n = `e2e_imp_${Date.now() % 100000}_`
    const file = path.join(dir, 'users.csv')
    fs.writeFileSync(file, `${HEADER}\n${n}1,甲,13800000011,正常,,,,\n${n}1,,,,,,,\n${n}2,,,冻结,,,,\n`)
    const page = await newPage(browser)
    await signIn(page)
    const dialog = await openImport(page)
    await expect.poll(() => dialog.getByRole('checkbox', { name: /仅校验/ }).isChecked()).toBe(true)
    await dialog.locator('input[type=file]').setInputFiles(file)
    await dialog.getByRole('button', { name: '开始校验' }).click()
    const summary = dialog.getByTestId('import-summary')
    await summary.waitFor()
    expect((await summary.textContent())?.replace(/\s+/g, '')).toBe('共3行：新建1，修改0，未变更0，失败2')
    await expect
      .poll(() => dialog.getByText('校验完成（未写入）').isVisible(), { timeout: 10_000 })
      .toBe(true)
    await screenshot(page, 'import-dry-run')
    const before = await api<{ total: number }>('POST', '/user/list', {
      token,
      body: { pageNum: 1, pageSize: 10, nickName: n },
    })
    expect(before.data.total).toBe(0)

    // after the check, the next run is the real one
    await expect.poll(() => dialog.getByRole('checkbox', { name: /仅校验/ }).isChecked()).toBe(false)
    await dialog.getByRole('button', { name: '开始导入' }).click()
    await expect.poll(() => dialog.getByText('导入完成').isVisible(), { timeout: 10_000 }).toBe(true)
    const download = page.waitForEvent('download')
    await dialog.getByRole('button', { name: '下载结果' }).click()
    expect((await download).suggestedFilename()).toMatch(/^导入结果-\d+\.xlsx$/)
    await screenshot(page, 'import-done')
    const after = await api<{ total: number }>('POST', '/user/list', {
      token,
      body: { pageNum: 1, pageSize: 10, nickName: n },
    })
    expect(after.data.total).toBe(1)
    await page.context().close()
  })

  it('a row giving 超级管理员 fails unless 允许导入超级管理员 is ticked', async () => {
    const file = path.join(dir, 'super.csv')
    fs.writeFileSync(file, `${HEADER}\ne2e_sa_${Date.now() % 100000},,,正常,,超级管理员,,\n`)
    const page = await newPage(browser)
    await signIn(page)
    const dialog = await openImport(page)
    const allow = dialog.getByRole('checkbox', { name: /允许导入超级管理员/ })
    await expect.poll(() => allow.isChecked()).toBe(false)
    await dialog.locator('input[type=file]').setInputFiles(file)
    await dialog.getByRole('button', { name: '开始校验' }).click()
    const summary = dialog.getByTestId('import-summary')
    await expect
      .poll(async () => (await summary.textContent())?.replace(/\s+/g, ''), { timeout: 30_000 })
      .toBe('共1行：新建0，修改0，未变更0，失败1')
    await screenshot(page, 'import-super-admin-off')
    // ticked, the same file passes the check (仅校验 again: nothing is written)
    await allow.check()
    await dialog.getByRole('checkbox', { name: /仅校验/ }).check()
    await dialog.getByRole('button', { name: '开始校验' }).click()
    await expect
      .poll(async () => (await summary.textContent())?.replace(/\s+/g, ''), { timeout: 30_000 })
      .toBe('共1行：新建1，修改0，未变更0，失败0')
    await screenshot(page, 'import-super-admin-on')
    await page.context().close()
  })

  it('导出 on the user list downloads a workbook', async () => {
    const page = await newPage(browser)
    await signIn(page)
    await page.goto('/usermanage')
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: '导出' }).click()
    expect((await download).suggestedFilename()).toMatch(/^用户-\d+\.xlsx$/)
    await page.context().close()
  })

  it('导入 on the department tree', async () => {
    const page = await newPage(browser)
    await signIn(page)
    await page.goto('/orgmanage')
    await page.getByRole('button', { name: '导入' }).click()
    const dialog = page.getByRole('dialog', { name: '导入部门' })
    await dialog.getByText('下载导入模板').waitFor()
    await screenshot(page, 'import-org-dialog')
    await page.context().close()
  })
})
