import { MSG } from '@amg/contract'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInDemoAccount, startDemoServer } from './demo-server'
import { ADMIN, attemptStamp, launchBrowser, screenshot } from './helpers'

// DESIGN.md §13 in the console for a department administrator: demo_rd_admin (部门管理员, 本部门及以下,
// in 研发中心) on a system filled by `npm run seed:demo`, started here on its own database as the demo
// accounts' test does: the 管理范围 line, the user list cut to the scope, the department tree with the
// ancestors outside the scope greyed, a new user created into a position in scope, and the 403 of a
// user outside the scope opened by address.

let browser: Browser
let server: Awaited<ReturnType<typeof startDemoServer>>
let adminToken: string

/** A call to this test's own server (the shared `api` helper talks to the suite's server). */
async function call<T = any>(method: string, url: string, body?: unknown, token = adminToken) {
  const res = await fetch(`${server.baseURL}/api${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { 'x-auth-token': token } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const answer = (await res.json()) as { msg: string; data: T }
  expect(res.status, answer.msg).toBe(200)
  return answer.data
}

/** The id of the department named exactly so (the admin's search). */
async function orgId(name: string): Promise<number> {
  const hits = await call<{ id: number; organizationName: string }[]>(
    'GET',
    `/org/tree?keyword=${encodeURIComponent(name)}`,
  )
  const hit = hits.find((h) => h.organizationName === name)
  expect(hit, name).toBeDefined()
  return hit!.id
}

/** How many users the admin's list shows under a department (and below it). */
const usersUnder = async (id: number, nickName?: string) =>
  call<{ total: number; list: { id: number }[] }>('POST', '/user/list', { orgId: id, pageSize: 1, nickName })

beforeAll(async () => {
  server = await startDemoServer()
  browser = await launchBrowser()
  adminToken = (await call<{ token: string }>('POST', '/login', ADMIN, '')).token
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const treeNode = (page: Page, name: string) =>
  page.getByTestId('org-tree').locator('.ant-tree-treenode', { has: page.getByText(name, { exact: true }) })

describe('a department administrator (DESIGN.md §13)', { timeout: 120_000 }, () => {
  it('demo_rd_admin sees 研发中心 and below only, creates a user into it, and is refused one of 销售部', async () => {
    const rd = await orgId('研发中心')
    const sales = await orgId('销售部')
    const page = await signInDemoAccount(browser, server.baseURL, 'demo_rd_admin')
    await expect
      .poll(() => page.getByTestId('manage-scope').textContent())
      .toBe('管理范围：研发中心（含下级）')

    // the user list holds exactly the users the admin's list shows under 研发中心
    const inScope = (await usersUnder(rd)).total
    expect(inScope).toBeGreaterThan(0)
    await page.goto('/usermanage')
    await page.locator('.ant-pagination-total-text').getByText(`共 ${inScope} 条`).waitFor()
    await screenshot(page, 'dept-admin-users')

    // the department tree: 总公司 is only the greyed way to 研发中心, which is a department like any
    await page.goto('/orgmanage')
    await treeNode(page, '研发中心').waitFor()
    expect(await treeNode(page, '总公司').getAttribute('class')).toContain('ant-tree-treenode-disabled')
    expect(await treeNode(page, '研发中心').getAttribute('class')).not.toContain('ant-tree-treenode-disabled')
    // no ⋯ actions on 总公司, and they are on 研发中心
    expect(await treeNode(page, '总公司').getByRole('button').count()).toBe(0)
    expect(await treeNode(page, '研发中心').getByRole('button').count()).toBe(1)
    expect(await treeNode(page, '销售部').count()).toBe(0)
    // nothing is offered to add under 总公司; 新增下级 of 研发中心 is
    await page.getByText('请在左侧部门树中选择部门').waitFor()
    await screenshot(page, 'dept-admin-org-tree')

    // a new user: the 岗位 is required, and a 研发中心 position is offered and taken
    // named per attempt: a retry does not meet the user its first try created
    const nickName = `rd-new-${attemptStamp()}`
    await page.goto('/usermanage/adduser')
    await page.getByRole('heading', { name: '新建用户', exact: true }).waitFor()
    await page.getByPlaceholder('请输入用户昵称').fill(nickName)
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await page.locator('.ant-form-item-explain-error', { hasText: MSG.positionRequiredInScope }).waitFor()
    // the cascader: 总公司 greyed, opened to reach 研发中心, which is chosen
    await page.getByLabel('岗位部门').click()
    const menus = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu')
    await menus.nth(0).locator('[data-outside-scope]', { hasText: '总公司' }).waitFor()
    await menus.nth(0).locator('.ant-cascader-menu-item', { hasText: '总公司' }).click()
    await menus.nth(1).locator('.ant-cascader-menu-item', { hasText: '研发中心' }).click()
    await screenshot(page, 'dept-admin-add-user-org')
    // a click beside the form closes the cascader's menu
    await page.getByRole('heading', { name: '新建用户', exact: true }).click()
    await page.locator('.ant-cascader-dropdown:visible').waitFor({ state: 'detached' })
    await page.getByRole('combobox', { name: '岗位', exact: true }).click()
    const option = page.locator(
      '.ant-select-dropdown:visible .ant-select-item-option:not(.ant-select-item-option-disabled)',
    )
    await option.first().waitFor()
    const label = (await option.first().textContent()) ?? ''
    expect(label.startsWith('总公司-研发中心')).toBe(true)
    await option.first().click()
    await page.getByRole('heading', { name: '新建用户', exact: true }).click()
    await screenshot(page, 'dept-admin-add-user')
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await page.getByText(MSG.created).first().waitFor()
    await page.waitForURL((u) => u.pathname === '/usermanage')
    expect((await usersUnder(rd, nickName)).total).toBe(1)

    // a user of 销售部, opened by address, shows the server's refusal in a page of its own: no form
    // under a toast, no tabs, a way back to the list
    const outside = await usersUnder(sales)
    expect(outside.total).toBeGreaterThan(0)
    await page.goto(`/usermanage/userinfo?id=${outside.list[0].id}`)
    const refusal = page.locator('.ant-result-403')
    await refusal.getByText(MSG.userOutOfScope).waitFor()
    await refusal.getByText('无权查看').waitFor()
    expect(await page.locator('.ant-message-notice').count()).toBe(0)
    expect(await page.getByRole('tab').count()).toBe(0)
    expect(await page.getByPlaceholder('请输入用户昵称').count()).toBe(0)
    await screenshot(page, 'dept-admin-outside-user')
    await refusal.getByRole('button', { name: '返回列表' }).click()
    await page.waitForURL((u) => u.pathname === '/usermanage')

    // so does 销售部 itself, opened by address in the department screen
    await page.goto(`/orgmanage/editform/orgbaseinfo?id=${sales}`)
    await page.locator('.ant-result-403').getByText(MSG.orgOutOfScope).waitFor()
    expect(await page.locator('.ant-message-notice').count()).toBe(0)
    await screenshot(page, 'dept-admin-outside-org')

    // a user inside opens as before
    const inside = await usersUnder(rd)
    await page.goto(`/usermanage/userinfo?id=${inside.list[0].id}`)
    await page.getByRole('tab', { name: '基本信息' }).waitFor()
    await page.close()
  })
})
