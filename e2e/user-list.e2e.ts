import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, api, apiLogin, launchBrowser, newPage, settledScreenshot as shot, signIn } from './helpers'
import { createdData } from './cleanup'

/** The user list an administrator works with: keyword, department tree, columns, batch, switch, reset. */

const RUN = Date.now().toString(36)
/** 11 digits starting with 1, unique to this run (the last digit tells the users apart). */
const PHONE = `1${String(Date.now()).slice(-9)}`
const NAMES = {
  station: `ul职位${RUN}`,
  parent: `ul中心${RUN}`,
  child: `ul小组${RUN}`,
  a: { nickName: `ul-a-${RUN}`, realName: `张一${RUN}`, mobile: `${PHONE}1` },
  b: { nickName: `ul-b-${RUN}`, realName: `李二${RUN}`, mobile: `${PHONE}2` },
  c: { nickName: `ul-c-${RUN}`, realName: `王三${RUN}`, mobile: `${PHONE}3` },
}

let browser: Browser
let page: Page
/** the department tree's calls the list page makes */
const treeCalls: URL[] = []
let admin: string
const created = createdData()
const ids = { a: 0, b: 0, c: 0, parent: 0, child: 0 }

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
const label = (text: string) => new RegExp(`(^|\\s)${[...text].join('\\s*')}\\s*$`)
const button = (scope: Page | Locator, text: string) => scope.getByRole('button', { name: label(text) })
const tableRows = (p: Page) => p.locator('[data-testid="user-table"] tbody tr.ant-table-row')
const rowOf = (p: Page, nickName: string) => tableRows(p).filter({ hasText: nickName })
const nickNames = async (p: Page) =>
  (await tableRows(p).locator('td:nth-child(2)').allTextContents()).map((t) => t.trim()).sort()

async function ok<T>(res: Promise<{ status: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  expect(r.status, r.msg).toBe(200)
  return r.data
}

async function search(p: Page, text: string) {
  await p.getByPlaceholder('请输入用户昵称、姓名或手机号').fill(text)
  await button(p, '查询').click()
}

const userOf = (id: number) =>
  ok(
    api<{ status: number; realName: string | null; mobile: string | null }>(
      'GET',
      `/user/detail?userId=${id}`,
      { token: admin },
    ),
  )

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await apiLogin()
  const token = admin
  const station = await ok(
    api<number>('POST', '/station/insert', { token, body: { stationName: NAMES.station, type: 1 } }),
  )
  created.remember(`/station/delete?stationId=${station}`)
  const [root] = await ok(api<{ id: number }[]>('GET', '/org/tree', { token }))
  ids.parent = await ok(
    api<number>('POST', '/org/insert', {
      token,
      body: { organizationName: NAMES.parent, parent: root.id, stationIds: [station] },
    }),
  )
  created.remember(`/org/delete?orgId=${ids.parent}`)
  ids.child = await ok(
    api<number>('POST', '/org/insert', {
      token,
      body: { organizationName: NAMES.child, parent: ids.parent, stationIds: [station] },
    }),
  )
  created.remember(`/org/delete?orgId=${ids.child}`)
  const positionIn = async (orgId: number) => {
    const list = await ok(
      api<{ id: number; orgId: number }[]>('POST', '/position/namelist', { token, body: { orgId } }),
    )
    return list.find((p) => p.orgId === orgId)!.id
  }
  for (const key of ['a', 'b', 'c'] as const) {
    ids[key] = await ok(api<number>('POST', '/user/insert', { token, body: { ...NAMES[key], status: 1 } }))
    created.remember(`/user/delete?userId=${ids[key]}`)
  }
  await ok(
    api('PUT', '/rel/user-rel-position', {
      token,
      body: { id: ids.a, positionIds: String(await positionIn(ids.child)) },
    }),
  )
  await ok(
    api('PUT', '/rel/user-rel-position', {
      token,
      body: { id: ids.b, positionIds: String(await positionIn(ids.parent)) },
    }),
  )
  page = await newPage(browser, { width: 1280, height: 800 })
  page.on('request', (req) => {
    const url = new URL(req.url())
    if (url.pathname === '/api/org/tree') treeCalls.push(url)
  })
  await signIn(page)
})
afterAll(async () => {
  await browser?.close()
  await created.removeAll(admin)
})

