import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MSG, confirmDeleteService } from '@amg/contract'
import { createdData } from './cleanup'
import { api, apiLogin, launchBrowser, newPage, screenshot, signIn } from './helpers'

/** DESIGN.md §10a, §16: 应用管理 (the services), one permission namespace per service, and the 权限分析 tester's 服务. */
let browser: Browser
let token: string
const created = createdData()

interface ServiceRow {
  id: number
  key: string
  name: string
  rootCode: string | null
  builtIn: boolean
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).last()
const fieldErrors = async (page: Page) =>
  (await page.locator('.ant-form-item-explain-error').allTextContents()).map((t) => t.trim())
const table = (page: Page) => page.getByTestId('service-table')
const rowOf = (page: Page, key: string) =>
  table(page)
    .locator('tbody tr.ant-table-row')
    .filter({ has: page.locator('code', { hasText: new RegExp(`^${key}$`) }) })
const visibleDropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')

async function findService(key: string): Promise<ServiceRow | undefined> {
  const res = await api<{ list: ServiceRow[] }>('POST', '/service/list', {
    token,
    body: { keyword: key, pageNum: 1, pageSize: 100 },
  })
  return res.data.list.find((s) => s.key === key)
}

async function search(page: Page, keyword: string) {
  await page.getByPlaceholder('按服务标识或名称搜索').fill(keyword)
  await page.getByRole('button', { name: /查\s*询$/ }).click()
}

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
})
afterAll(async () => {
  await created.removeAll(token)
  await browser?.close()
})

describe('应用管理 (DESIGN.md §10a)', () => {
  it('create a service (with the key rule), see it listed, edit its name, delete it with a confirmation', async () => {
    const key = `e2e-svc-${Date.now()}`
    const page = await newPage(browser)
    await signIn(page)
    // the menu entry under 权限管理
    await page.getByRole('menuitem', { name: /权限管理/ }).hover()
    await page.getByRole('menuitem', { name: '应用管理' }).click()
    await page.waitForURL('**/servicemanage')
    // ams is listed, built in, and cannot be deleted
    const ams = rowOf(page, 'ams')
    await ams.waitFor()
    expect(await ams.textContent()).toContain('内置')
    expect(await ams.getByRole('button', { name: /删\s*除/ }).isDisabled()).toBe(true)

    await page.getByRole('button', { name: /新\s*建/ }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('服务标识').fill('Bad Key')
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    await expect.poll(() => fieldErrors(page)).toEqual([MSG.serviceKeyInvalid, MSG.serviceNameRequired])
    await screenshot(page, 'service-new-invalid')
    await dialog.getByLabel('服务标识').fill(key)
    await dialog.getByLabel('服务名称').fill('端到端服务')
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    await toast(page, MSG.created).waitFor()
    const made = await findService(key)
    expect(made).toMatchObject({ key, name: '端到端服务', builtIn: false })
    // the root's code is read from the key (DESIGN.md §10a)
    expect(made!.rootCode).toBe(key.toUpperCase())

    await search(page, key)
    const row = rowOf(page, key)
    await row.waitFor()
    expect(await row.textContent()).toContain('端到端服务')
    await expect.poll(() => table(page).locator('tbody tr.ant-table-row').count()).toBe(1)
    await screenshot(page, 'service-list')

    await row.getByRole('button', { name: /修\s*改/ }).click()
    expect(await dialog.getByLabel('服务标识').isDisabled()).toBe(true)
    await dialog.getByLabel('服务名称').fill('端到端服务-改')
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    await toast(page, MSG.updated).waitFor()
    await expect.poll(async () => (await findService(key))?.name).toBe('端到端服务-改')
    await expect.poll(() => row.textContent()).toContain('端到端服务-改')

    // delete: the confirmation names the service; cancelling keeps it
    await row.getByRole('button', { name: /删\s*除/ }).click()
    const confirm = page.locator('.ant-popover', { hasText: confirmDeleteService('端到端服务-改') })
    await confirm.waitFor()
    await screenshot(page, 'service-delete-confirm')
    await confirm.getByRole('button', { name: /取\s*消/ }).click()
    await toast(page, MSG.cancelDelete).waitFor()
    expect(await findService(key)).toBeDefined()
    await row.getByRole('button', { name: /删\s*除/ }).click()
    await page
      .locator('.ant-popover', { hasText: confirmDeleteService('端到端服务-改') })
      .getByRole('button', { name: /确\s*定/ })
      .click()
    await toast(page, MSG.deleted).waitFor()
    await expect.poll(() => findService(key)).toBeUndefined()
    await row.waitFor({ state: 'detached' })
    await page.context().close()
  })

  it('a service with nodes below its root is not deleted; 权限分析 tests a call in a chosen service', async () => {
    const key = `e2e-shop-${Date.now()}`
    const made = await api<number>('POST', '/service/insert', { token, body: { key, name: '端到端商城' } })
    expect(made.status).toBe(200)
    const root = (await findService(key))!.rootCode!
    const node = await api<string>('POST', '/auth/insert', {
      token,
      body: {
        parentCode: root,
        chName: '端到端商品',
        enName: 'e2eGoods',
        type: 3,
        status: 1,
        seq: 1,
        frontEndAccessList: '',
        urlPatternInfos: [{ method: 'GET', uri: '/goods/**' }],
      },
    })
    created.remember(`/service/delete?id=${made.data}`)
    created.remember(`/auth/delete?authCode=${encodeURIComponent(node.data)}`)
    const nick = `e2e_svc_${Date.now()}`
    const userId = (await api<number>('POST', '/user/insert', { token, body: { nickName: nick } })).data
    created.remember(`/user/delete?userId=${userId}`)
    const roleId = (
      await api<number>('POST', '/role/insert', {
        token,
        body: { roleName: `e2e商城角色${Date.now()}`, authCodes: [root, node.data], description: '' },
      })
    ).data
    created.remember(`/role/delete?id=${roleId}`)
    await api('PUT', '/rel/user-rel-role', { token, body: { id: userId, roleIds: String(roleId) } })

    const page = await newPage(browser)
    await signIn(page)
    await page.goto('/servicemanage')
    await search(page, key)
    const row = rowOf(page, key)
    await row.getByRole('button', { name: /删\s*除/ }).click()
    await page
      .locator('.ant-popover:visible')
      .getByRole('button', { name: /确\s*定/ })
      .click()
    await toast(page, MSG.serviceHasNodes).waitFor()
    expect(await findService(key)).toBeDefined()

    await page.goto(`/authzanalysis?userId=${userId}`)
    const tester = page.locator('form[id="call-test"]')
    await tester.getByLabel('路径').fill('/goods/42')
    await tester.getByRole('button', { name: /测\s*试/ }).click()
    await expect.poll(() => page.getByTestId('verdict').textContent()).toContain('拒绝')
    await tester.getByLabel('服务').click()
    await visibleDropdown(page).getByText(`端到端商城（${key}）`, { exact: true }).click()
    await tester.getByRole('button', { name: /测\s*试/ }).click()
    await expect.poll(() => page.getByTestId('verdict').textContent()).toContain('允许')
    expect(await page.getByTestId('verdict').textContent()).toContain(`[${key}] GET /goods/42`)
    await screenshot(page, 'service-authz-tester')
    await page.context().close()
  })
})
