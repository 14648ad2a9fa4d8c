import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MSG } from '@amg/contract'
import {
  ADMIN,
  api,
  apiLogin,
  attemptStamp,
  launchBrowser,
  newPage,
  settledScreenshot as shot,
  signIn,
} from './helpers'

/** The server's preset password for users created without one (config INITIAL_USER_PASSWORD default). */
const INITIAL_USER_PASSWORD = 'User@12345678'

let browser: Browser
let page: Page
let admin: string

/** expect.poll with room for a loaded machine (its default is one second). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

/** antd puts a space between the two characters of a two-character Chinese button label. */
const label = (text: string) => new RegExp(`(^|\\s)${[...text].join('\\s*')}\\s*$`)
const button = (scope: Page | Locator, text: string) => scope.getByRole('button', { name: label(text) })

const toast = (p: Page, text: string) => p.locator('.ant-message').getByText(text, { exact: true })

/** Confirms the open Popconfirm whose title is `title` (exact text). */
async function confirmPop(p: Page, title: string) {
  const pop = p.locator('.ant-popconfirm:not(.ant-popover-hidden)').filter({ hasText: title })
  await pop.getByText(title, { exact: true }).waitFor()
  await button(pop, '确定').click()
}

const formError = (scope: Page | Locator, text: string) =>
  scope.locator('.ant-form-item-explain-error').getByText(text, { exact: true })

async function findUsers(nickName: string) {
  const res = await api<{ list: { id: number; nickName: string; status: number }[]; total: number }>(
    'POST',
    '/user/list',
    { token: admin, body: { nickName, pageNum: 1, pageSize: 100 } },
  )
  expect(res.status, res.msg).toBe(200)
  return res.data
}

async function createUserApi(nickName: string, extra: Record<string, unknown> = {}) {
  const res = await api<number>('POST', '/user/insert', {
    token: admin,
    body: { nickName, status: 1, ...extra },
  })
  expect(res.status, res.msg).toBe(200)
  return res.data
}

async function searchList(p: Page, nickName: string) {
  await p.getByTestId('user-table').waitFor()
  await p.getByPlaceholder('请输入用户昵称').fill(nickName)
  await button(p, '查询').click()
}

const tableRows = (p: Page) => p.locator('[data-testid="user-table"] tbody tr.ant-table-row')

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await apiLogin()
  page = await newPage(browser)
  await signIn(page)
})
afterAll(async () => {
  await browser?.close()
})

