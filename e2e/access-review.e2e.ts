import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, apiLogin, attemptStamp, launchBrowser, newPage, screenshot, signIn } from './helpers'
import { createdData } from './cleanup'

/**
 * DESIGN.md §21 in Chromium: 权限复核 — the new-campaign form's checks and its pickers, a campaign's items with the
 * recommendation and its reason, a bulk 撤销, 关闭并执行 after a confirmation, and the server then
 * holding the link no more; the campaign listed with its progress and in the reviewer's inbox.
 */
let browser: Browser
let token: string
const created = createdData()

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
})
afterAll(async () => {
  await created.removeAll(token)
  await browser?.close()
})

const ok = async <T>(call: Promise<{ status: number; msg: string; data: T }>) => {
  const res = await call
  if (res.status !== 200) throw new Error(`${res.status} ${res.msg}`)
  return res.data
}

describe('权限复核 (DESIGN.md §21)', () => {
  it('review a campaign: recommendation with its reason, bulk 撤销, close with a confirmation', async () => {
    const stamp = attemptStamp()
    const userId = await ok(
      api<number>('POST', '/user/insert', { token, body: { nickName: `rv_${stamp}`, status: 1 } }),
    )
    created.remember(`/user/delete?userId=${userId}`)
    const unused = await ok(
      api<number>('POST', '/role/insert', {
        token,
        body: { roleName: `复核角色_${stamp}`, authCodes: ['station'] },
      }),
    )
    created.remember(`/role/delete?id=${unused}`)
    await ok(api('PUT', '/rel/user-rel-role', { token, body: { id: userId, roleIds: String(unused) } }))
    const me = await ok(api<{ id: number }>('GET', '/user/current', { token }))
    const campaign = await ok(
      api<{ id: number }>('POST', '/review/insert', {
        token,
        body: {
          name: `季度复核_${stamp}`,
          roleIds: [unused],
          reviewerIds: [me.id],
          dueAt: new Date(Date.now() + 7 * 86400_000).toISOString(),
          defaultDecision: 'keep',
          autoApply: false,
        },
      }),
    )

    const page = await newPage(browser)
    await signIn(page)
    await page.getByRole('menuitem', { name: '权限复核' }).click()
    await page.waitForURL('**/accessreview')

    // the form refuses a campaign without a scope or a name
    await page.getByRole('button', { name: /新\s*建/ }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    await expect
      .poll(() => dialog.locator('.ant-form-item-explain-error').allTextContents())
      .toEqual(expect.arrayContaining(['请输入复核名称', '请至少选择一个角色或部门', '请至少选择一位复核人']))
    // the pickers ask the server as one types: the role by its name, the reviewer by theirs
    await dialog.getByLabel('复核角色').fill(`复核角色_${stamp}`)
    await page.locator('.ant-select-item-option', { hasText: `复核角色_${stamp}` }).click()
    await dialog.getByLabel('复核人').fill('admin')
    await page.locator('.ant-select-item-option', { hasText: /^admin$/ }).click()
    await dialog.getByLabel('复核名称').click()
    await expect
      .poll(() => dialog.locator('.ant-form-item-explain-error').allTextContents())
      .toEqual(['请输入复核名称', '请选择截止日期'])
    expect(await dialog.locator('.ant-select-selection-item').allTextContents()).toEqual([
      `复核角色_${stamp}`,
      'admin',
    ])
    await screenshot(page, 'access-review-new')
    await dialog.getByRole('button', { name: /取\s*消/ }).click()

    const row = page
      .getByTestId('review-table')
      .locator('tbody tr.ant-table-row', { hasText: `季度复核_${stamp}` })
    await row.waitFor()
    expect(await page.getByTestId(`review-progress-${campaign.id}`).textContent()).toContain('0/1')
    // the reviewer's inbox lists it too
    await page.getByText('我的复核').click()
    await row.waitFor()
    await screenshot(page, 'access-review-list')
    await row.getByRole('link', { name: `季度复核_${stamp}` }).click()
    await page.waitForURL(`**/accessreview/items?id=${campaign.id}`)

    const item = page
      .getByTestId('review-items')
      .locator('tbody tr.ant-table-row', { hasText: `rv_${stamp}` })
    await item.waitFor()
    expect(await item.textContent()).toContain('建议撤销')
    expect(await item.textContent()).toContain('从未使用')
    await item.locator('input[type=checkbox]').check()
    await page.getByRole('button', { name: /^撤\s*销$/ }).click()
    await expect.poll(async () => item.textContent()).toContain('撤销')
    await expect.poll(async () => page.getByTestId('review-summary').textContent()).toContain('已决定 1/1')
    await screenshot(page, 'access-review-items')

    await page.getByRole('button', { name: '关闭并执行' }).click()
    const confirm = page.getByRole('dialog')
    await confirm.getByText('关闭后不能再修改决定').waitFor()
    await confirm.getByRole('button', { name: '关闭并执行' }).click()
    await page.getByText('已关闭并执行').first().waitFor()
    await expect.poll(async () => page.getByTestId('review-summary').textContent()).toContain('已关闭')
    expect(await item.textContent()).toContain('已执行')
    await screenshot(page, 'access-review-closed')

    const roles = await ok(
      api<{ list: { id: number }[] }>('POST', `/rel/user/rolelist?userId=${userId}&pageNum=1&pageSize=50`, {
        token,
      }),
    )
    expect(roles.list.map((r) => r.id)).not.toContain(unused)
    await page.close()
  })
})
