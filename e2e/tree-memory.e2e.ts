import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import { api, apiLogin, launchBrowser, newPage, screenshot, signIn } from './helpers'

/**
 * The department and permission trees remember, in this browser, which nodes are open: a reload
 * reopens them. A search opens the path to each hit; clearing it brings back what was open.
 */

let browser: Browser
let page: Page
let token: string

const s = Date.now().toString(36)
// 总公司 ─ A ─ B ─ C (the newest child of the root: the last row while the root's children are folded)
const A = `tm${s}甲部`
const B = `tm${s}乙部`
const C = `tm${s}丙部`
const created = createdData()

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}

const orgNode = (name: string) =>
  page.locator('[data-testid="org-tree"] .ant-tree-treenode', {
    has: page.locator('.ant-tree-title', { hasText: name }),
  })
/** The department tree renders only the rows in view: A and its subtree are at the bottom. */
const scrollOrgTreeToEnd = () =>
  page
    .locator('[data-testid="org-tree"] .ant-tree-list-holder')
    .evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
const toggle = (node: ReturnType<typeof orgNode>) => node.locator('.ant-tree-switcher').click()

const authNode = (name: string) =>
  page.locator('[data-testid="auth-tree"] .ant-tree-treenode', {
    has: page.locator('.auth-tree-node', { hasText: new RegExp(`^${name}$`) }),
  })

beforeAll(async () => {
  token = await apiLogin()
  const [root] = await ok(api<{ id: number }[]>('GET', '/org/tree', { token }))
  const a = await ok(
    api<number>('POST', '/org/insert', { token, body: { organizationName: A, parent: root.id } }),
  )
  const b = await ok(api<number>('POST', '/org/insert', { token, body: { organizationName: B, parent: a } }))
  const c = await ok(api<number>('POST', '/org/insert', { token, body: { organizationName: C, parent: b } }))
  for (const id of [a, b, c]) created.remember(`/org/delete?orgId=${id}`)
  browser = await launchBrowser()
  page = await newPage(browser)
  await signIn(page)
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

describe('trees remember their open nodes', () => {
  it('departments: opened levels reopen after a reload; a search opens the path to its hit', async () => {
    await page.goto('/orgmanage')
    await page.waitForURL('**/orgmanage/orgaddform')
    // at first only the root is open
    await scrollOrgTreeToEnd()
    await orgNode(A).waitFor()
    expect(await orgNode(B).count()).toBe(0)
    await toggle(orgNode(A))
    await scrollOrgTreeToEnd()
    await toggle(orgNode(B))
    await scrollOrgTreeToEnd()
    await orgNode(C).waitFor()

    await page.reload()
    await scrollOrgTreeToEnd()
    await orgNode(C).waitFor()
    await screenshot(page, 'tree-memory-org')

    // fold A: a reload keeps it folded
    await toggle(orgNode(A))
    await expect.poll(() => orgNode(B).count()).toBe(0)
    await page.reload()
    await scrollOrgTreeToEnd()
    await orgNode(A).waitFor()
    expect(await orgNode(B).count()).toBe(0)

    // a search opens the path to the hit (A and B), the hit itself shows
    const search = page.getByPlaceholder('输入部门名称进行过滤')
    await search.fill(C)
    await orgNode(C).waitFor()
    await orgNode(B).waitFor()
    await screenshot(page, 'tree-memory-org-search')
    // clearing the search brings back what was open: A folded
    await search.fill('')
    await scrollOrgTreeToEnd()
    await orgNode(A).waitFor()
    await expect.poll(() => orgNode(B).count()).toBe(0)
    // …and the search did not change what is remembered
    await page.reload()
    await scrollOrgTreeToEnd()
    await orgNode(A).waitFor()
    expect(await orgNode(B).count()).toBe(0)
  })

  it('permissions: a folded node stays folded after a reload; a search opens the path to its hit', async () => {
    await page.goto('/authmanage')
    await page.waitForURL('**/authmanage/addform')
    // every node starts open
    await authNode('新建用户').waitFor()
    await authNode('用户管理').locator('.ant-tree-switcher').click()
    await expect.poll(() => authNode('新建用户').count()).toBe(0)
    await authNode('角色管理').waitFor()

    await page.reload()
    await authNode('角色管理').waitFor()
    expect(await authNode('新建用户').count()).toBe(0)
    await screenshot(page, 'tree-memory-auth')

    const search = page.getByTestId('auth-tree').getByPlaceholder('输入关键字进行过滤')
    await search.fill('新建用户')
    await authNode('新建用户').waitFor()
    await search.fill('')
    await authNode('角色管理').waitFor()
    await expect.poll(() => authNode('新建用户').count()).toBe(0)

    // unfold it again: open after a reload
    await authNode('用户管理').locator('.ant-tree-switcher').click()
    await authNode('新建用户').waitFor()
    await page.reload()
    await authNode('新建用户').waitFor()
  })
})