describe('user list (SPEC.md §2)', () => {
  it('creates a user from the prompt: blank says 用户昵称为空！ and sends nothing; then 创建成功 and the row', async () => {
    const inserts: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/user/insert')) inserts.push(r.url())
    })
    await page.goto('/usermanage')
    await page.getByRole('heading', { name: '用户管理', exact: true }).waitFor()
    await button(page, '新建').click()
    const dialog = page.getByRole('dialog').filter({ hasText: '新建用户' })
    await dialog.getByLabel('新用户昵称').waitFor()
    // labels read as written, 确定 and 取消, not 确 定
    expect(await button(dialog, '确定').textContent()).toBe('确定')
    expect(await button(dialog, '取消').textContent()).toBe('取消')
    await button(dialog, '确定').click()
    await formError(dialog, MSG.nickNameBlank).waitFor()
    await dialog.getByLabel('新用户昵称').fill('   ')
    await button(dialog, '确定').click()
    await formError(dialog, MSG.nickNameBlank).waitFor()
    await shot(page, 'user-create-blank')
    expect(inserts).toEqual([])

    const nickName = `e2e-new-${attemptStamp()}`
    await dialog.getByLabel('新用户昵称').fill(nickName)
    await button(dialog, '确定').click()
    await toast(page, MSG.created).waitFor()
    await dialog.waitFor({ state: 'hidden' })
    expect(inserts).toHaveLength(1)
    // newest first: the new user is on the first page
    await tableRows(page).filter({ hasText: nickName }).waitFor()
    const row = tableRows(page).filter({ hasText: nickName })
    await poll(() => row.getByRole('switch').getAttribute('aria-checked')).toBe('true') // 正常
    // the times, shown from 列设置 (last, before 操作), read YYYY-MM-DD HH:mm:ss
    await button(page, '列设置').click()
    const settings = page.locator('.ant-popover:not(.ant-popover-hidden)')
    await settings.getByText('创建时间', { exact: true }).click()
    await settings.getByText('更新时间', { exact: true }).click()
    await page.keyboard.press('Escape')
    await poll(() => row.locator('td').count()).toBeGreaterThanOrEqual(8)
    expect(await row.locator('td').nth(-3).textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect(await row.locator('td').nth(-2).textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    await shot(page, 'user-created')

    const held = await findUsers(nickName)
    expect(held.total).toBe(1)
    expect(held.list[0].status).toBe(1)
    // the preset initial password was set (its value is never shown in the console)
    expect(await page.getByText(INITIAL_USER_PASSWORD).count()).toBe(0)
    const login = await api('POST', '/login', { body: { nickName, password: INITIAL_USER_PASSWORD } })
    expect(login.status, login.msg).toBe(200)
  })

  it('the new-user page checks the SPEC §5 rules and creates the user', async () => {
    await page.goto('/usermanage')
    await button(page, '新建（填写详细信息）').click()
    await page.waitForURL('**/usermanage/adduser')
    await page.getByRole('heading', { name: '新建用户', exact: true }).waitFor()
    await button(page, '保存').click()
    await formError(page, MSG.nickNameRequired).waitFor()
    await page.getByPlaceholder('请输入手机号').fill('12345')
    await formError(page, MSG.mobileInvalid).waitFor()
    await page.getByPlaceholder('请输入密码').fill('short')
    await formError(page, MSG.passwordPolicy).waitFor()
    await shot(page, 'user-add-invalid')

    const nickName = `e2e-add-${attemptStamp()}`
    await page.getByPlaceholder('请输入用户昵称').fill(nickName)
    await page.getByPlaceholder('请输入真实姓名').fill('李四')
    await page.getByPlaceholder('请输入手机号').fill('13912345678')
    await page.getByPlaceholder('请输入密码').fill('Adduser@2024x')
    await button(page, '保存').click()
    await toast(page, MSG.created).waitFor()
    await page.waitForURL((u) => u.pathname === '/usermanage')
    const held = await findUsers(nickName)
    expect(held.total).toBe(1)
    const detail = await api('GET', `/user/detail?userId=${held.list[0].id}`, { token: admin })
    expect(detail.data).toMatchObject({ nickName, realName: '李四', mobile: '13912345678', status: 1 })
    const login = await api('POST', '/login', { body: { nickName, password: 'Adduser@2024x' } })
    expect(login.status, login.msg).toBe(200)
  })

  it('searches by nickName and pages 10 at a time', async () => {
    const prefix = `e2e-page-${attemptStamp()}-`
    for (let i = 1; i <= 12; i++) await createUserApi(`${prefix}${String(i).padStart(2, '0')}`)
    await page.goto('/usermanage')
    await searchList(page, prefix)
    await poll(() => tableRows(page).count()).toBe(10)
    await page.locator('.ant-pagination-total-text').getByText('共 12 条').waitFor()
    for (const text of await tableRows(page).locator('td:nth-child(2)').allTextContents())
      expect(text.startsWith(prefix)).toBe(true)
    await page.locator('.ant-pagination-item-2').click()
    await poll(() => tableRows(page).count()).toBe(2)
    await shot(page, 'user-list-page2')
    // newest first: page 2 holds the two created first
    expect((await tableRows(page).locator('td:nth-child(2)').allTextContents()).sort()).toEqual([
      `${prefix}01`,
      `${prefix}02`,
    ])
    // a search that matches one user
    await searchList(page, `${prefix}07`)
    await poll(() => tableRows(page).count()).toBe(1)
    await page.locator('.ant-pagination-item-active').getByText('1').waitFor()
  })
})

