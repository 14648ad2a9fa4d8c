import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import { api, apiLogin, attemptStamp, launchBrowser, newPage, signIn } from './helpers'
import {
  isTreeChecked,
  poll,
  radio,
  row,
  search,
  setColumnFilter,
  shot,
  shownNames,
  toast,
  tree,
  treeBox,
} from './role-helpers'

// Each test makes the roles it works on, named afresh at each attempt: a retried test neither
// depends on an earlier test nor meets what its own first try left behind.

let browser: Browser
let page: Page
let token: string
const created = createdData()

async function roleByName(roleName: string) {
  const res = await api('POST', '/role/listall', { token, body: { pageNum: 1, pageSize: 10, roleName } })
  expect(res.status).toBe(200)
  return (res.data.list as { id: number; roleName: string }[]).find((r) => r.roleName === roleName)
}
const detail = (id: number) => api('GET', `/role/detail?id=${id}`, { token })
const radioChecked = async (label: string) =>
  ((await radio(page, label).getAttribute('class')) ?? '').includes('ant-radio-wrapper-checked')

/** A built-in role made through the API (type 2; enabled unless `status` says otherwise), removed after the file. */
async function builtInRole(authCodes: string[], status?: 1 | 2, remove = true) {
  const roleName = `e2e内置${attemptStamp()}`
  const res = await api<number>('POST', '/role/admin/insert', {
    token,
    body: { roleName, authCodes, status },
  })
  expect(res.status, res.msg).toBe(200)
  if (remove) created.remember(`/role/admin/delete?id=${res.data}`)
  return { id: res.data, roleName }
}

/** The built-in role list, from its first page and without search or filters. */
async function openList() {
  await page.goto('/adminrolemanage')
  await page.getByRole('heading', { name: '内置角色管理', exact: true }).waitFor()
}

beforeAll(async () => {
  browser = await launchBrowser()
  page = await newPage(browser)
  token = await apiLogin()
  await signIn(page)
})
afterAll(async () => {
  await created.removeAll(token)
  await browser?.close()
})