describe('user list search and columns', () => {
  it('finds a user by real name, with the new columns', async () => {
    await page.goto('/usermanage')
    await tableRows(page).first().waitFor()
    const headers = (await page.locator('.ant-table-thead th').allTextContents()).map((h) => h.trim())
    // the columns that matter first; 手机号, 两步验证 and the times wait in 列设置
    expect(headers.filter(Boolean)).toEqual(['用户昵称', '姓名', '部门/岗位', '角色', '状态', '操作'])
    await search(page, NAMES.a.realName)
    await poll(() => nickNames(page)).toEqual([NAMES.a.nickName])
    const row = rowOf(page, NAMES.a.nickName)
    await expect.poll(() => row.textContent()).toContain(NAMES.a.realName)
    expect(await row.textContent()).toContain(`${NAMES.child}-${NAMES.station}`)
    expect(new URL(page.url()).searchParams.get('keyword')).toBe(NAMES.a.realName)
    await shot(page, 'user-list-search-1280')
  })

  it('finds a user by a part of the phone number', async () => {
    await search(page, NAMES.b.mobile.slice(3))
    await poll(() => nickNames(page)).toEqual([NAMES.b.nickName])
  })

  it('shows a column from the settings and remembers it after a reload', async () => {
    await button(page, '列设置').click()
    const popover = page.locator('.ant-popover:not(.ant-popover-hidden)')
    await popover.getByText('手机号', { exact: true }).click()
    await poll(async () =>
      (await page.locator('.ant-table-thead th').allTextContents()).includes('手机号'),
    ).toBe(true)
    expect(await rowOf(page, NAMES.b.nickName).textContent()).toContain(NAMES.b.mobile)
    await page.reload()
    await tableRows(page).first().waitFor()
    expect((await page.locator('.ant-table-thead th').allTextContents()).includes('手机号')).toBe(true)
    await button(page, '列设置').click()
    await page.locator('.ant-popover:not(.ant-popover-hidden)').getByText('手机号', { exact: true }).click()
    await poll(async () =>
      (await page.locator('.ant-table-thead th').allTextContents()).includes('手机号'),
    ).toBe(false)
    await page.keyboard.press('Escape')
  })

  it('filters by a department, its sub-departments included', async () => {
    await search(page, `ul-`)
    const tree = page.getByTestId('user-org-filter')
    await tree.getByPlaceholder('输入部门名称进行过滤').fill(NAMES.parent)
    await tree.getByText(NAMES.parent, { exact: true }).click()
    await poll(() => nickNames(page)).toEqual([NAMES.a.nickName, NAMES.b.nickName])
    expect(new URL(page.url()).searchParams.get('orgId')).toBe(String(ids.parent))
    await tree.getByPlaceholder('输入部门名称进行过滤').fill(NAMES.child)
    await tree.getByText(NAMES.child, { exact: true }).click()
    await poll(() => nickNames(page)).toEqual([NAMES.a.nickName])
    await shot(page, 'user-list-org-1280')
    await button(tree, '全部部门').click()
    await poll(async () => (await nickNames(page)).length).toBeGreaterThanOrEqual(3)
    // the tree is read level by level and searched on the server, never read whole
    expect(treeCalls.some((u) => u.searchParams.get('keyword') === NAMES.child)).toBe(true)
    expect(treeCalls.some((u) => u.searchParams.get('roots') === '1')).toBe(true)
    expect(treeCalls.filter((u) => u.search === '')).toEqual([])
  })
})