describe('user base info tab (SPEC.md §2, §5)', () => {
  it('shows each validation message, saves (修改成功), freezes, and Back returns to the list', async () => {
    const nickName = `e2e-edit-${attemptStamp()}`
    const id = await createUserApi(nickName)
    await page.goto('/usermanage')
    await searchList(page, nickName)
    await tableRows(page)
      .filter({ hasText: nickName })
      .getByRole('button', { name: label('修改') })
      .click()
    await page.waitForURL(
      (u) =>
        u.pathname === '/usermanage/userinfo/userbaseinfo' &&
        u.searchParams.get('id') === String(id) &&
        u.searchParams.get('title') === nickName &&
        u.searchParams.get('isShow') === '1',
    )
    await page.getByRole('heading', { name: '基本信息', exact: true }).waitFor()
    await poll(() => page.getByPlaceholder('请输入用户昵称').inputValue()).toBe(nickName)

    const updates: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/user/update')) updates.push(r.url())
    })
    await page.getByPlaceholder('请输入用户昵称').fill('')
    await formError(page, MSG.nickNameRequired).waitFor()
    await page.getByPlaceholder('请输入手机号').fill('2345678901')
    await formError(page, MSG.mobileInvalid).waitFor()
    await page.getByPlaceholder('请输入新密码').fill('abcdefg')
    await formError(page, MSG.passwordPolicy).waitFor()
    const status = page.locator('.ant-form-item').filter({ hasText: '状态' }).locator('.ant-select')
    await status.hover()
    await status.locator('.ant-select-clear').click()
    await formError(page, MSG.statusRequired).waitFor()
    await button(page, '保存').click()
    await shot(page, 'user-baseinfo-invalid')
    expect(updates).toEqual([])

    const renamed = `${nickName}-x`
    await page.getByPlaceholder('请输入用户昵称').fill(renamed)
    await page.getByPlaceholder('请输入手机号').fill('13800138000')
    await page.getByPlaceholder('请输入真实姓名').fill('王五')
    await page.getByPlaceholder('请输入新密码').fill('Changed@2024xy')
    await status.click()
    await page.locator('.ant-select-item-option').filter({ hasText: '正常' }).click()
    await button(page, '保存').click()
    await toast(page, MSG.updated).waitFor()
    expect(updates).toHaveLength(1)
    const detail = await api('GET', `/user/detail?userId=${id}`, { token: admin })
    expect(detail.data).toMatchObject({
      nickName: renamed,
      mobile: '13800138000',
      realName: '王五',
      status: 1,
    })
    expect(
      (await api('POST', '/login', { body: { nickName: renamed, password: 'Changed@2024xy' } })).status,
    ).toBe(200)

    // freeze: status 2 → the list shows 冻结
    await status.click()
    await page.locator('.ant-select-item-option').filter({ hasText: '冻结' }).click()
    await button(page, '保存').click()
    await expect
      .poll(async () => (await api('GET', `/user/detail?userId=${id}`, { token: admin })).data.status)
      .toBe(2)
    await shot(page, 'user-baseinfo-saved')
    await button(page, '返回').click()
    await page.waitForURL((u) => u.pathname === '/usermanage')
    await searchList(page, renamed)
    const row = tableRows(page).filter({ hasText: renamed })
    await poll(() => row.getByRole('switch').getAttribute('aria-checked')).toBe('false') // 冻结
    await shot(page, 'user-list-frozen')
  })

  it('without isShow, mobile and realName are hidden and kept as they are', async () => {
    const nickName = `e2e-noshow-${attemptStamp()}`
    const id = await createUserApi(nickName, { mobile: '13700000000', realName: '赵六' })
    await page.goto(`/usermanage/userinfo/userbaseinfo?id=${id}&title=${nickName}`)
    await page.getByRole('heading', { name: '基本信息', exact: true }).waitFor()
    await shot(page, 'user-baseinfo-noshow')
    await poll(() => page.getByPlaceholder('请输入用户昵称').inputValue()).toBe(nickName)
    expect(await page.getByPlaceholder('请输入手机号').count()).toBe(0)
    expect(await page.getByPlaceholder('请输入真实姓名').count()).toBe(0)
    await page.getByPlaceholder('请输入用户昵称').fill(`${nickName}-y`)
    await button(page, '保存').click()
    await toast(page, MSG.updated).waitFor()
    const detail = await api('GET', `/user/detail?userId=${id}`, { token: admin })
    expect(detail.data).toMatchObject({ nickName: `${nickName}-y`, mobile: '13700000000', realName: '赵六' })
  })
})

