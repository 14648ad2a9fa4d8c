import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, apiLogin, launchBrowser, newPage, settledScreenshot, signIn } from './helpers'

/**
 * User groups (SPEC.md §2): the add page with its collapsible sections (a user and a role chosen
 * before saving, the name rule), the list's searches and status filter, the enable/disable toggle,
 * editing basic info, the read-only view, linking and unlinking roles and users with the exact
 * confirmations, and delete. Every action is checked against what the server then holds.
 */

let browser: Browser
let page: Page
let token: string

const s = Date.now().toString(36)
const NAMES = {
  group: `e2e用户组${s}`,
  description: `组描述${s}`,
  role1: `组角色一${s}`,
  role2: `组角色二${s}`,
  user1: `组用户一${s}`,
  user2: `组用户二${s}`,
}
const ids = {} as Record<'group' | 'role1' | 'role2' | 'user1' | 'user2', number>

interface GroupDetail {
  id: number
  groupName: string
  status: number
  description: string | null
  roleIds: number[]
  userIds: number[]
}

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}

const detail = () => ok(api<GroupDetail>('GET', `/user_groups/detail?userGroupsId=${ids.group}`, { token }))

const shot = (name: string) => settledScreenshot(page, name)

/** The shown tab's content. */
const activePanel = () => page.locator('[role="tabpanel"][aria-hidden="false"]')
const rows = () => page.locator('.ant-table-tbody tr.ant-table-row')
const toast = (text: string) => page.locator('.ant-message-notice', { hasText: text }).first()
/** The open candidate popover. */
const picker = () => page.locator('[data-testid="link-candidates"]:visible')
/** A button by its text, spaced or not, after its icon's name if it has one ('search 查询'). */
const button = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name: new RegExp(`(^|\\s)${name.split('').join('\\s*')}\\s*$`) })

async function pick(trigger: Locator, search: string, name: string) {
  await trigger.click()
  await picker().waitFor()
  const link = button(picker(), '关联')
  expect(await link.isDisabled()).toBe(true) // disabled until a row is chosen
  await picker().getByPlaceholder(/搜索/).fill(search)
  await picker().getByPlaceholder(/搜索/).press('Enter')
  const row = picker().locator('tr.ant-table-row', { hasText: name })
  await row.waitFor()
  await row.getByRole('checkbox').check()
  expect(await link.isEnabled()).toBe(true)
  return link
}

beforeAll(async () => {
  token = await apiLogin()
  ids.role1 = await ok(
    api<number>('POST', '/role/insert', { token, body: { roleName: NAMES.role1, authCodes: [] } }),
  )
  ids.role2 = await ok(
    api<number>('POST', '/role/insert', { token, body: { roleName: NAMES.role2, authCodes: [] } }),
  )
  ids.user1 = await ok(api<number>('POST', '/user/insert', { token, body: { nickName: NAMES.user1 } }))
  ids.user2 = await ok(api<number>('POST', '/user/insert', { token, body: { nickName: NAMES.user2 } }))
  browser = await launchBrowser()
  page = await newPage(browser)
  await signIn(page)
})
afterAll(async () => {
  await browser?.close()
})

async function searchList(fill: { name?: string; description?: string; status?: '启用' | '禁用' }) {
  if (!page.url().endsWith('/usergroupmanage')) {
    await page.goto('/usergroupmanage')
  }
  await page.getByRole('heading', { name: '用户组管理' }).waitFor()
  await button(page, '重置').click()
  if (fill.name) await page.getByPlaceholder('按用户组名称搜索').fill(fill.name)
  if (fill.description) await page.getByPlaceholder('按描述搜索').fill(fill.description)
  if (fill.status) {
    await page.getByTestId('list-search-bar').locator('.ant-select').click()
    await page.locator('.ant-select-item-option', { hasText: fill.status }).click()
  }
  const response = page.waitForResponse((r) => r.url().endsWith('/api/user_groups/list'))
  await button(page, '查询').click()
  await response
  await page.waitForTimeout(300)
}

const groupRow = () => rows().filter({ hasText: NAMES.group })

