import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  api,
  apiLogin,
  launchBrowser,
  newPage,
  screenshot,
  settledScreenshot as shot,
  signIn,
} from './helpers'

let browser: Browser
let token: string

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
})
afterAll(async () => {
  await browser?.close()
})

const form = (page: Page) => page.getByTestId('auth-form')
const errors = async (page: Page) =>
  (await form(page).locator('.ant-form-item-explain-error').allTextContents()).map((t) => t.trim())
const toast = (page: Page, text: string) =>
  page.locator('.ant-message-notice').getByText(text, { exact: true })
const treeNode = (page: Page, code: string) => page.locator(`[data-testid="auth-tree"] [data-code="${code}"]`)
const radioLabels = async (page: Page, field: string) =>
  (
    await form(page)
      .locator('.ant-form-item', { has: page.locator(`label[for="${field}"]`) })
      .locator('label.ant-radio-wrapper')
      .allTextContents()
  ).map((t) => t.trim())
const pickRadio = (page: Page, field: string, label: string) =>
  form(page)
    .locator('.ant-form-item', { has: page.locator(`label[for="${field}"]`) })
    .locator('label.ant-radio-wrapper', { hasText: label })
    .click()

async function contextMenu(page: Page, code: string, item: '新增下级' | '编辑' | '删除') {
  await treeNode(page, code).click({ button: 'right' })
  const menu = page.getByTestId('auth-context-menu')
  await menu.waitFor()
  await menu.getByText(item, { exact: true }).click()
}

async function confirmDelete(page: Page) {
  const dialog = page.locator('.ant-modal-confirm')
  await dialog.waitFor()
  await dialog.getByRole('button', { name: /确\s*定/ }).click()
}

