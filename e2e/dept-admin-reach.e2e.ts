import { MSG } from '@amg/contract'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_USER_PASSWORD, startDemoServer } from './demo-server'
import { ADMIN, attemptStamp, launchBrowser, newPage, screenshot, signIn } from './helpers'

// DESIGN.md §13 and §11 ("everything a scoped caller lists obeys their reach") in the console for
// demo_rd_admin (部门管理员, 本部门及以下, in 研发中心), on a system filled by `npm run seed:demo`, at a
// desktop's and a phone's size: quick 新建 asks for a 岗位 in reach and succeeds; a user the admin may
// read but not change (one of whose positions is in 销售部) offers 查看 only; the home page counts the
// users the list holds; 权限分析 names the scope in words.

let browser: Browser
let server: Awaited<ReturnType<typeof startDemoServer>>
let adminToken: string

/** A call to this test's own server as the admin (or `token`). */
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

async function orgId(name: string): Promise<number> {
  const hits = await call<{ id: number; organizationName: string }[]>(
    'GET',
    `/org/tree?keyword=${encodeURIComponent(name)}`,
  )
  return hits.find((h) => h.organizationName === name)!.id
}

const positionIn = async (org: number) =>
  (await call<{ id: number; orgId: number }[]>('POST', '/position/namelist', { orgId: org })).find(
    (p) => p.orgId === org,
  )!.id

const userNamed = async (nickName: string) =>
  (await call<{ list: { id: number; nickName: string }[] }>('POST', '/user/list', { nickName })).list.find(
    (u) => u.nickName === nickName,
  )

const stamp = attemptStamp()
const straddlerName = `rd-sales-${stamp}`