describe('batch and row actions', () => {
  it('freezes two selected users and lists each row result', async () => {
    await search(page, RUN)
    await poll(() => nickNames(page)).toEqual([NAMES.a.nickName, NAMES.b.nickName, NAMES.c.nickName])
    await page.getByRole('checkbox', { name: `选择 ${NAMES.a.nickName}` }).check()
    await page.getByRole('checkbox', { name: `选择 ${NAMES.b.nickName}` }).check()
    const bar = page.getByTestId('user-batch-bar')
    await bar.getByText('已选择 2 个用户').waitFor()
    await button(bar, '冻结').click()
    const confirm = page.locator('.ant-modal-confirm')
    await confirm
      .locator('.ant-modal-confirm-title', {
        hasText: `确定要冻结选中的 2 个用户吗？（${NAMES.a.nickName}、${NAMES.b.nickName}）`,
      })
      .waitFor()
    await button(confirm, '确定').click()
    const results = page.getByTestId('batch-results')
    await results.waitFor()
    await page.getByTestId('batch-summary').getByText('成功 2 个，失败 0 个').waitFor()
    for (const name of [NAMES.a.nickName, NAMES.b.nickName])
      expect(await results.locator('tr').filter({ hasText: name }).textContent()).toContain('成功')
    await shot(page, 'user-list-batch-result-1280')
    await button(page, '知道了').click()
    expect((await userOf(ids.a)).status).toBe(2)
    expect((await userOf(ids.b)).status).toBe(2)
    // the batch kept what the row did not show
    expect(await userOf(ids.a)).toMatchObject({ realName: NAMES.a.realName, mobile: NAMES.a.mobile })
  })

  it('turns a user back on and off with the row switch, asking before freezing', async () => {
    const toggle = page.getByRole('switch', { name: `${NAMES.a.nickName} 的状态` })
    await poll(() => toggle.getAttribute('aria-checked')).toBe('false')
    await toggle.click()
    await poll(async () => (await userOf(ids.a)).status).toBe(1)
    await poll(() => toggle.getAttribute('aria-checked')).toBe('true')
    await toggle.click()
    const confirm = page.locator('.ant-modal-confirm')
    await confirm
      .locator('.ant-modal-confirm-title', { hasText: `确定要冻结用户 ${NAMES.a.nickName} 吗？` })
      .waitFor()
    await button(confirm, '确定').click()
    await poll(async () => (await userOf(ids.a)).status).toBe(2)
    expect(await userOf(ids.a)).toMatchObject({ realName: NAMES.a.realName, mobile: NAMES.a.mobile })
  })

  it('resets a password, shows it once, and the user signs in with it', async () => {
    const row = rowOf(page, NAMES.c.nickName)
    await button(row, '重置密码').click()
    const confirm = page.locator('.ant-modal-confirm')
    await confirm
      .locator('.ant-modal-confirm-title', { hasText: `确定要重置用户 ${NAMES.c.nickName} 的密码吗？` })
      .waitFor()
    await button(confirm, '确定').click()
    const shown = page.getByTestId('new-password')
    await shown.waitFor()
    const password = await shown.inputValue()
    expect(password).toHaveLength(16)
    await button(page, '复制').click()
    await shot(page, 'user-list-reset-1280')
    await button(page.locator('.ant-modal-footer'), '关闭').click()

    const other = await newPage(browser)
    await signIn(other, { nickName: NAMES.c.nickName, password })
    await other.context().close()
  })

  it('offers no 删除 or 重置密码 on the signed-in user, and names the user in the delete confirmation', async () => {
    await search(page, ADMIN.nickName)
    const me = tableRows(page).filter({ has: page.getByText(ADMIN.nickName, { exact: true }) })
    await me.first().waitFor()
    expect(await button(me, '删除').count()).toBe(0)
    expect(await button(me, '重置密码').count()).toBe(0)
    await search(page, NAMES.c.nickName)
    await button(rowOf(page, NAMES.c.nickName), '删除').click()
    await page.getByText(`确定要删除用户 ${NAMES.c.nickName} 吗？`, { exact: true }).waitFor()
    await button(page.locator('.ant-popconfirm:not(.ant-popover-hidden)'), '取消').click()
  })

  it("keeps the selection across searches and lists each row's own answer from the server", async () => {
    await search(page, NAMES.c.nickName)
    await page.getByRole('checkbox', { name: `选择 ${NAMES.c.nickName}` }).check()
    await search(page, ADMIN.nickName)
    await page.getByRole('checkbox', { name: `选择 ${ADMIN.nickName}` }).check()
    const bar = page.getByTestId('user-batch-bar')
    await bar.getByText('已选择 2 个用户').waitFor()
    await button(bar, '冻结').click()
    const confirm = page.locator('.ant-modal-confirm')
    await confirm
      .locator('.ant-modal-confirm-title', {
        hasText: `确定要冻结选中的 2 个用户吗？（${NAMES.c.nickName}、${ADMIN.nickName}）`,
      })
      .waitFor()
    await button(confirm, '确定').click()
    const results = page.getByTestId('batch-results')
    await page.getByTestId('batch-summary').getByText('成功 1 个，失败 1 个').waitFor()
    expect(await results.locator('tr').filter({ hasText: NAMES.c.nickName }).textContent()).toContain('成功')
    // the server's own refusal of that one call
    expect(await results.locator('tr').filter({ hasText: ADMIN.nickName }).textContent()).toContain(
      '不能冻结自己！',
    )
    await shot(page, 'user-list-batch-partial-1280')
    await button(page, '知道了').click()
    await poll(() => page.getByTestId('user-batch-bar').count()).toBe(0)
    expect((await userOf(ids.c)).status).toBe(2)
  })

  it('fits a phone screen: the department tree above the list', async () => {
    const phone = await newPage(browser, { width: 390, height: 844 })
    await signIn(phone)
    await phone.goto(`/usermanage?keyword=${RUN}`)
    await tableRows(phone).first().waitFor()
    const tree = await phone.getByTestId('user-org-filter').boundingBox()
    const table = await phone.getByTestId('user-table').boundingBox()
    expect(tree!.y + tree!.height).toBeLessThanOrEqual(table!.y)
    await shot(phone, 'user-list-390')
    await phone.getByRole('button', { name: '展开部门树' }).click()
    await phone.getByTestId('user-org-filter').getByPlaceholder('输入部门名称进行过滤').waitFor()
    await shot(phone, 'user-list-390-tree')
    await phone.context().close()
  })
})