describe('user groups', () => {
  it('creates a group on the add page with a user and a role chosen', async () => {
    await page.goto('/usergroupmanage')
    await button(page, '新建').click()
    await page.waitForURL('**/usergroupmanage/addusergroup')
    await page.getByRole('heading', { name: '新建用户组' }).waitFor()
    // three collapsible sections
    const headers = page.locator('.ant-collapse-header')
    expect((await headers.allTextContents()).map((t) => t.replace(/（.*$/, ''))).toEqual([
      '基本信息',
      '关联用户',
      '关联角色',
    ])

    // a blank name is refused with SPEC's text
    await page.getByPlaceholder('请输入用户组名称').fill('   ')
    await button(page, '保存').click()
    await page.getByText('必须输入用户组名称').waitFor()
    await shot('user-group-add-invalid')

    await page.getByPlaceholder('请输入用户组名称').fill(NAMES.group)
    await page.getByPlaceholder('请输入描述').fill(NAMES.description)
    const userSection = page.locator('.ant-collapse-item', { hasText: '关联用户' })
    let link = await pick(button(userSection, '关联用户'), NAMES.user1, NAMES.user1)
    await link.click()
    await userSection.locator('tr.ant-table-row', { hasText: NAMES.user1 }).waitFor()
    const roleSection = page.locator('.ant-collapse-item', { hasText: '关联角色' }).last()
    link = await pick(button(roleSection, '关联角色'), NAMES.role1, NAMES.role1)
    await link.click()
    await roleSection.locator('tr.ant-table-row', { hasText: NAMES.role1 }).waitFor()
    await shot('user-group-add-filled')

    // the user section collapses and opens again
    await userSection.locator('.ant-collapse-header').click()
    await expect.poll(() => userSection.locator('tr.ant-table-row').isVisible()).toBe(false)
    await userSection.locator('.ant-collapse-header').click()
    await userSection.locator('tr.ant-table-row', { hasText: NAMES.user1 }).waitFor()

    await button(page, '保存').click()
    await toast('创建成功').waitFor()
    await page.waitForURL((u) => u.pathname === '/usergroupmanage')

    const list = await ok(
      api<{ list: { id: number; groupName: string }[]; total: number }>('POST', '/user_groups/list', {
        token,
        body: { groupName: NAMES.group, pageNum: 1, pageSize: 10 },
      }),
    )
    expect(list.total).toBe(1)
    ids.group = list.list[0].id
    const d = await detail()
    expect(d).toMatchObject({ groupName: NAMES.group, status: 1, description: NAMES.description })
    expect(d.userIds).toEqual([ids.user1])
    expect(d.roleIds).toEqual([ids.role1])
  })

  it('cancelling the add page says 取消新建', async () => {
    await page.goto('/usergroupmanage/addusergroup')
    await button(page, '取消').click()
    await toast('取消新建').waitFor()
    await page.waitForURL((u) => u.pathname === '/usergroupmanage')
  })

  it('searches the list by name and by description, and filters by status', async () => {
    await searchList({ name: NAMES.group })
    expect(await rows().count()).toBe(1)
    const cells = await groupRow().locator('td').allTextContents()
    expect(cells.slice(0, 3)).toEqual([NAMES.group, '启用', NAMES.description])
    expect(cells[3]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    await shot('user-group-list')

    await searchList({ description: NAMES.description })
    expect(await rows().count()).toBe(1)
    await groupRow().waitFor()

    await searchList({ name: NAMES.group, status: '禁用' })
    expect(await groupRow().count()).toBe(0)
    await searchList({ name: NAMES.group, status: '启用' })
    expect(await groupRow().count()).toBe(1)
  })

  it('toggles disable and enable', async () => {
    await searchList({ name: NAMES.group })
    await button(groupRow(), '禁用').click()
    await toast('操作成功!').waitFor()
    await groupRow().getByText('禁用', { exact: true }).and(groupRow().locator('.ant-tag')).waitFor()
    expect((await detail()).status).toBe(2)
    await button(groupRow(), '启用').waitFor()
    await shot('user-group-disabled')
    // the status filter now finds it among the disabled groups
    await searchList({ name: NAMES.group, status: '禁用' })
    expect(await groupRow().count()).toBe(1)

    await button(groupRow(), '启用').click()
    await expect.poll(async () => (await detail()).status).toBe(1)
    // enabled now, it leaves the list filtered by 禁用
    await groupRow().waitFor({ state: 'detached' })
    await searchList({ name: NAMES.group })
    expect(await groupRow().locator('.ant-tag').textContent()).toBe('启用')
  })

  it('edits basic info', async () => {
    await searchList({ name: NAMES.group })
    await button(groupRow(), '修改').click()
    await page.waitForURL(`**/usergroupmanage/usergroupinfo?isDisable=false&id=${ids.group}&isShow=true`)
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('基本信息')
    const name = activePanel().getByPlaceholder('请输入用户组名称')
    await expect.poll(() => name.inputValue()).toBe(NAMES.group)
    const description = activePanel().getByPlaceholder('请输入描述')
    // the description is a 3 to 5 row text area
    const rowsOf = async () =>
      description.evaluate((el) => {
        const style = getComputedStyle(el)
        const line = parseFloat(style.lineHeight)
        const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom)
        return Math.round((el.getBoundingClientRect().height - padding - 2) / line)
      })
    expect(await rowsOf()).toBe(3)
    await description.fill(`${NAMES.description}\n二\n三\n四\n五\n六\n七`)
    await page.waitForTimeout(200)
    expect(await rowsOf()).toBe(5)

    // a blank name is refused
    await name.fill('')
    await button(page, '保存').click()
    await page.getByText('必须输入用户组名称').waitFor()
    await name.fill(NAMES.group)
    await description.fill(`${NAMES.description} 已修改`)
    await activePanel().getByRole('radio', { name: '禁用' }).check()
    await shot('user-group-edit')
    await button(page, '保存').click()
    await toast('修改成功').waitFor()
    await expect.poll(async () => (await detail()).description).toBe(`${NAMES.description} 已修改`)
    expect((await detail()).status).toBe(2)
    await activePanel().getByRole('radio', { name: '启用' }).check()
    await button(page, '保存').click()
    await expect.poll(async () => (await detail()).status).toBe(1)

    await button(page, '返回').click()
    await page.waitForURL((u) => u.pathname === '/usergroupmanage')
  })

  it('links a role through the popover and unlinks one with the exact confirmation', async () => {
    await page.goto(`/usergroupmanage/usergroupinfo?isDisable=false&id=${ids.group}&isShow=true`)
    await page.getByRole('tab', { name: '关联角色' }).click()
    const panel = activePanel()
    await panel.locator('tr.ant-table-row', { hasText: NAMES.role1 }).waitFor()
    expect(await panel.locator('thead th').allTextContents()).toEqual(['ID', '角色名称', '操作'])

    const link = await pick(button(panel, '关联角色'), NAMES.role2, NAMES.role2)
    // the role already linked is not offered again
    await picker().getByPlaceholder(/搜索/).fill(s)
    await picker().getByPlaceholder(/搜索/).press('Enter')
    await picker().locator('tr.ant-table-row', { hasText: NAMES.role2 }).waitFor()
    expect(await picker().locator('tr.ant-table-row', { hasText: NAMES.role1 }).count()).toBe(0)
    await shot('user-group-role-picker')
    await link.click()
    await toast('操作成功!').waitFor()
    await panel.locator('tr.ant-table-row', { hasText: NAMES.role2 }).waitFor()
    await expect.poll(async () => (await detail()).roleIds.sort()).toEqual([ids.role1, ids.role2].sort())

    // search the linked roles
    await panel.getByPlaceholder('按角色名称搜索').fill(NAMES.role2)
    await panel.getByPlaceholder('按角色名称搜索').press('Enter')
    await expect.poll(() => panel.locator('tr.ant-table-row').count()).toBe(1)
    await panel.getByPlaceholder('按角色名称搜索').fill('')
    await panel.getByPlaceholder('按角色名称搜索').press('Enter')
    await expect.poll(() => panel.locator('tr.ant-table-row').count()).toBe(2)

    await button(panel.locator('tr.ant-table-row', { hasText: NAMES.role1 }), '移除').click()
    await page.locator('.ant-popconfirm', { hasText: '确定要移除该角色关联吗？' }).waitFor()
    await shot('user-group-role-unlink')
    await button(page.locator('.ant-popconfirm'), '确定').click()
    await panel.locator('tr.ant-table-row', { hasText: NAMES.role1 }).waitFor({ state: 'detached' })
    await expect.poll(async () => (await detail()).roleIds).toEqual([ids.role2])
  })

  it('links a user through the popover and unlinks one with the exact confirmation', async () => {
    await page.getByRole('tab', { name: '关联用户' }).click()
    const panel = activePanel()
    await panel.locator('tr.ant-table-row', { hasText: NAMES.user1 }).waitFor()
    expect(await panel.locator('thead th').allTextContents()).toEqual(['ID', '用户昵称', '到期时间', '操作'])

    const link = await pick(button(panel, '关联用户'), NAMES.user2, NAMES.user2)
    await shot('user-group-user-picker')
    await link.click()
    await toast('操作成功!').waitFor()
    await panel.locator('tr.ant-table-row', { hasText: NAMES.user2 }).waitFor()
    await expect.poll(async () => (await detail()).userIds.sort()).toEqual([ids.user1, ids.user2].sort())

    await button(panel.locator('tr.ant-table-row', { hasText: NAMES.user1 }), '移除').click()
    await page.locator('.ant-popconfirm', { hasText: '确定要移除该用户关联吗？' }).waitFor()
    await button(page.locator('.ant-popconfirm:visible'), '确定').click()
    await panel.locator('tr.ant-table-row', { hasText: NAMES.user1 }).waitFor({ state: 'detached' })
    await expect.poll(async () => (await detail()).userIds).toEqual([ids.user2])
    await shot('user-group-users')
  })

  it('view mode is read-only', async () => {
    await searchList({ name: NAMES.group })
    await button(groupRow(), '查看').click()
    await page.waitForURL(`**/usergroupmanage/usergroupinfo?isDisable=true&id=${ids.group}&isShow=false`)
    const name = activePanel().getByPlaceholder('请输入用户组名称')
    await expect.poll(() => name.inputValue()).toBe(NAMES.group)
    expect(await name.isDisabled()).toBe(true)
    expect(await activePanel().getByPlaceholder('请输入描述').isDisabled()).toBe(true)
    expect(await activePanel().getByRole('radio', { name: '启用' }).isDisabled()).toBe(true)
    expect(await button(page, '保存').count()).toBe(0)
    expect(await button(page, '返回').isEnabled()).toBe(true)
    await shot('user-group-view')

    await page.getByRole('tab', { name: '关联角色' }).click()
    let panel = activePanel()
    await panel.locator('tr.ant-table-row', { hasText: NAMES.role2 }).waitFor()
    expect(await button(panel, '关联角色').count()).toBe(0)
    expect(await button(panel, '移除').count()).toBe(0)
    await page.getByRole('tab', { name: '关联用户' }).click()
    panel = activePanel()
    await panel.locator('tr.ant-table-row', { hasText: NAMES.user2 }).waitFor()
    expect(await button(panel, '关联用户').count()).toBe(0)
    expect(await button(panel, '移除').count()).toBe(0)
    await shot('user-group-view-users')
  })

  it('deletes the group after confirmation', async () => {
    await page.goto('/usergroupmanage')
    await searchList({ name: NAMES.group })
    await button(groupRow(), '删除').click()
    const confirm = page.locator('.ant-popconfirm:visible', { hasText: NAMES.group })
    await confirm.waitFor()
    await button(confirm, '取消').click()
    expect((await detail()).id).toBe(ids.group)

    await button(groupRow(), '删除').click()
    await shot('user-group-delete-confirm')
    await button(page.locator('.ant-popconfirm:visible'), '确定').click()
    await toast('删除成功').waitFor()
    await groupRow().waitFor({ state: 'detached' })
    const gone = await api('GET', `/user_groups/detail?userGroupsId=${ids.group}`, { token })
    expect(gone.status).toBe(404)
  })
})