describe('user link tabs (SPEC.md §2)', () => {
  it('links and unlinks a role, a group and positions; the server holds the links', async () => {
    const run = attemptStamp()
    const nickName = `e2e-links-${run}`
    const userId = await createUserApi(nickName)
    const roleName = `e2e角色-${run}`
    const role = await api<number>('POST', '/role/insert', {
      token: admin,
      body: { roleName, description: 'e2e', authCodes: [] },
    })
    expect(role.status, role.msg).toBe(200)
    const groupName = `e2e用户组-${run}`
    const group = await api<number>('POST', '/user_groups/insert', {
      token: admin,
      body: { groupName, status: 1, description: 'e2e' },
    })
    expect(group.status, group.msg).toBe(200)
    const stationA = await api<number>('POST', '/station/insert', {
      token: admin,
      body: { stationName: `e2e职位甲-${run}`, orgIds: [], type: 1 },
    })
    expect(stationA.status, stationA.msg).toBe(200)
    const stationB = await api<number>('POST', '/station/insert', {
      token: admin,
      body: { stationName: `e2e职位乙-${run}`, orgIds: [], type: 1 },
    })
    const tree = await api<{ id: number; organizationName: string }[]>('GET', '/org/tree', { token: admin })
    const orgName = `e2e部门${run}`
    const org = await api<number>('POST', '/org/insert', {
      token: admin,
      body: {
        organizationName: orgName,
        description: 'e2e',
        parent: tree.data[0].id,
        stationIds: [stationA.data, stationB.data],
      },
    })
    expect(org.status, org.msg).toBe(200)
    const orgPositions = await api<{ list: { id: number; stationName: string }[] }>(
      'POST',
      '/position/list',
      {
        token: admin,
        body: { orgId: org.data, pageNum: 1, pageSize: 10 },
      },
    )
    expect(orgPositions.data.list).toHaveLength(2)

    const query = `id=${userId}&title=${encodeURIComponent(nickName)}&isShow=1`

    // -- role ---------------------------------------------------------------------------------
    await page.goto(`/usermanage/userinfo/roleformbyuser?${query}`)
    await page.getByRole('heading', { name: '关联角色', exact: true }).waitFor()
    await page.getByRole('button', { name: '关联角色' }).click()
    const rolePicker = page.getByTestId('link-candidates')
    await rolePicker.getByPlaceholder('按角色名称搜索').fill(roleName)
    await rolePicker.getByPlaceholder('按角色名称搜索').press('Enter')
    const roleCandidate = rolePicker.locator('tr.ant-table-row').filter({ hasText: roleName })
    await roleCandidate.waitFor()
    await poll(() => button(rolePicker, '关联').isDisabled()).toBe(true)
    await roleCandidate.locator('.ant-checkbox-input').check()
    await poll(() => button(rolePicker, '关联').isDisabled()).toBe(false)
    await shot(page, 'user-tab-role-picker')
    await button(rolePicker, '关联').click()
    await toast(page, MSG.successBang).first().waitFor()
    await page.locator('.amg-link-panel tbody tr.ant-table-row').filter({ hasText: roleName }).waitFor()
    const rolesHeld = async () =>
      (
        await api<{ list: { id: number }[] }>(
          'POST',
          `/rel/user/rolelist?userId=${userId}&pageNum=1&pageSize=100`,
          { token: admin, body: {} },
        )
      ).data.list.map((r) => r.id)
    expect(await rolesHeld()).toEqual([role.data])
    await shot(page, 'user-tab-role-linked')
    await page
      .locator('.amg-link-panel tbody tr.ant-table-row')
      .filter({ hasText: roleName })
      .getByRole('button', { name: label('移除') })
      .click()
    await confirmPop(page, MSG.confirmUnlinkRole)
    await poll(rolesHeld).toEqual([])
    await poll(() => page.locator('.amg-link-panel tbody tr.ant-table-row').count()).toBe(0)

    // -- group --------------------------------------------------------------------------------
    await page.getByRole('tab', { name: '关联用户组' }).click()
    await page.waitForURL('**/usermanage/userinfo/usergroupformbyuser?*')
    await page.getByRole('heading', { name: '关联用户组', exact: true }).waitFor()
    await page.getByRole('button', { name: '关联用户组' }).click()
    const groupPicker = page.getByTestId('link-candidates')
    await groupPicker.getByPlaceholder('按用户组名称搜索').fill(groupName)
    await groupPicker.getByPlaceholder('按用户组名称搜索').press('Enter')
    const groupCandidate = groupPicker.locator('tr.ant-table-row').filter({ hasText: groupName })
    await groupCandidate.waitFor()
    await groupCandidate.locator('.ant-checkbox-input').check()
    await button(groupPicker, '关联').click()
    await page.locator('.amg-link-panel tbody tr.ant-table-row').filter({ hasText: groupName }).waitFor()
    const groupsHeld = async () =>
      (
        await api<{ list: { id: number }[] }>(
          'POST',
          `/rel/user/grouplist?userId=${userId}&pageNum=1&pageSize=100`,
          { token: admin, body: {} },
        )
      ).data.list.map((r) => r.id)
    expect(await groupsHeld()).toEqual([group.data])
    await shot(page, 'user-tab-group-linked')
    await page
      .locator('.amg-link-panel tbody tr.ant-table-row')
      .filter({ hasText: groupName })
      .getByRole('button', { name: label('移除') })
      .click()
    await confirmPop(page, '确定要移除该用户组关联吗？')
    await poll(groupsHeld).toEqual([])

    // -- positions ----------------------------------------------------------------------------
    await page.getByRole('tab', { name: '关联岗位' }).click()
    await page.waitForURL('**/usermanage/userinfo/positionformbyuser?*')
    await page.getByRole('heading', { name: '关联岗位', exact: true }).waitFor()
    await page.getByRole('button', { name: '关联岗位' }).click()
    const posPicker = page.getByTestId('position-candidates')
    await posPicker.locator('.ant-cascader').click()
    await posPicker.locator('.ant-cascader input').fill(orgName)
    await page
      .locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item')
      .filter({ hasText: orgName })
      .click()
    const candidates = posPicker.locator('tr.ant-table-row')
    await poll(() => candidates.count()).toBe(2)
    expect(await button(posPicker, '关联').isDisabled()).toBe(true)
    await shot(page, 'user-position-picker')
    for (const row of await candidates.all()) await row.locator('.ant-checkbox-input').check()
    await button(posPicker, '关联').click()
    const posRows = page.locator('[data-testid="user-position-table"] tbody tr.ant-table-row')
    await poll(() => posRows.count()).toBe(2)
    // rows merged by department name: one cell spans both rows
    const merged = page.locator('[data-testid="user-position-table"] td[rowspan="2"]')
    await poll(() => merged.textContent()).toContain(orgName)
    const positionsHeld = async () =>
      (
        await api<{ list: { id: number }[] }>(
          'POST',
          `/rel/user/positionlist?userId=${userId}&pageNum=1&pageSize=1000`,
          { token: admin, body: {} },
        )
      ).data.list
        .map((r) => r.id)
        .sort((a, b) => a - b)
    expect(await positionsHeld()).toEqual(orgPositions.data.list.map((p) => p.id).sort((a, b) => a - b))
    await shot(page, 'user-position-linked')

    // filter by job title: only that position
    await page.getByTestId('user-position-filters').getByRole('combobox', { name: '职位' }).click()
    // typed: with many job titles (other specs add theirs) the option may be outside the list's visible rows
    await page.keyboard.type(`e2e职位甲-${run}`)
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: `e2e职位甲-${run}` })
      .click()
    await poll(() => posRows.count()).toBe(1)
    await posRows
      .first()
      .getByRole('button', { name: label('移除') })
      .click()
    await confirmPop(page, '确定要移除该岗位关联吗？')
    await poll(async () => (await positionsHeld()).length).toBe(1)
    const stillHeld = await api<{ list: { stationName: string }[] }>(
      'POST',
      `/rel/user/positionlist?userId=${userId}&pageNum=1&pageSize=1000`,
      { token: admin, body: {} },
    )
    expect(stillHeld.data.list.map((r) => r.stationName)).toEqual([`e2e职位乙-${run}`])
  })
})

