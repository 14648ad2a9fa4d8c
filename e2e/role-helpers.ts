import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'

/** Helpers of the role and built-in role screens' end-to-end specs. */

export { settledScreenshot as shot } from './helpers'

export const tree = (page: Page) => page.getByTestId('permission-tree')

/** The checkbox of a permission-tree node, found by its chName. */
export function treeBox(page: Page, label: string): Locator {
  return tree(page)
    .locator('.ant-tree-treenode')
    .filter({ has: page.locator('.ant-tree-title', { hasText: new RegExp(`^${label}$`) }) })
    .first()
    .locator('.ant-tree-checkbox')
}

export async function isTreeChecked(page: Page, label: string): Promise<boolean> {
  return (await treeBox(page, label).getAttribute('class'))?.includes('ant-tree-checkbox-checked') ?? false
}

/** The table row holding a role name. */
export const row = (page: Page, roleName: string) =>
  page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: roleName })

/** The role names the table shows. */
export async function shownNames(page: Page): Promise<string[]> {
  await page.locator('.ant-table-tbody').waitFor()
  await page
    .locator('.ant-spin-spinning')
    .waitFor({ state: 'detached' })
    .catch(() => {})
  return (await page.locator('.ant-table-tbody tr.ant-table-row td:first-child').allTextContents()).map((t) =>
    t.trim(),
  )
}

/** Chooses the given options in a column's filter dropdown (empty: reset) and confirms. */
export async function setColumnFilter(page: Page, column: string, options: string[]) {
  await page.locator('th', { hasText: column }).locator('.ant-table-filter-trigger').click()
  const dropdown = page.locator('.ant-table-filter-dropdown:visible')
  await dropdown.locator('.ant-dropdown-menu-item').first().waitFor()
  if (!options.length) {
    await dropdown.getByRole('button', { name: /重\s*置/ }).click()
  } else {
    // clear what was chosen before, then choose
    const items = dropdown.locator('.ant-dropdown-menu-item')
    for (let i = 0; i < (await items.count()); i++) {
      const item = items.nth(i)
      const text = (await item.textContent())?.trim() ?? ''
      const selected = ((await item.getAttribute('class')) ?? '').includes('ant-dropdown-menu-item-selected')
      if (selected !== options.includes(text)) await item.click()
    }
  }
  await dropdown.getByRole('button', { name: /确\s*定|OK/ }).click()
  await dropdown.waitFor({ state: 'hidden' })
}

export async function search(page: Page, text: string) {
  const box = page.getByPlaceholder('按角色名称搜索')
  await box.fill(text)
  await box.press('Enter')
}

/** Waits for a toast with exactly this text. */
export async function toast(page: Page, text: string) {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor()
}

/** expect.poll with room for a round trip to the server. */
export const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 })

/** A radio choice of the role form (type or status). */
export const radio = (page: Page, label: string) =>
  page.locator('form .ant-radio-wrapper', { hasText: new RegExp(`^${label}$`) })
