import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  api,
  apiLogin,
  attemptStamp,
  launchBrowser,
  newPage,
  openInConsole,
  screenshot,
  signIn,
} from './helpers'
import { createdData } from './cleanup'

/**
 * DESIGN.md §20 in Chromium: a user refused 职位管理 asks for a requestable role from the 403 page
 * (申请权限 → 我的权限), another administrator approves it in 审批中心 (its count in the header), and
 * the role appears on 我的权限 with its 到期时间; the page then opens.
 */
let browser: Browser
let token: string
const created = createdData()
const s = attemptStamp()
const PASSWORD = 'Access@Req2026'
const names = { role: `申请职位${s}`, user: `ar_u_${s}`, approver: `ar_a_${s}` }

const ok = async <T>(p: Promise<{ status: number; msg: string; data: T }>) => {
  const res = await p
  if (res.status !== 200) throw new Error(`${res.status} ${res.msg}`)
  return res.data
}

beforeAll(async () => {
  token = await apiLogin()
  const roleId = await ok(
    api<number>('POST', '/role/insert', {
      token,
      body: {
        roleName: names.role,
        authCodes: ['organization', 'station'],
        requestable: true,
        requestApprovals: 1,
      },
    }),
  )
  created.remember(`/role/delete?id=${roleId}`)
  const userId = await ok(
    api<number>('POST', '/user/insert', {
      token,
      body: { nickName: names.user, status: 1, password: PASSWORD },
    }),
  )
  created.remember(`/user/delete?userId=${userId}`)
  const approverId = await ok(
    api<number>('POST', '/user/insert', {
      token,
      body: { nickName: names.approver, status: 1, password: PASSWORD },
    }),
  )
  created.remember(`/user/delete?userId=${approverId}`)
  // the other administrator: a super admin
  const supers = await ok(
    api<{ list: { id: number }[] }>('POST', '/role/listall', {
      token,
      body: { pageNum: 1, pageSize: 10, types: [1] },
    }),
  )
  await ok(
    api('PUT', '/rel/user-rel-role', { token, body: { id: approverId, roleIds: String(supers.list[0].id) } }),
  )
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

describe('access requests (DESIGN.md §20)', () => {
  it('request from the 403 page, approve in 审批中心 as another admin, the role appears with 到期时间', async () => {
    const user = await newPage(browser)
    await signIn(user, { nickName: names.user, password: PASSWORD })
    await user.goto('/stationmanage')
    await user.getByText('无权访问').waitFor()
    await user.getByRole('button', { name: '申请权限' }).click()
    await user.waitForURL('**/myaccess?path=*')
    const roleRow = user.getByTestId('requestable-roles').locator('tr.ant-table-row', { hasText: names.role })
    await roleRow.waitFor()
    await screenshot(user, 'access-request-roles')
    await roleRow.getByRole('button', { name: '申请' }).click()
    const dialog = user.getByRole('dialog')
    // no reason: asked for
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    await expect
      .poll(() => dialog.locator('.ant-form-item-explain-error').allTextContents())
      .toEqual(['请填写申请理由'])
    await dialog.getByTestId('ask-minutes').fill('60')
    await dialog.getByTestId('ask-reason').fill('整理职位表')
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    const mine = user.getByTestId('my-requests').locator('tr.ant-table-row', { hasText: names.role })
    await expect.poll(() => mine.textContent()).toContain('待审批')
    await screenshot(user, 'access-request-mine')

    const admin = await newPage(browser)
    await signIn(admin, { nickName: names.approver, password: PASSWORD })
    await expect.poll(() => admin.getByTestId('approval-count').textContent()).toMatch(/[1-9]/)
    await admin.getByRole('button', { name: '审批中心' }).click()
    await admin.waitForURL('**/approvalcenter')
    const request = admin.getByTestId('approval-table').locator('tr.ant-table-row', { hasText: names.user })
    await request.waitFor()
    await screenshot(admin, 'access-request-approval-center')
    await request.getByRole('button', { name: /批\s*准/ }).click()
    await admin.getByTestId('decide-comment').fill('同意')
    await admin
      .getByRole('dialog')
      .getByRole('button', { name: /确\s*定/ })
      .click()
    await request.waitFor({ state: 'detached' })

    await user.reload()
    const held = user.getByTestId('my-roles').locator('tr.ant-table-row', { hasText: names.role })
    await held.waitFor()
    // a time, not 长期: the link ends with the request's hour
    expect(await held.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)
    await expect.poll(() => mine.textContent()).toContain('已批准')
    await screenshot(user, 'access-request-granted')
    await user.goto('/stationmanage')
    await user.getByText('无权访问').waitFor({ state: 'detached' })
    expect(await user.getByText('无权访问').count()).toBe(0)
    await user.context().close()
    await admin.context().close()
  })

  it('临时授权管理: grants a role to activate, the user sees it under 可激活, and it is taken away after a confirmation', async () => {
    const admin = await newPage(browser)
    // signed in by name and password at an IP address, where passkeys cannot work: the passkey
    // suggestions the sign-in page offered must not be told as an error (the page notes any error toast)
    await admin.addInitScript(() => {
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.ant-message-error'))
          sessionStorage.setItem('e2e-error-toast', el.textContent ?? '')
      }).observe(document, { childList: true, subtree: true })
    })
    await signIn(admin, { nickName: names.approver, password: PASSWORD })
    await openInConsole(admin, '/eligibilitymanage')
    await admin.getByRole('button', { name: /新\s*建/ }).click()
    const dialog = admin.getByRole('dialog')
    // nothing chosen: both pickers say what is missing, nothing is sent
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    await expect
      .poll(() => dialog.locator('.ant-form-item-explain-error').allTextContents())
      .toEqual(['请选择用户', '请选择角色'])
    await dialog.getByLabel('用户').fill(names.user)
    await admin.locator('.ant-select-item-option', { hasText: names.user }).click()
    await dialog.getByLabel('角色').fill(names.role)
    await admin.locator('.ant-select-item-option', { hasText: names.role }).click()
    await dialog.getByRole('radio', { name: '1 人' }).check()
    await screenshot(admin, 'eligibility-new')
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    const row = admin.getByTestId('eligibility-table').locator('tr.ant-table-row', { hasText: names.user })
    await row.waitFor()
    expect(await row.textContent()).toContain(names.role)
    expect(await row.textContent()).toContain('1 人')
    await screenshot(admin, 'eligibility-manage')
    expect(await admin.evaluate(() => sessionStorage.getItem('e2e-error-toast'))).toBeNull()

    const user = await newPage(browser)
    await signIn(user, { nickName: names.user, password: PASSWORD })
    await user.goto('/myaccess')
    await user.getByTestId('my-eligible').locator('tr.ant-table-row', { hasText: names.role }).waitFor()

    await row.getByRole('button', { name: '删除' }).click()
    await admin.getByRole('button', { name: /确\s*定/ }).click()
    await row.waitFor({ state: 'detached' })
    await user.reload()
    await user.getByTestId('my-roles').waitFor()
    expect(
      await user.getByTestId('my-eligible').locator('tr.ant-table-row', { hasText: names.role }).count(),
    ).toBe(0)
    await user.context().close()
    await admin.context().close()
  })
})