describe('built-in roles /adminrolemanage', () => {
  it('lists types 1 and 2 by default (types [1,2] sent); edit and delete disabled for type 1', async () => {
    const bodies: unknown[] = []
    page.on('request', (req) => {
      if (req.url().endsWith('/api/role/listall')) bodies.push(req.postDataJSON())
    })
    // an ordinary role, which the built-in list must not show
    const ordinary = `e2e普通${attemptStamp()}`
    const res = await api<number>('POST', '/role/insert', {
      token,
      body: { roleName: ordinary, authCodes: [] },
    })
    expect(res.status, res.msg).toBe(200)
    created.remember(`/role/delete?id=${res.data}`)
    await openList()
    await poll(() => shownNames(page)).toContain('超级管理员')
    expect(bodies[0]).toMatchObject({ pageNum: 1, pageSize: 10, types: [1, 2] })
    await search(page, ordinary)
    await poll(() => shownNames(page)).toEqual([])
    await search(page, '')
    const admin = row(page, '超级管理员').first()
    await poll(() => admin.locator('td').nth(1).textContent()).toBe('超级管理员')
    expect(await admin.getByRole('button', { name: '修改' }).isDisabled()).toBe(true)
    expect(await admin.getByRole('button', { name: '删除' }).isDisabled()).toBe(true)
    expect(await admin.getByRole('button', { name: '查看' }).isEnabled()).toBe(true)
    for (const col of ['角色名称', '类型', '状态', '创建时间', '更新时间'])
      await page.locator('th', { hasText: col }).first().waitFor()
    expect(await page.locator('th', { hasText: '创建人' }).count()).toBe(0)
    await shot(page, 'admin-role-list')
  })

  it('creates a built-in role: defaults type 2 and status 1; 创建成功 returns to the list', async () => {
    const name = `e2e内置${attemptStamp()}`
    await openList()
    await page.getByRole('button', { name: /^新\s*建$/ }).click()
    await page.waitForURL(/\/adminrolemanage\/adminroleadd/)
    await page.getByRole('heading', { name: '新建内置角色', exact: true }).waitFor()
    // type shown (isShow) with 内置角色 chosen; no status field on create
    expect(await radioChecked('内置角色')).toBe(true)
    expect(await radioChecked('超级管理员')).toBe(false)
    expect(await page.getByText('启用状态').count()).toBe(0)
    const roleName = page.getByPlaceholder('请输入角色名称')
    await roleName.focus()
    await roleName.blur()
    await page.locator('.ant-form-item-explain-error', { hasText: '必须输入角色名称' }).waitFor()

    await tree(page).waitFor()
    await treeBox(page, '新建内置角色').click()
    expect(await isTreeChecked(page, '内置角色管理')).toBe(true)
    expect(await isTreeChecked(page, '权限管理')).toBe(true)
    await roleName.fill(name)
    await page.getByPlaceholder('请输入描述').fill('内置角色描述')
    await shot(page, 'admin-role-add')
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await toast(page, '创建成功')
    await page.waitForURL((u) => u.pathname === '/adminrolemanage')

    const made = await roleByName(name)
    expect(made).toBeTruthy()
    created.remember(`/role/admin/delete?id=${made!.id}`)
    const held = await detail(made!.id)
    expect(held.data).toMatchObject({ roleName: name, type: 2, status: 1, description: '内置角色描述' })
    expect([...held.data.authCodes].sort()).toEqual(['access', 'adminrole', 'adminrole:add'].sort())
  })

  it('edits a built-in role: 修改成功 returns to the list and the server holds it', async () => {
    // as the create test leaves it: 内置角色管理 > 新建内置角色 checked
    const { roleName: name } = await builtInRole(['access', 'adminrole', 'adminrole:add'])
    const renamed = `${name}改`
    await openList()
    await search(page, name)
    await poll(() => shownNames(page)).toEqual([name])
    await row(page, name).getByRole('button', { name: '修改' }).click()
    await page.waitForURL(/\/adminrolemanage\/adminroleinfo\?/)
    await page.getByRole('heading', { name: '修改内置角色', exact: true }).waitFor()
    const roleName = page.getByPlaceholder('请输入角色名称')
    await poll(() => roleName.inputValue()).toBe(name)
    expect(await radioChecked('启用')).toBe(true)
    await tree(page).waitFor()
    expect(await isTreeChecked(page, '新建内置角色')).toBe(true)
    await roleName.fill(renamed)
    await radio(page, '禁用').click()
    // unchecking the parent drops its checked child too
    await treeBox(page, '内置角色管理').click()
    expect(await isTreeChecked(page, '新建内置角色')).toBe(false)
    await treeBox(page, '删除用户').click()
    await shot(page, 'admin-role-edit')
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await toast(page, '修改成功')
    await page.waitForURL((u) => u.pathname === '/adminrolemanage')

    const held = await roleByName(renamed)
    expect(held).toBeTruthy()
    const d = await detail(held!.id)
    expect(d.data).toMatchObject({ roleName: renamed, type: 2, status: 2 })
    expect([...d.data.authCodes].sort()).toEqual(['access', 'user', 'user:delete'])
  })

  it('filters by type (1 or 2) and the single-choice status', async () => {
    const { roleName: disabled } = await builtInRole(['access'], 2)
    await openList()
    await setColumnFilter(page, '类型', ['超级管理员'])
    await poll(() => shownNames(page)).toEqual(['超级管理员'])
    await setColumnFilter(page, '类型', ['内置角色'])
    await poll(() => shownNames(page)).not.toContain('超级管理员')
    // the list runs by id: this run's role is found by its name, wherever its page is
    await search(page, disabled)
    await poll(() => shownNames(page)).toEqual([disabled])
    await search(page, '')
    await setColumnFilter(page, '类型', [])
    await setColumnFilter(page, '状态', ['禁用'])
    await poll(() => shownNames(page)).not.toContain('超级管理员')
    await search(page, disabled)
    await poll(() => shownNames(page)).toEqual([disabled])
    await search(page, '')
    // single choice: the dropdown holds radios
    await page.locator('th', { hasText: '状态' }).locator('.ant-table-filter-trigger').click()
    const dropdown = page.locator('.ant-table-filter-dropdown:visible')
    await poll(() => dropdown.locator('.ant-radio-wrapper').count()).toBe(2)
    await shot(page, 'admin-role-filter-status')
    await page.keyboard.press('Escape')
    await dropdown.waitFor({ state: 'hidden' }).catch(() => {})
    await setColumnFilter(page, '状态', ['启用'])
    await poll(() => shownNames(page)).toContain('超级管理员')
    expect(await shownNames(page)).not.toContain(disabled)
    await search(page, disabled)
    await poll(() => shownNames(page)).toEqual([])
  })

  it('views a built-in role read-only', async () => {
    // 新建用户 unchecked, as the edit test leaves it
    const { roleName: renamed } = await builtInRole(['access', 'user', 'user:delete'], 2)
    await openList()
    await search(page, renamed)
    await poll(() => shownNames(page)).toEqual([renamed])
    await row(page, renamed).getByRole('button', { name: '查看' }).click()
    await page.waitForURL(/\/adminrolemanage\/adminroleinfo\?/)
    await page.getByRole('heading', { name: '查看内置角色', exact: true }).waitFor()
    const roleName = page.getByPlaceholder('请输入角色名称')
    await poll(() => roleName.inputValue()).toBe(renamed)
    expect(await roleName.isDisabled()).toBe(true)
    expect(await page.getByPlaceholder('请输入描述').isDisabled()).toBe(true)
    expect(await radio(page, '内置角色').getAttribute('class')).toContain('ant-radio-wrapper-disabled')
    expect(await radio(page, '禁用').getAttribute('class')).toContain('ant-radio-wrapper-disabled')
    expect(await page.getByRole('button', { name: /保\s*存/ }).count()).toBe(0)
    await tree(page).waitFor()
    await treeBox(page, '新建用户').click({ force: true })
    expect(await isTreeChecked(page, '新建用户')).toBe(false)
    await shot(page, 'admin-role-view')
    await page.getByRole('button', { name: /返\s*回/ }).click()
    await page.waitForURL((u) => u.pathname === '/adminrolemanage')
  })

  it('deletes a built-in role after confirmation', async () => {
    // deleted by the test itself, so not among the file's removals
    const { id, roleName: renamed } = await builtInRole(['access'], 2, false)
    await openList()
    await search(page, renamed)
    await poll(() => shownNames(page)).toEqual([renamed])
    await row(page, renamed).getByRole('button', { name: '删除' }).click()
    const confirm = page.locator('.ant-popconfirm:visible')
    await confirm.getByText(`此操作将永久删除角色「${renamed}」, 是否继续?`).waitFor()
    await confirm.getByRole('button', { name: /确\s*定/ }).click()
    await toast(page, '删除成功')
    await poll(() => shownNames(page)).toEqual([])
    expect((await detail(id)).status).toBe(404)
  })

  it('hides the type field without isShow and keeps the type on save', async () => {
    const { id, roleName: name } = await builtInRole(['access'])
    await page.goto(`/adminrolemanage/adminroleinfo?title=${encodeURIComponent('修改内置角色')}&id=${id}`)
    const roleName = page.getByPlaceholder('请输入角色名称')
    await poll(() => roleName.inputValue()).toBe(name)
    expect(await page.getByText('角色类型').count()).toBe(0)
    await page.getByPlaceholder('请输入描述').fill('无类型字段')
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await toast(page, '修改成功')
    await page.waitForURL((u) => u.pathname === '/adminrolemanage')
    const d = await detail(id)
    expect(d.data).toMatchObject({ type: 2, status: 1, description: '无类型字段' })
  })
})
