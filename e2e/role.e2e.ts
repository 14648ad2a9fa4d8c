import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, apiLogin, launchBrowser, newPage, signIn } from './helpers'
import {
  isTreeChecked,
  row,
  search,
  setColumnFilter,
  shot,
  shownNames,
  poll,
  radio,
  toast,
  tree,
  treeBox,
} from './role-helpers'

let browser: Browser
let page: Page
let token: string
const name = `e2e角色${Date.now()}`
const renamed = `${name}改`

async function roleByName(roleName: string) {
  const res = await api('POST', '/role/listall', { token, body: { pageNum: 1, pageSize: 10, roleName } })
  expect(res.status).toBe(200)
  return (res.data.list as { id: number; roleName: string }[]).find((r) => r.roleName === roleName)
}
async function detail(id: number) {
  return api('GET', `/role/detail?id=${id}`, { token })
}

beforeAll(async () => {
  browser = await launchBrowser()
  page = await newPage(browser)
  token = await apiLogin()
  await signIn(page)
})
afterAll(async () => {
  await browser?.close()
})

describe('role list /rolemanage', () => {
  it('lists roles; edit and delete are disabled for the seeded 超级管理员 (not type 3)', async () => {
    await page.goto('/rolemanage')
    await page.getByRole('heading', { name: '角色管理', exact: true }).waitFor()
    const admin = row(page, '超级管理员').first()
    await admin.waitFor()
    await poll(() => admin.locator('td').nth(1).textContent()).toBe('超级管理员')
    expect(await admin.getByRole('button', { name: '修改' }).isDisabled()).toBe(true)
    expect(await admin.getByRole('button', { name: '删除' }).isDisabled()).toBe(true)
    expect(await admin.getByRole('button', { name: '查看' }).isEnabled()).toBe(true)
    // creator/updater only under showOperatorUser (off here)
    expect(await page.locator('th', { hasText: '创建人' }).count()).toBe(0)
    await poll(() => page.locator('.ant-pagination-total-text').textContent()).toMatch(/共 \d+ 条/)
    await shot(page, 'role-list')
  })

  it('creates a role: blank name is refused on blur, the tree checks ancestors and unchecks descendants', async () => {
    await page.getByRole('button', { name: /^新\s*建$/ }).click()
    await page.waitForURL('**/rolemanage/addrole?isShow=true')
    await page.getByRole('heading', { name: '新建角色', exact: true }).waitFor()
    // roleName is checked on blur
    const roleName = page.getByPlaceholder('请输入角色名称')
    await roleName.focus()
    await roleName.blur()
    await page.locator('.ant-form-item-explain-error', { hasText: '必须输入角色名称' }).waitFor()
    await shot(page, 'role-add-blank-name')
    // no status field on create
    expect(await page.getByText('启用状态').count()).toBe(0)

    await tree(page).waitFor()
    // check a leaf → its parent and grandparent are checked
    await treeBox(page, '新建用户').click()
    expect(await isTreeChecked(page, '新建用户')).toBe(true)
    expect(await isTreeChecked(page, '用户管理')).toBe(true)
    expect(await isTreeChecked(page, '权限管理')).toBe(true)
    expect(await isTreeChecked(page, '删除用户')).toBe(false)
    await treeBox(page, '删除用户').click()
    // uncheck the parent → its children are unchecked, the grandparent stays
    await treeBox(page, '用户管理').click()
    expect(await isTreeChecked(page, '用户管理')).toBe(false)
    expect(await isTreeChecked(page, '新建用户')).toBe(false)
    expect(await isTreeChecked(page, '删除用户')).toBe(false)
    expect(await isTreeChecked(page, '权限管理')).toBe(true)
    // final choice: 新建用户 (with its ancestors)
    await treeBox(page, '新建用户').click()

    await roleName.fill(name)
    await roleName.blur()
    await poll(() =>
      page.locator('.ant-form-item-explain-error', { hasText: '必须输入角色名称' }).count(),
    ).toBe(0)
    await page.getByPlaceholder('请输入描述').fill('端到端测试角色')
    await shot(page, 'role-add-filled')
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await toast(page, '创建成功')
    await page.waitForURL((u) => u.pathname === '/rolemanage')

    const created = await roleByName(name)
    expect(created).toBeTruthy()
    const held = await detail(created!.id)
    expect(held.data).toMatchObject({ roleName: name, type: 3, status: 1, description: '端到端测试角色' })
    expect([...held.data.authCodes].sort()).toEqual(['access', 'user', 'user:add'])
  })

  it('searches by role name', async () => {
    await search(page, name)
    await poll(() => shownNames(page)).toEqual([name])
    await shot(page, 'role-search')
    await search(page, `没有这个角色${Date.now()}`)
    await poll(() => shownNames(page)).toEqual([])
    await search(page, name)
    await poll(() => shownNames(page)).toEqual([name])
  })

  it('edits a role: name, status, description and tree; 修改成功 and the server holds it', async () => {
    await row(page, name).getByRole('button', { name: '修改' }).click()
    await page.waitForURL(/\/rolemanage\/roleinfo\?/)
    const url = new URL(page.url())
    expect(url.searchParams.get('isDisable')).toBe('false')
    expect(url.searchParams.get('title')).toBe('修改角色')
    await page.getByRole('heading', { name: '修改角色', exact: true }).waitFor()
    const roleName = page.getByPlaceholder('请输入角色名称')
    await poll(() => roleName.inputValue()).toBe(name)
    await tree(page).waitFor()
    expect(await isTreeChecked(page, '新建用户')).toBe(true)
    expect(await isTreeChecked(page, '用户管理')).toBe(true)

    await roleName.fill(renamed)
    await radio(page, '禁用').click()
    await page.getByPlaceholder('请输入描述').fill('改过的描述')
    await treeBox(page, '修改角色').click() // a leaf under 角色管理
    expect(await isTreeChecked(page, '角色管理')).toBe(true)
    await shot(page, 'role-edit')
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await toast(page, '修改成功')
    await page.waitForURL((u) => u.pathname === '/rolemanage')

    const held = await roleByName(renamed)
    expect(held).toBeTruthy()
    const d = await detail(held!.id)
    expect(d.data).toMatchObject({ roleName: renamed, status: 2, description: '改过的描述' })
    expect([...d.data.authCodes].sort()).toEqual(['access', 'role', 'role:edit', 'user', 'user:add'])
  })

  it('views a role read-only: fields and tree disabled, no save', async () => {
    await search(page, renamed)
    await poll(() => shownNames(page)).toEqual([renamed])
    await row(page, renamed).getByRole('button', { name: '查看' }).click()
    await page.waitForURL(/\/rolemanage\/roleinfo\?/)
    expect(new URL(page.url()).searchParams.get('isDisable')).toBe('true')
    await page.getByRole('heading', { name: '查看角色', exact: true }).waitFor()
    const roleName = page.getByPlaceholder('请输入角色名称')
    await poll(() => roleName.inputValue()).toBe(renamed)
    expect(await roleName.isDisabled()).toBe(true)
    expect(await page.getByPlaceholder('请输入描述').isDisabled()).toBe(true)
    expect(await radio(page, '禁用').getAttribute('class')).toContain('ant-radio-wrapper-disabled')
    expect(await page.getByRole('button', { name: /保\s*存/ }).count()).toBe(0)
    await tree(page).waitFor()
    expect(await tree(page).locator('.ant-tree-checkbox-disabled').count()).toBeGreaterThan(5)
    // clicking does nothing
    await treeBox(page, '删除用户').click({ force: true })
    expect(await isTreeChecked(page, '删除用户')).toBe(false)
    await treeBox(page, '新建用户').click({ force: true })
    expect(await isTreeChecked(page, '新建用户')).toBe(true)
    await shot(page, 'role-view')
    await page.getByRole('button', { name: /返\s*回/ }).click()
    await page.waitForURL((u) => u.pathname === '/rolemanage')
  })

  it('filters by type and status', async () => {
    await search(page, '')
    await setColumnFilter(page, '类型', ['超级管理员'])
    await poll(() => shownNames(page)).toContain('超级管理员')
    const types = await page.locator('.ant-table-tbody tr.ant-table-row td:nth-child(2)').allTextContents()
    expect(new Set(types)).toEqual(new Set(['超级管理员']))
    await shot(page, 'role-filter-type')

    await setColumnFilter(page, '类型', ['普通角色'])
    await search(page, renamed)
    await poll(() => shownNames(page)).toEqual([renamed])
    // status 禁用 keeps the (now disabled) role, 启用 hides it
    await setColumnFilter(page, '状态', ['禁用'])
    await poll(() => shownNames(page)).toEqual([renamed])
    await setColumnFilter(page, '状态', ['启用'])
    await poll(() => shownNames(page)).toEqual([])
    await shot(page, 'role-filter-status')
    // the server answers the same filters
    const res = await api('POST', '/role/listall', {
      token,
      body: { pageNum: 1, pageSize: 10, roleName: renamed, status: 2, types: [3] },
    })
    expect(res.data.total).toBe(1)
    await setColumnFilter(page, '状态', [])
    await setColumnFilter(page, '类型', [])
    await poll(() => shownNames(page)).toEqual([renamed])
  })

  it('deletes a role after confirmation; cancel keeps it', async () => {
    const id = (await roleByName(renamed))!.id
    await row(page, renamed).getByRole('button', { name: '删除' }).click()
    const confirm = page.locator('.ant-popconfirm:visible')
    await confirm.getByText(`此操作将永久删除角色「${renamed}」, 是否继续?`).waitFor()
    await shot(page, 'role-delete-confirm')
    await confirm.getByRole('button', { name: /取\s*消/ }).click()
    await toast(page, '已取消删除')
    expect((await detail(id)).status).toBe(200)

    await row(page, renamed).getByRole('button', { name: '删除' }).click()
    await page
      .locator('.ant-popconfirm:visible')
      .getByRole('button', { name: /确\s*定/ })
      .click()
    await toast(page, '删除成功')
    await poll(() => shownNames(page)).toEqual([])
    expect((await detail(id)).status).toBe(404)
    expect(await roleByName(renamed)).toBeUndefined()
  })

  it('shows the creator and updater columns when showOperatorUser is set', async () => {
    const other = await newPage(browser)
    await other.route('**/api/config', async (route) => {
      const res = await route.fetch()
      const body = await res.json()
      body.data.showOperatorUser = true
      await route.fulfill({ response: res, json: body })
    })
    await signIn(other)
    await other.goto('/rolemanage')
    await other.locator('th', { hasText: '创建人' }).waitFor()
    await other.locator('th', { hasText: '更新人' }).waitFor()
    await shot(other, 'role-list-operators')
    await other.close()
  })
})