describe('deleting users (SPEC.md §2, §8)', () => {
  it('deletes after a confirmation naming the user; your own row offers no 删除, and the server refuses it', async () => {
    const nickName = `e2e-del-${attemptStamp()}`
    await createUserApi(nickName)
    await page.goto('/usermanage')
    await searchList(page, nickName)
    const row = tableRows(page).filter({ hasText: nickName })
    await row.getByRole('button', { name: label('删除') }).click()
    await confirmPop(page, `确定要删除用户 ${nickName} 吗？`)
    await toast(page, MSG.deleted).waitFor()
    await poll(() => tableRows(page).count()).toBe(0)
    expect((await findUsers(nickName)).total).toBe(0)

    await searchList(page, ADMIN.nickName)
    const me = tableRows(page).filter({ has: page.getByText(ADMIN.nickName, { exact: true }) })
    await me.first().waitFor()
    expect(await me.getByRole('button', { name: label('删除') }).count()).toBe(0)
    await shot(page, 'user-delete-self')
    // the server refuses too
    const adminId = (await findUsers(ADMIN.nickName)).list.find((u) => u.nickName === ADMIN.nickName)!.id
    const self = await api('DELETE', `/user/delete?userId=${adminId}`, { token: admin, body: {} })
    expect(self.status, self.msg).toBe(409)
    expect(self.msg).toBe(MSG.deleteSelf)
    expect((await findUsers(ADMIN.nickName)).list.some((u) => u.nickName === ADMIN.nickName)).toBe(true)
  })
})

