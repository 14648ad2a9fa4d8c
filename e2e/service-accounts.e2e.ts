import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MSG } from '@amg/contract'
import { createdData } from './cleanup'
import { api, apiLogin, attemptStamp, baseURL, launchBrowser, newPage, screenshot, signIn } from './helpers'

/**
 * DESIGN.md §10a, §16: a service made from its form (服务标识 required, a readable root code), a machine
 * client turned on from 单点登录 with its id and secret shown once, and its service account as the
 * console shows it: tagged 服务账号 in 用户管理, never offered by a picker of people.
 */
let browser: Browser
let token: string
const created = createdData()

const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).last()
const fieldErrors = async (page: Page) =>
  (await page.locator('.ant-form-item-explain-error').allTextContents()).map((t) => t.trim())

async function findService(key: string) {
  const res = await api<{ list: { id: number; key: string; rootCode: string | null }[] }>(
    'POST',
    '/service/list',
    { token, body: { keyword: key, pageNum: 1, pageSize: 100 } },
  )
  return res.data.list.find((s) => s.key === key)
}

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
})
afterAll(async () => {
  await created.removeAll(token)
  await browser?.close()
})

describe('a machine client made from the console', () => {
  const stamp = attemptStamp()
  const key = `e2e-m-${stamp}`
  const account = `svc-${key}`
  const person = `p-${key}`

  it('服务标识 is required; the machine client saves and shows its id and secret', async () => {
    const page = await newPage(browser)
    await signIn(page)
    await page.goto('/servicemanage')

    // the form marks 服务标识 required and says so when it is left empty
    await page.getByRole('button', { name: /新\s*建/ }).click()
    const form = page.getByRole('dialog')
    const keyLabel = form.locator('label[for="key"]')
    expect(await keyLabel.getAttribute('class')).toContain('ant-form-item-required')
    await form.getByRole('button', { name: /确\s*定/ }).click()
    await expect.poll(() => fieldErrors(page)).toEqual([MSG.serviceKeyRequired, MSG.serviceNameRequired])
    await screenshot(page, 'service-accounts-form-required')
    await form.getByLabel('服务标识').fill(key)
    await form.getByLabel('服务名称').fill('端到端机器服务')
    await form.getByRole('button', { name: /确\s*定/ }).click()
    await toast(page, MSG.created).waitFor()
    const service = (await findService(key))!
    // the root's code is read from the key
    expect(service.rootCode).toBe(key.toUpperCase())
    created.remember(`/service/delete?id=${service.id}`)

    // 单点登录 → 机器客户端 → 保存: no consent asked, the secret shown once beside the client id
    await page.getByPlaceholder('按服务标识或名称搜索').fill(key)
    await page.getByRole('button', { name: /查\s*询$/ }).click()
    const row = page.getByTestId('service-table').locator('tbody tr.ant-table-row', { hasText: key })
    await row.getByRole('button', { name: '单点登录' }).click()
    const sso = page.getByRole('dialog', { name: /单点登录/ })
    await sso.locator('.ant-select').first().click()
    await page.locator('.ant-select-item-option', { hasText: '机器客户端' }).click()
    expect(await sso.getByText('需要用户授权确认').count()).toBe(0)
    await screenshot(page, 'service-accounts-machine-form')
    await sso.getByRole('button', { name: /保\s*存/ }).click()
    const secretText = page.getByTestId('oidc-secret')
    await secretText.waitFor()
    const secret = ((await secretText.textContent()) ?? '').trim()
    expect(secret.length).toBeGreaterThan(20)
    expect(await page.getByRole('dialog', { name: '应用密钥' }).textContent()).toContain(key)
    await screenshot(page, 'service-accounts-machine-secret')
    // the secret on screen is the one the client signs in with
    const grant = await fetch(`${baseURL()}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key, client_secret: secret }),
    })
    expect(grant.status).toBe(200)
    await page.context().close()
    const listed = await api<{ list: { id: number; nickName: string }[] }>('POST', '/user/list', {
      token,
      body: { nickName: account, pageNum: 1, pageSize: 10 },
    })
    const accountId = listed.data.list.find((u) => u.nickName === account)!.id
    created.remember(`/user/delete?userId=${accountId}`)
  })

  it('its account is tagged 服务账号 in 用户管理, with no 重置密码', async () => {
    const personId = (await api<number>('POST', '/user/insert', { token, body: { nickName: person } })).data
    created.remember(`/user/delete?userId=${personId}`)
    const users = await newPage(browser)
    await signIn(users)
    await users.goto(`/usermanage?keyword=${encodeURIComponent(key)}`)
    const accountRow = users.locator('tbody tr.ant-table-row', { hasText: account })
    await accountRow.waitFor()
    expect(await accountRow.locator('.ant-tag', { hasText: '服务账号' }).count()).toBe(1)
    expect(await accountRow.getByRole('button', { name: '重置密码' }).count()).toBe(0)
    const personRow = users.locator('tbody tr.ant-table-row', { hasText: person })
    expect(await personRow.locator('.ant-tag', { hasText: '服务账号' }).count()).toBe(0)
    expect(await personRow.getByRole('button', { name: '重置密码' }).count()).toBe(1)
    await screenshot(users, 'service-accounts-user-list')
    await users.context().close()
  })

  it("a group's 关联用户 picker offers the person and not the service account", async () => {
    const users = await newPage(browser)
    await signIn(users)
    // a group's 关联用户 picker offers the person and not the service account
    const groupId = (
      await api<number>('POST', '/user_groups/insert', {
        token,
        body: { groupName: `e2e机器组${stamp}`, status: 1, description: '' },
      })
    ).data
    created.remember(`/user_groups/delete?userGroupsId=${groupId}`)
    await users.goto(
      `/usergroupmanage/usergroupinfo?isDisable=false&id=${groupId}&isShow=true&tab=usergroupuserrel`,
    )
    await users.getByRole('button', { name: '关联用户' }).click()
    const picker = users.locator('[data-testid="link-candidates"]:visible')
    await picker.waitFor()
    await picker.getByPlaceholder(/用户昵称/).fill(key)
    await picker.getByPlaceholder(/用户昵称/).press('Enter')
    await picker.locator('tr.ant-table-row', { hasText: person }).waitFor()
    expect(await picker.locator('tr.ant-table-row').allTextContents()).toEqual([
      expect.stringContaining(person),
    ])
    await screenshot(users, 'service-accounts-picker')
    await users.context().close()
  })
})