describe('the role form permission tree on a large tree', () => {
  const treeName = `e2e树${Date.now()}`
  const descendants = (node: { code: string; children: any[] }): string[] =>
    node.children.flatMap((c) => [c.code, ...descendants(c)])

  it('searches, checks a parent with its subtree, saves, and the server holds every code', async () => {
    const wide = await newPage(browser, { width: 1280, height: 800 })
    await signIn(wide)
    await wide.goto('/rolemanage/addrole?isShow=true')
    await tree(wide).waitFor()
    const count = wide.getByTestId('permission-tree-count')
    await poll(() => count.textContent()).toBe('已选 0 项')

    const searchBox = wide.getByLabel('搜索权限')
    await searchBox.fill('用户管理')
    // the match (highlighted) with its ancestor and subtree; unrelated branches are gone
    await tree(wide).locator('mark', { hasText: '用户管理' }).first().waitFor()
    expect(await treeBox(wide, '权限管理').count()).toBe(1)
    expect(await treeBox(wide, '角色管理').count()).toBe(0)
    await wide.getByRole('checkbox', { name: '勾选时包含下级' }).check()
    await tree(wide)
      .locator('.ant-tree-treenode', { has: wide.locator('mark', { hasText: /^用户管理$/ }) })
      .first()
      .locator('.ant-tree-checkbox')
      .click()
    expect(await isTreeChecked(wide, '新建用户')).toBe(true)
    expect(await isTreeChecked(wide, '删除用户')).toBe(true)
    expect(await isTreeChecked(wide, '权限管理')).toBe(true)
    await shot(wide, 'role-tree-search-1280')

    const authTree = (await api('POST', '/auth/tree', { token, body: {} })).data as any[]
    const user = authTree[0].children.find((n: any) => n.code === 'user')
    const expected = ['access', 'user', ...descendants(user)].sort()
    await poll(() => count.textContent()).toBe(`已选 ${expected.length} 项`)

    // clearing the search shows the whole tree again, 用户管理's siblings unchecked
    await searchBox.fill('')
    await treeBox(wide, '角色管理').waitFor()
    expect(await isTreeChecked(wide, '角色管理')).toBe(false)

    await wide.getByPlaceholder('请输入角色名称').fill(treeName)
    await wide.getByRole('button', { name: /保\s*存/ }).click()
    await toast(wide, '创建成功')
    await wide.waitForURL((u) => u.pathname === '/rolemanage')
    const created = await roleByName(treeName)
    expect(created).toBeTruthy()
    const held = await detail(created!.id)
    expect([...held.data.authCodes].sort()).toEqual(expected)

    // the same form on a phone: the toolbar wraps above the tree
    const phone = await newPage(browser, { width: 390, height: 844 })
    await signIn(phone)
    await phone.goto('/rolemanage/addrole?isShow=true')
    await tree(phone).waitFor()
    await phone.getByLabel('搜索权限').fill('user')
    await tree(phone).locator('mark').first().waitFor()
    await shot(phone, 'role-tree-search-390')

    expect((await api('DELETE', `/role/delete?id=${created!.id}`, { token })).status).toBe(200)
    await wide.close()
    await phone.close()
  })

  it('a limited administrator sees what they may not grant disabled, and 全选 takes only the rest', async () => {
    const run = Date.now().toString(36)
    const password = 'Roleadmin@2024'
    const nickName = `e2e_roleadmin_${run}`
    const managerRole = (
      await api<number>('POST', '/role/insert', {
        token,
        body: {
          roleName: `e2e角色管理员${run}`,
          authCodes: ['access', 'role', 'role:add', 'user', 'user:add'],
        },
      })
    ).data
    const userId = (
      await api<number>('POST', '/user/insert', { token, body: { nickName, status: 1, password } })
    ).data
    await api('PUT', '/rel/user-rel-role', { token, body: { id: userId, roleIds: String(managerRole) } })
    const limitedToken = await apiLogin({ nickName, password })
    // what the server marks grantable for this caller
    const flatten = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flatten(n.children)])
    const marked = flatten((await api('POST', '/auth/tree', { token: limitedToken, body: {} })).data)
    const grantable = marked.filter((n) => n.grantable).map((n) => n.code as string)
    expect(grantable).toEqual(expect.arrayContaining(['access', 'user', 'user:add', 'role', 'role:add']))
    expect(marked.find((n) => n.code === 'user:delete').grantable).toBe(false)

    const limitedPage = await newPage(browser, { width: 1280, height: 800 })
    await signIn(limitedPage, { nickName, password })
    await limitedPage.goto('/rolemanage/addrole?isShow=true')
    await tree(limitedPage).waitFor()
    expect(await treeBox(limitedPage, '删除用户').getAttribute('class')).toContain(
      'ant-tree-checkbox-disabled',
    )
    expect(await treeBox(limitedPage, '新建用户').getAttribute('class')).not.toContain(
      'ant-tree-checkbox-disabled',
    )
    await limitedPage.getByRole('button', { name: /^全\s*选$/ }).click()
    await poll(() => limitedPage.getByTestId('permission-tree-count').textContent()).toBe(
      `已选 ${grantable.length} 项`,
    )
    expect(await isTreeChecked(limitedPage, '删除用户')).toBe(false)
    await shot(limitedPage, 'role-tree-limited-1280')

    const roleName = `e2e受限建角色${run}`
    await limitedPage.getByPlaceholder('请输入角色名称').fill(roleName)
    await limitedPage.getByRole('button', { name: /保\s*存/ }).click()
    await toast(limitedPage, '创建成功')
    const created = await roleByName(roleName)
    expect([...(await detail(created!.id)).data.authCodes].sort()).toEqual([...grantable].sort())
    await limitedPage.close()

    for (const url of [
      `/role/delete?id=${created!.id}`,
      `/user/delete?userId=${userId}`,
      `/role/delete?id=${managerRole}`,
    ])
      expect((await api('DELETE', url, { token })).status).toBe(200)
  })
})