describe('permission management (issue 6: /authmanage)', () => {
  it('adds, edits and deletes permissions through the tree, its right-click menu and the forms', async () => {
    const suffix = Date.now().toString(36)
    const parentName = `测试权限${suffix}`
    const childName = `测试按钮${suffix}`
    const page = await newPage(browser)
    await signIn(page)

    // /authmanage redirects to the add form; top level (no parent)
    await page.goto('/authmanage')
    await page.waitForURL((u) => u.pathname === '/authmanage/addform')
    await page.getByRole('heading', { name: '新增权限', exact: true }).waitFor()
    await treeNode(page, 'user').waitFor() // the seeded tree, label chName
    expect(await treeNode(page, 'user').textContent()).toBe('用户管理')
    expect(await page.getByTestId('auth-parent').textContent()).toBe('无（顶级权限）')
    expect(await radioLabels(page, 'type')).toEqual(['菜单', '页面', '按钮'])

    // the tree's search box filters by chName
    const search = page.getByTestId('auth-tree').getByPlaceholder('输入关键字进行过滤')
    await search.fill('部门管理')
    await expect.poll(() => treeNode(page, 'user').count()).toBe(0)
    await treeNode(page, 'org').waitFor()
    await search.fill('')
    await treeNode(page, 'user').waitFor()

    // SPEC.md §5: each message exactly, when the fields are empty (seq defaults to 1)
    expect(await form(page).getByRole('spinbutton').inputValue()).toBe('1')
    await form(page)
      .getByRole('button', { name: /保\s*存/ })
      .click()
    await expect
      .poll(() => errors(page))
      .toEqual(['必须选择权限类型', '必须选择启用状态', '请输入英文名', '请输入中文名', '请配置后端接口'])
    await form(page).getByRole('spinbutton').fill('')
    await form(page).getByRole('spinbutton').blur()
    await expect.poll(() => errors(page)).toContain('请输入排序号')
    await shot(page, 'auth-add-validation')

    // fill the form
    await pickRadio(page, 'type', '菜单')
    await pickRadio(page, 'status', '启用')
    await form(page).getByPlaceholder('英文名').fill(`e2e_${suffix}`)
    await form(page).getByPlaceholder('中文名').fill(parentName)
    await form(page).getByRole('spinbutton').fill('7')
    await form(page).getByPlaceholder('唯一标识').fill(`e2e-key-${suffix}`)
    await form(page).locator('textarea').fill('端到端测试')
    // front-end patterns with spaces around them
    await form(page).getByRole('button', { name: '添加前端路由' }).click()
    await form(page).getByRole('button', { name: '添加前端路由' }).click()
    await form(page).getByLabel('前端路由 1', { exact: true }).fill('  /e2e/a/**  ')
    await form(page).getByLabel('前端路由 2', { exact: true }).fill(' /e2e/b ')
    // a back-end pattern from the catalogue: GET → 权限管理 → 权限详情
    await form(page).locator('.ant-cascader').click()
    await page.locator('.ant-cascader-menu-item', { hasText: /^GET$/ }).click()
    await page.locator('.ant-cascader-menu-item', { hasText: /^权限管理$/ }).click()
    await page.locator('.ant-cascader-menu-item', { hasText: '权限详情（/auth/detail）' }).click()
    expect(await form(page).getByLabel('接口地址 1', { exact: true }).inputValue()).toBe('/auth/detail')
    expect(await form(page).getByTestId('back-end-row').locator('.ant-select').first().textContent()).toBe(
      'GET',
    )
    await expect.poll(() => errors(page)).toEqual([])
    await shot(page, 'auth-add-filled')

    await form(page)
      .getByRole('button', { name: /保\s*存/ })
      .click()
    await toast(page, '创建成功').waitFor()
    // creating a permission leads to its edit screen
    await page.waitForURL(
      (u) => u.pathname === '/authmanage/editform' && u.searchParams.get('isLeaf') === 'true',
    )
    const parentCode = new URL(page.url()).searchParams.get('code')!
    expect(parentCode).toMatch(/^AUTH\d+$/)
    await page.getByRole('heading', { name: '修改权限', exact: true }).waitFor()
    await expect.poll(() => form(page).getByPlaceholder('中文名').inputValue()).toBe(parentName)
    expect(await form(page).getByLabel('前端路由 1', { exact: true }).inputValue()).toBe('/e2e/a/**')
    // the tree refreshed
    await treeNode(page, parentCode).waitFor()
    expect(await treeNode(page, parentCode).textContent()).toBe(parentName)

    // the server holds it: front-end patterns trimmed and comma-joined, the back-end pattern
    const held = await api('GET', `/auth/detail?authCode=${parentCode}`, { token })
    expect(held.status).toBe(200)
    expect(held.data).toMatchObject({
      code: parentCode,
      parentCode: null,
      level: 1,
      type: 1,
      status: 1,
      enName: `e2e_${suffix}`,
      chName: parentName,
      seq: 7,
      uniqueKey: `e2e-key-${suffix}`,
      description: '端到端测试',
      frontEndAccessList: '/e2e/a/**,/e2e/b',
      urlPatternInfos: [{ method: 'GET', uri: '/auth/detail' }],
    })

    // right-click → 新增下级: the form shows the parent's name
    await contextMenu(page, parentCode, '新增下级')
    await page.waitForURL((u) => u.pathname === '/authmanage/addform')
    const addUrl = new URL(page.url())
    expect(addUrl.searchParams.get('parentCode')).toBe(parentCode)
    expect(addUrl.searchParams.get('level')).toBe('2')
    expect(addUrl.searchParams.get('parentChName')).toBe(parentName)
    await expect.poll(() => page.getByTestId('auth-parent').textContent()).toBe(parentName)
    await pickRadio(page, 'type', '按钮')
    await pickRadio(page, 'status', '禁用')
    await form(page).getByPlaceholder('英文名').fill(`e2e_child_${suffix}`)
    await form(page).getByPlaceholder('中文名').fill(childName)
    // a back-end pattern typed by hand
    await form(page).getByRole('button', { name: '手动添加' }).click()
    await form(page).getByLabel('请求方法 1', { exact: true }).click()
    await page.locator('.ant-select-item-option', { hasText: /^POST$/ }).click()
    await form(page).getByLabel('接口地址 1', { exact: true }).fill(' /e2e/child/** ')
    await shot(page, 'auth-add-child')
    await form(page)
      .getByRole('button', { name: /保\s*存/ })
      .click()
    // the new child's edit screen is the proof (its three-second toast can come and go before a
    // busy machine looks for it; the parent's above is checked)
    await page.waitForURL(
      (u) => u.pathname === '/authmanage/editform' && u.searchParams.get('code') !== parentCode,
      { timeout: 60_000 },
    )
    const childCode = new URL(page.url()).searchParams.get('code')!
    await treeNode(page, childCode).waitFor()
    const child = await api('GET', `/auth/detail?authCode=${childCode}`, { token })
    expect(child.data).toMatchObject({
      parentCode,
      level: 2,
      type: 3,
      status: 2,
      chName: childName,
      seq: 1,
      frontEndAccessList: '',
      urlPatternInfos: [{ method: 'POST', uri: '/e2e/child/**' }],
      isLeaf: true,
    })

    // 编辑 on the parent (not a leaf): no 按钮 option; on the child: 按钮 shows and is chosen
    await contextMenu(page, parentCode, '编辑')
    await page.waitForURL((u) => u.searchParams.get('code') === parentCode)
    expect(new URL(page.url()).searchParams.get('isLeaf')).toBe('false')
    await expect.poll(() => form(page).getByPlaceholder('中文名').inputValue()).toBe(parentName)
    expect(await radioLabels(page, 'type')).toEqual(['菜单', '页面'])
    await shot(page, 'auth-edit-parent')

    await contextMenu(page, childCode, '编辑')
    await page.waitForURL((u) => u.searchParams.get('code') === childCode)
    expect(new URL(page.url()).searchParams.get('isLeaf')).toBe('true')
    await expect.poll(() => form(page).getByPlaceholder('中文名').inputValue()).toBe(childName)
    expect(await radioLabels(page, 'type')).toEqual(['菜单', '页面', '按钮'])
    expect(await form(page).locator('label.ant-radio-wrapper-checked', { hasText: '按钮' }).count()).toBe(1)

    // edit and save
    await form(page).getByPlaceholder('中文名').fill(`${childName}改`)
    await pickRadio(page, 'status', '启用')
    await form(page).getByRole('button', { name: '添加前端路由' }).click()
    await form(page).getByLabel('前端路由 1', { exact: true }).fill(' /e2e/child ')
    await form(page)
      .getByRole('button', { name: /保\s*存/ })
      .click()
    await toast(page, '修改成功').waitFor()
    await expect.poll(() => treeNode(page, childCode).textContent()).toBe(`${childName}改`)
    const edited = await api('GET', `/auth/detail?authCode=${childCode}`, { token })
    expect(edited.data).toMatchObject({
      chName: `${childName}改`,
      status: 1,
      type: 3,
      parentCode,
      frontEndAccessList: '/e2e/child',
      urlPatternInfos: [{ method: 'POST', uri: '/e2e/child/**' }],
    })
    await shot(page, 'auth-edit-child-saved')

    // delete the parent: refused with the server's message
    await contextMenu(page, parentCode, '删除')
    await page
      .locator('.ant-modal-confirm')
      .getByText(`此操作将永久删除权限「${parentName}」, 是否继续?`)
      .waitFor()
    await shot(page, 'auth-delete-confirm')
    await confirmDelete(page)
    await toast(page, '请先删除下级权限').waitFor()
    await shot(page, 'auth-delete-refused')
    expect((await api('GET', `/auth/detail?authCode=${parentCode}`, { token })).status).toBe(200)

    // cancelling says so and keeps the node
    await contextMenu(page, childCode, '删除')
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /取\s*消/ })
      .click()
    await toast(page, '已取消删除').waitFor()
    expect((await api('GET', `/auth/detail?authCode=${childCode}`, { token })).status).toBe(200)

    // delete the child (being edited: the screen goes back to the add form), then the parent
    await contextMenu(page, childCode, '删除')
    await confirmDelete(page)
    await toast(page, '删除成功').waitFor()
    await page.waitForURL((u) => u.pathname === '/authmanage/addform')
    await expect.poll(() => treeNode(page, childCode).count()).toBe(0)
    expect((await api('GET', `/auth/detail?authCode=${childCode}`, { token })).status).toBe(404)

    await contextMenu(page, parentCode, '删除')
    await confirmDelete(page)
    await expect.poll(() => toast(page, '删除成功').count()).toBeGreaterThan(0)
    await expect.poll(() => treeNode(page, parentCode).count()).toBe(0)
    expect((await api('GET', `/auth/detail?authCode=${parentCode}`, { token })).status).toBe(404)
    await shot(page, 'auth-deleted')
    await page.context().close()
  })

  it('the right-click menu opens at the pointer, and left/up by its size past x 1800 / y 700', async () => {
    const page = await newPage(browser, { width: 1920, height: 1080 })
    await signIn(page)
    await page.goto('/authmanage/addform')
    const node = treeNode(page, 'user')
    await node.waitFor()
    const menu = page.getByTestId('auth-context-menu')
    const openAt = async (x: number, y: number) => {
      await node.evaluate(
        (el, at) =>
          el.dispatchEvent(
            new MouseEvent('contextmenu', {
              clientX: at.x,
              clientY: at.y,
              button: 2,
              bubbles: true,
              cancelable: true,
            }),
          ),
        { x, y },
      )
      await menu.waitFor()
      await expect
        .poll(async () => await menu.evaluate((el) => getComputedStyle(el).visibility))
        .toBe('visible')
      const box = (await menu.boundingBox())!
      await page.keyboard.press('Escape')
      await menu.waitFor({ state: 'detached' })
      return box
    }
    const plain = await openAt(300, 400)
    expect([plain.x, plain.y]).toEqual([300, 400])
    const shifted = await openAt(1850, 900)
    expect(shifted.x).toBeCloseTo(1850 - shifted.width, 0)
    expect(shifted.y).toBeCloseTo(900 - shifted.height, 0)
    const atLimits = await openAt(1800, 700)
    expect([atLimits.x, atLimits.y]).toEqual([1800, 700])
    await node.click({ button: 'right' })
    await menu.waitFor()
    await page.waitForTimeout(400)
    // not fullPage: that resizes the window, which closes the menu
    await screenshot(page, 'auth-context-menu', { fullPage: false })
    await page.context().close()
  })
})
