import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startBuiltServer } from './global-setup'
import { launchBrowser, newPage, screenshot } from './helpers'
import { ldifOf, personDn, startSlapd, SUFFIX, type Slapd } from '../apps/server/test/helpers/slapd'

// DESIGN.md §22 in Chromium: the 目录同步 page against a real OpenLDAP on a server of its own — the
// settings saved, 测试连接, 仅预览 then 立即同步 with the diff, the run in 最近同步, and the users in the
// user list marked LDAP beside the name.

const ADMIN_PASSWORD = 'Admin@123456'
const READER_DN = `cn=reader,${SUFFIX}`
let browser: Browser
let page: Page
let ldap: Slapd
let server: Awaited<ReturnType<typeof startBuiltServer>>

beforeAll(async () => {
  const people = [
    { uid: 'e2e.zhang', cn: '张三', ous: ['总部', '研发部'], password: 'Dir-Pass-1' },
    { uid: 'e2e.li', cn: '李四', ous: ['总部', '销售部'], password: 'Dir-Pass-2' },
    { uid: null, cn: '无名氏', ous: ['总部'] },
  ]
  const reader = `dn: ${READER_DN}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: reader\nuserPassword: reader-secret\n`
  ldap = await startSlapd(ldifOf(people, [{ cn: '研发组', members: [personDn(people[0])] }]) + '\n' + reader)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-e2e-ldap-'))
  server = await startBuiltServer(inject('webDist'), dataDir, ADMIN_PASSWORD)
  browser = await launchBrowser()
  page = await newPage(browser, undefined, server.baseURL)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await ldap?.stop()
})

describe('目录同步', () => {
  it('saves the settings, tests the connection, previews and syncs, and shows the runs', async () => {
    await page.goto('/')
    await page.getByPlaceholder('用户昵称').fill('admin')
    await page.getByPlaceholder('密码').fill(ADMIN_PASSWORD)
    await page.getByRole('button', { name: /登\s*录/ }).click()
    await page.waitForURL('**/body')
    await page.goto('/directorysync')
    const field = (label: string) => page.getByLabel(label, { exact: true })
    await field('LDAP 地址').fill(ldap.url)
    await field('绑定 DN').fill(READER_DN)
    await field('绑定密码').fill('wrong-password')
    await field('基准 DN').fill(SUFFIX)
    await page.getByRole('button', { name: '测试连接' }).click()
    await expect.poll(() => page.getByText('绑定 DN 或密码不正确').count()).toBeGreaterThan(0)

    await field('绑定密码').fill('reader-secret')
    await page.getByRole('button', { name: '测试连接' }).click()
    await page.getByText('连接成功：找到用户 3 个，用户组 1 个').waitFor()
    await page.getByRole('switch').first().click()
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await page.getByText('LDAP 设置已保存').waitFor()

    // 立即同步 only after a preview
    expect(await page.getByRole('button', { name: '立即同步' }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: '仅预览' }).click()
    await page.getByTestId('sync-job').getByText('预览完成（未写入）', { exact: true }).waitFor()
    await page.getByTestId('sync-job').getByText('新建 6').waitFor()
    await page.getByTestId('sync-job').getByText('条目缺少登录名属性 uid').first().waitFor()
    await screenshot(page, 'directory-sync-preview')

    await page.getByRole('button', { name: '立即同步' }).click()
    await page.getByTestId('sync-job').getByText('同步完成', { exact: true }).waitFor()
    await page.getByText('新建 6，修改 0，调动 0，冻结 0，失败 1').first().waitFor()
    await screenshot(page, 'directory-sync-done')

    await page.goto('/usermanage')
    const row = page.locator('tr', { hasText: 'e2e.zhang' })
    await row.waitFor()
    // the directory's users are tagged beside their name; 来源 in 列设置 names every user's source
    await expect.poll(() => row.getByTestId('user-source-tag').textContent()).toBe('LDAP')
    expect(
      await page.locator('tr', { hasText: 'admin' }).first().getByTestId('user-source-tag').count(),
    ).toBe(0)
    await page.getByRole('button', { name: /列设置/ }).click()
    await page.locator('.ant-popover:not(.ant-popover-hidden)').getByText('来源', { exact: true }).click()
    await page.keyboard.press('Escape')
    await expect.poll(() => row.getByText('LDAP', { exact: true }).count()).toBe(2)
    await expect
      .poll(() => page.locator('tr', { hasText: 'admin' }).first().getByText('本地', { exact: true }).count())
      .toBe(1)
    await screenshot(page, 'directory-sync-user-list')
  })
})