beforeAll(async () => {
  server = await startDemoServer()
  browser = await launchBrowser()
  adminToken = (await call<{ token: string }>('POST', '/login', ADMIN, '')).token
  // a user in 研发中心 and in 销售部: the department admin reads them (one department in reach) but
  // may not change them (not all of them are)
  const [rdPos, salesPos] = [
    await positionIn(await orgId('研发中心')),
    await positionIn(await orgId('销售部')),
  ]
  await call('POST', '/user/insert', { nickName: straddlerName, status: 1, positionIds: [rdPos, salesPos] })
  // the department admin may also open 权限分析 (with the reach of their department)
  const roleId = await call<number>('POST', '/role/insert', {
    roleName: `部门权限分析-${stamp}`,
    authCodes: ['authz'],
    dataScope: 4,
  })
  const rdAdmin = (await userNamed('demo_rd_admin'))!
  await call('PUT', '/rel/user-rel-role', { id: rdAdmin.id, roleIds: String(roleId) })
}, 420_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function signInRdAdmin(viewport: { width: number; height: number }): Promise<Page> {
  const page = await newPage(browser, viewport, server.baseURL)
  try {
    await signIn(page, { nickName: 'demo_rd_admin', password: DEMO_USER_PASSWORD })
  } catch (error) {
    await screenshot(page, `dept-admin-reach-signin-failed-${viewport.width}`)
    throw error
  }
  return page
}

const listTotal = async (page: Page) => {
  const text = await page.locator('.ant-pagination-total-text').first().textContent()
  return Number(/共\s*(\d+)\s*条/.exec(text ?? '')![1])
}

const statistic = (page: Page, title: string) =>
  page
    .getByTestId('overview-users')
    .locator('.ant-statistic', { has: page.locator('.ant-statistic-title', { hasText: title }) })
    .locator('.ant-statistic-content')

/** The list searched for one nickName, and that user's row. */
async function rowOf(page: Page, nickName: string) {
  await page.goto(`/usermanage?keyword=${encodeURIComponent(nickName)}`)
  const row = page.getByTestId('user-table').locator('tr.ant-table-row', { hasText: nickName })
  await row.waitFor()
  return row
}

describe('a department administrator sees and offers only what lies in reach', { timeout: 180_000 }, () => {
  for (const [size, viewport] of [
    ['1280', { width: 1280, height: 800 }],
    ['390', { width: 390, height: 844 }],
  ] as const) {
    it(`at ${size} px: quick 新建 with a 岗位, 查看 only outside reach, home counts, 权限分析 in words`, async () => {
      const page = await signInRdAdmin(viewport)

      // quick 新建: the dialog asks for a 岗位, offers only positions in reach, and the user is made
      // named per attempt: a retry does not meet the user its first try created
      const nickName = `rd-quick-${size}-${attemptStamp()}`
      await page.goto('/usermanage')
      await page.getByRole('button', { name: /^(plus )?新建$/ }).click()
      const dialog = page.getByRole('dialog', { name: '新建用户' })
      await dialog.getByLabel('新用户昵称').fill(nickName)
      await dialog.getByRole('button', { name: /确\s*定/ }).click()
      await dialog.getByText(MSG.positionRequiredInScope, { exact: true }).waitFor()
      await dialog.getByRole('combobox', { name: '岗位', exact: true }).click()
      const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option')
      await options.first().waitFor()
      const labels = await options.allTextContents()
      expect(labels.length).toBeGreaterThan(0)
      for (const label of labels) expect(label.startsWith('总公司-研发中心'), label).toBe(true)
      await options.first().click()
      await dialog.getByText('新建用户').first().click()
      await screenshot(page, `dept-admin-quick-add-${size}`)
      await dialog.getByRole('button', { name: /确\s*定/ }).click()
      await page.getByText(MSG.created).first().waitFor()
      await dialog.waitFor({ state: 'hidden' })
      expect(await userNamed(nickName)).toBeDefined()

      // the new user is the admin's to change: 修改, 删除, 重置密码
      const mine = await rowOf(page, nickName)
      await mine.getByRole('button', { name: '修改' }).waitFor()
      await mine.getByRole('button', { name: '删除' }).waitFor()
      await mine.getByRole('button', { name: '重置密码' }).waitFor()
      // the straddler is read only: 查看, nothing that writes
      const theirs = await rowOf(page, straddlerName)
      await theirs.getByRole('button', { name: '查看' }).waitFor()
      for (const action of ['修改', '删除', '重置密码'])
        expect(await theirs.getByRole('button', { name: action }).count(), action).toBe(0)
      expect(await theirs.getByRole('switch').count()).toBe(0)
      await screenshot(page, `dept-admin-readonly-row-${size}`)
      // and its page shows the record without a way to save it
      await theirs.getByRole('button', { name: '查看' }).click()
      await page.getByRole('tab', { name: '基本信息' }).waitFor()
      await expect.poll(() => page.getByPlaceholder('请输入用户昵称').isDisabled()).toBe(true)

      // the home page counts the users the list holds
      await page.goto('/usermanage')
      // the pager says 共 0 条 until the first page has come
      await page.locator('.ant-table-row').first().waitFor()
      await expect.poll(() => listTotal(page)).toBeGreaterThan(0)
      const total = await listTotal(page)
      await page.goto('/body')
      await statistic(page, '正常').waitFor()
      await expect
        .poll(async () => {
          const [active, frozen] = [await statistic(page, '正常'), await statistic(page, '冻结')]
          return Number(await active.textContent()) + Number(await frozen.textContent())
        })
        .toBe(total)
      await screenshot(page, `dept-admin-home-${size}`)

      // 权限分析: the scope of the user list for the admin, in words
      const me = (await userNamed('demo_rd_admin'))!
      await page.goto(`/authzanalysis?userId=${me.id}`)
      const fields = page.locator('form#call-test')
      await fields.waitFor()
      await fields.getByLabel('请求方法').click()
      await page.locator('.ant-select-dropdown:visible').getByTitle('POST', { exact: true }).click()
      await fields.getByLabel('路径').fill('/user/list')
      await fields.getByRole('button', { name: /测\s*试/ }).click()
      const scope = page.getByTestId('call-scope')
      await scope.waitFor()
      await expect.poll(() => scope.textContent()).toContain('研发中心（含下级）')
      expect(await scope.textContent()).not.toMatch(/部门 \d+/)
      expect(await scope.textContent()).toContain('部门管理员（本部门及以下）')
      await scope.scrollIntoViewIfNeeded()
      await screenshot(page, `dept-admin-authz-scope-${size}`)
      await page.context().close()
    })
  }
})