/** The seeded super-admin role (type 1). */
async function superRoleId(): Promise<number> {
  const res = await api<{ list: { id: number; type: number }[] }>('POST', '/role/listall', {
    token: admin,
    body: { pageNum: 1, pageSize: 100 },
  })
  return res.data.list.find((r) => r.type === 1)!.id
}

// DESIGN.md §6a: one's own password changes only with the old one; the base info offers no field for it.
describe('own base info', () => {
  it('has no password field, points to 修改密码 (old password asked) and saves without a password', async () => {
    const nickName = `e2e-self-${attemptStamp()}`
    const id = await createUserApi(nickName, { password: 'SelfEdit@2024xy' })
    const linked = await api('PUT', '/rel/user-rel-role', {
      token: admin,
      body: { id, roleIds: String(await superRoleId()) },
    })
    expect(linked.status, linked.msg).toBe(200)
    const own = await newPage(browser)
    await signIn(own, { nickName, password: 'SelfEdit@2024xy' })
    const updates: string[] = []
    own.on('request', (r) => {
      if (r.url().includes('/api/user/update')) updates.push(r.postData() ?? '')
    })
    for (const mode of ['light', 'dark'] as const) {
      await own.evaluate(
        (value) => localStorage.setItem('amg.appearance', value),
        JSON.stringify({ mode, density: 'default' }),
      )
      await own.goto(`/usermanage/userinfo/userbaseinfo?id=${id}&title=${nickName}&isShow=1`)
      await poll(() => own.getByPlaceholder('请输入用户昵称').inputValue()).toBe(nickName)
      const passwordItem = own.locator('.ant-form-item').filter({ hasText: '修改自己的密码需要输入原密码' })
      await passwordItem.waitFor()
      expect(await own.getByPlaceholder('请输入新密码').count()).toBe(0)
      await shot(own, `user-baseinfo-self-${mode}`)
      await passwordItem.getByRole('button', { name: '修改密码' }).click()
      const dialog = own.getByRole('dialog').filter({ hasText: '修改密码' })
      await dialog.getByPlaceholder('请输入原密码').waitFor()
      await shot(own, `user-baseinfo-self-dialog-${mode}`)
      await button(dialog, '取消').click()
      await dialog.waitFor({ state: 'hidden' })
    }
    await own.getByPlaceholder('请输入真实姓名').fill('自己改的')
    await button(own, '保存').click()
    await toast(own, MSG.updated).waitFor()
    expect(updates).toHaveLength(1)
    expect(JSON.parse(updates[0])).not.toHaveProperty('password')
    expect((await api('GET', `/user/detail?userId=${id}`, { token: admin })).data.realName).toBe('自己改的')
    // the server refuses it anyway
    const token = await apiLogin({ nickName, password: 'SelfEdit@2024xy' })
    const refused = await api('PUT', '/user/update', {
      token,
      body: { id, nickName, status: 1, password: 'Takeover@2024xy' },
    })
    expect([refused.status, refused.msg]).toEqual([403, MSG.ownPasswordViaChange])
    // another user's base info keeps its password field
    const other = await createUserApi(`${nickName}-b`)
    await own.goto(`/usermanage/userinfo/userbaseinfo?id=${other}&title=b`)
    await own.getByPlaceholder('请输入新密码').waitFor()
    await own.context().close()
    for (const userId of [other, id]) await api('DELETE', `/user/delete?userId=${userId}`, { token: admin })
  })
})

describe('change own password (header dialog)', () => {
  it('checks the rules, refuses a wrong old password, changes it and the initial-password warning goes', async () => {
    const nickName = `e2e-pw-${attemptStamp()}`
    await createUserApi(nickName)
    const own = await newPage(browser)
    await signIn(own, { nickName, password: INITIAL_USER_PASSWORD })
    const warning = own.getByText('当前账号仍在使用初始密码，请尽快修改密码。')
    await warning.waitFor()
    // the header offers the dialog too
    await own.getByRole('button', { name: '修改密码' }).click()
    let dialog = own.getByRole('dialog').filter({ hasText: '修改密码' })
    await dialog.getByPlaceholder('请输入原密码').waitFor()
    await button(dialog, '取消').click()
    await dialog.waitFor({ state: 'hidden' })

    await own.getByRole('button', { name: '立即修改' }).click()
    dialog = own.getByRole('dialog').filter({ hasText: '修改密码' })
    await button(dialog, '确定').click()
    await formError(dialog, '请输入原密码').waitFor()
    await formError(dialog, '请输入新密码').waitFor()
    await dialog.getByPlaceholder('请输入新密码').fill('weakpassword')
    await formError(dialog, MSG.passwordPolicy).waitFor()
    await dialog.getByPlaceholder('请输入新密码').fill('NewPass@2024xy')
    await dialog.getByPlaceholder('请再次输入新密码').fill('NewPass@2024xz')
    await formError(dialog, '两次输入的新密码不一致').waitFor()
    await shot(own, 'user-password-invalid')
    await dialog.getByPlaceholder('请再次输入新密码').fill('NewPass@2024xy')
    await dialog.getByPlaceholder('请输入原密码').fill('Wrong@password1')
    await button(dialog, '确定').click()
    await toast(own, MSG.oldPasswordWrong).waitFor()
    await dialog.getByPlaceholder('请输入原密码').fill(INITIAL_USER_PASSWORD)
    await button(dialog, '确定').click()
    await toast(own, '密码修改成功').waitFor()
    await dialog.waitFor({ state: 'hidden' })
    await warning.waitFor({ state: 'detached' })
    await shot(own, 'user-password-changed')
    // still signed in, and the server holds the new password
    await own.reload()
    await own.getByTestId('current-user').getByText(nickName).waitFor()
    expect(await warning.count()).toBe(0)
    expect((await api('POST', '/login', { body: { nickName, password: 'NewPass@2024xy' } })).status).toBe(200)
    expect(
      (await api('POST', '/login', { body: { nickName, password: INITIAL_USER_PASSWORD } })).status,
    ).not.toBe(200)
    // admin's password is untouched for the other e2e files
    expect((await api('POST', '/login', { body: ADMIN })).status).toBe(200)
    await own.context().close()
  })
})
