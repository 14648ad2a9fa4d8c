import type { Browser, Locator, Page } from 'playwright-core'
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

interface TreeNode {
  id: number
  organizationName: string
  parent: number | null
  children: TreeNode[]
}

/** `count` calls of `call(index)`, ten at a time: the answers in index order. */
async function inBatches<T>(count: number, call: (index: number) => Promise<T>): Promise<T[]> {
  const answers: T[] = []
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, (_, k) => call(start + k))
    answers.push(...(await Promise.all(batch)))
  }
  return answers
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The tree row of the department with exactly this name. */
function treeNode(page: Page, name: string): Locator {
  return page
    .locator('[data-testid="org-tree"] .ant-tree-title')
    .filter({ hasText: new RegExp(`^${escape(name)}$`) })
}

async function contextMenu(page: Page, name: string): Promise<string[]> {
  await treeNode(page, name).click({ button: 'right' })
  const menu = page.getByTestId('org-context-menu')
  try {
    await menu.waitFor({ timeout: 5000 })
  } catch (e) {
    await screenshot(page, 'org-menu-missing')
    console.log(
      'DEBUG titles',
      await page.locator('[data-testid="org-tree"] .ant-tree-title').allTextContents(),
    )
    throw e
  }
  return (await menu.locator('.ant-menu-title-content').allTextContents()).map((t) => t.trim())
}

/** Whether the department's row lies inside the tree's scrolled view (not only rendered). */
async function inView(page: Page, name: string): Promise<boolean> {
  const list = await page.locator('[data-testid="org-tree"] .ant-tree-list-holder').boundingBox()
  const row = await treeNode(page, name).boundingBox()
  return !!list && !!row && row.y >= list.y && row.y + row.height <= list.y + list.height
}

async function chooseFromMenu(page: Page, name: string, item: string) {
  await contextMenu(page, name)
  await page.getByTestId('org-context-menu').getByText(item, { exact: true }).click()
  await page.getByTestId('org-context-menu').waitFor({ state: 'detached' })
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).last()
const fieldError = (page: Page) => page.locator('.ant-form-item-explain-error')

async function detail(id: number) {
  return api('GET', `/org/detail?orgId=${id}`, { token })
}

async function positionsOf(orgId: number, stationName?: string) {
  const res = await api<{ list: { id: number; stationId: number; stationName: string }[]; total: number }>(
    'POST',
    '/position/list/for/org',
    { token, body: { orgId, pageNum: 1, pageSize: 100, stationName } },
  )
  return res.data
}

function findNode(nodes: TreeNode[], id: number): TreeNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node
    const found = findNode(node.children ?? [], id)
    if (found) return found
  }
  return undefined
}

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
})
afterAll(async () => {
  await browser?.close()
})

describe('department management (SPEC.md §2)', () => {
  it('tree menu, add child and grandchild, edit, delete refusal, job title links, delete', async () => {
    const ts = Date.now()
    const tree = (await api<TreeNode[]>('GET', '/org/tree', { token })).data
    const root = tree[0]
    expect(root.parent).toBeNull()

    const page = await newPage(browser)
    await signIn(page)
    await page.goto('/orgmanage')
    await page.waitForURL('**/orgmanage/orgaddform')
    await treeNode(page, root.organizationName).waitFor()

    // the root offers only 新增下级
    expect(await contextMenu(page, root.organizationName)).toEqual(['新增下级'])
    await shot(page, 'org-root-menu')
    await page.getByTestId('org-context-menu').getByText('新增下级').click()
    await page.waitForURL(
      (u) =>
        u.pathname === '/orgmanage/orgaddform' &&
        u.searchParams.get('parent') === String(root.id) &&
        u.searchParams.get('parentName') === root.organizationName,
    )
    await expect.poll(() => page.getByTestId('org-parent-name').textContent()).toBe(root.organizationName)

    // validation: empty, then a '-'
    await page.getByRole('button', { name: /^创\s*建$/ }).click()
    await expect.poll(() => fieldError(page).allTextContents()).toEqual(['请输入部门名称'])
    await page.getByPlaceholder('请输入部门名称').fill('研发-一部')
    await expect.poll(() => fieldError(page).allTextContents()).toEqual(["部门名称不能包含'-'"])
    await shot(page, 'org-add-validation')

    // create the child: leads to its edit screen
    const childName = `E2E部门${ts}`
    await page.getByPlaceholder('请输入部门名称').fill(childName)
    await page.getByPlaceholder('请输入部门描述').fill('端到端测试部门')
    await page.getByRole('button', { name: /^创\s*建$/ }).click()
    await toast(page, '创建成功').waitFor()
    await page.waitForURL(/\/orgmanage\/editform\/orgbaseinfo\?id=\d+$/)
    const childId = Number(new URL(page.url()).searchParams.get('id'))
    const child = await detail(childId)
    expect(child.status).toBe(200)
    expect(child.data).toMatchObject({
      organizationName: childName,
      description: '端到端测试部门',
      parent: root.id,
    })
    await expect.poll(() => page.getByPlaceholder('请输入部门名称').inputValue()).toBe(childName)
    await treeNode(page, childName).waitFor() // the tree refreshed
    await shot(page, 'org-child-created')

    // a non-root department offers edit, add child and delete; add a grandchild
    expect(await contextMenu(page, childName)).toEqual(['编辑', '新增下级', '删除'])
    await page.getByTestId('org-context-menu').getByText('新增下级').click()
    await page.waitForURL((u) => u.searchParams.get('parent') === String(childId))
    // the add form has replaced the edit form (navigations render in a transition)
    await expect.poll(() => page.getByTestId('org-parent-name').textContent()).toBe(childName)
    const grandName = `E2E子部门${ts}`
    await page.getByPlaceholder('请输入部门名称').fill(grandName)
    await page.getByRole('button', { name: /^创\s*建$/ }).click()
    await page.waitForURL(
      (u) =>
        u.pathname === '/orgmanage/editform/orgbaseinfo' &&
        !!u.searchParams.get('id') &&
        u.searchParams.get('id') !== String(childId),
    )
    const grandId = Number(new URL(page.url()).searchParams.get('id'))
    expect(grandId).not.toBe(childId)
    expect((await detail(grandId)).data).toMatchObject({ organizationName: grandName, parent: childId })
    await treeNode(page, grandName).waitFor()

    // edit the child's base info: 修改 saves, 重置 restores the loaded values
    await chooseFromMenu(page, childName, '编辑')
    await page.waitForURL(`**/orgmanage/editform/orgbaseinfo?id=${childId}`)
    await expect.poll(() => page.getByTestId('org-complete-name').textContent()).toContain(childName)
    await expect.poll(() => page.getByPlaceholder('请输入部门名称').inputValue()).toBe(childName)
    const renamed = `${childName}改`
    await page.getByPlaceholder('请输入部门名称').fill(renamed)
    await page.getByPlaceholder('请输入部门描述').fill('修改后的描述')
    await page.getByRole('button', { name: /^修\s*改$/ }).click()
    await toast(page, '修改成功').waitFor()
    expect((await detail(childId)).data).toMatchObject({
      organizationName: renamed,
      description: '修改后的描述',
    })
    await treeNode(page, renamed).waitFor()
    await page.getByPlaceholder('请输入部门名称').fill('不会保存的名称')
    await page.getByPlaceholder('请输入部门描述').fill('不会保存的描述')
    await page.getByRole('button', { name: /^重\s*置$/ }).click()
    await expect.poll(() => page.getByPlaceholder('请输入部门名称').inputValue()).toBe(renamed)
    await expect.poll(() => page.getByPlaceholder('请输入部门描述').inputValue()).toBe('修改后的描述')
    // a '-' is refused on edit too, without a call
    await page.getByPlaceholder('请输入部门名称').fill('a-b')
    await page.getByRole('button', { name: /^修\s*改$/ }).click()
    await expect.poll(() => fieldError(page).allTextContents()).toEqual(["部门名称不能包含'-'"])
    await page.getByRole('button', { name: /^重\s*置$/ }).click()
    expect((await detail(childId)).data.organizationName).toBe(renamed)
    await shot(page, 'org-base-info')

    // deleting a department with a sub-department: the server's refusal is shown
    await chooseFromMenu(page, renamed, '删除')
    const confirm = page.locator('.ant-modal-confirm')
    await confirm.waitFor()
    expect(await confirm.textContent()).toContain(renamed)
    await confirm.getByRole('button', { name: /^确\s*定$/ }).click()
    await toast(page, '该部门下还有子部门，不能删除').waitFor()
    await shot(page, 'org-delete-refused')
    expect((await detail(childId)).status).toBe(200)

    // job titles to link (created through the API)
    const stationNames = [`E2E职位甲${ts}`, `E2E职位乙${ts}`, `E2E职位丙${ts}`]
    const stationIds: number[] = []
    for (const stationName of stationNames) {
      const res = await api<number>('POST', '/station/insert', {
        token,
        body: { stationName, type: 1, orgIds: [] },
      })
      expect(res.code).toBe(200)
      stationIds.push(res.data)
    }

    // the department-position tab
    await page.getByRole('tab', { name: '关联职位' }).click()
    await page.waitForURL(`**/orgmanage/editform/orgrelstation?id=${childId}`)
    await page.getByRole('heading', { name: '部门职位关联' }).waitFor()
    expect(await page.locator('.amg-link-panel .ant-table-row').count()).toBe(0)

    await page.getByRole('button', { name: '关联职位' }).click()
    const pop = page.getByTestId('link-candidates')
    await pop.waitFor()
    const linkButton = pop.getByRole('button', { name: /^关\s*联$/ })
    expect(await linkButton.isDisabled()).toBe(true)
    await pop.getByPlaceholder('按职位名称搜索').fill(`${ts}`)
    await pop.getByPlaceholder('按职位名称搜索').press('Enter')
    await expect.poll(() => pop.locator('.ant-table-row').count()).toBe(3)
    for (const name of stationNames.slice(0, 2)) {
      await pop.locator('.ant-table-row', { hasText: name }).locator('.ant-checkbox-input').check()
    }
    expect(await linkButton.isDisabled()).toBe(false)
    await shot(page, 'org-link-popover')
    await linkButton.click()
    await toast(page, '操作成功!').waitFor()
    await expect.poll(() => page.locator('.amg-link-panel .ant-table-row').count()).toBe(2)
    let linked = await positionsOf(childId)
    expect(linked.total).toBe(2)
    expect(linked.list.map((p) => p.stationId).sort()).toEqual(stationIds.slice(0, 2).sort())
    const rows = await page.locator('.amg-link-panel .ant-table-row').allTextContents()
    expect(rows.some((r) => r.includes(String(stationIds[0])) && r.includes(stationNames[0]))).toBe(true)

    // the popover now lists only the job title not yet linked
    await page.getByRole('button', { name: '关联职位' }).click()
    await pop.getByPlaceholder('按职位名称搜索').fill(`${ts}`)
    await pop.getByPlaceholder('按职位名称搜索').press('Enter')
    await expect
      .poll(() => pop.locator('.ant-table-row').allTextContents())
      .toEqual([expect.stringContaining(stationNames[2])])
    await page.keyboard.press('Escape')
    await page.getByRole('heading', { name: '部门职位关联' }).click()

    // search the linked table by job title
    const search = page.locator('.amg-link-panel').getByPlaceholder('按职位名称搜索')
    await search.fill(stationNames[1])
    await search.press('Enter')
    await expect.poll(() => page.locator('.amg-link-panel .ant-table-row').count()).toBe(1)
    expect(await page.locator('.amg-link-panel .ant-table-row').textContent()).toContain(stationNames[1])
    await shot(page, 'org-positions-search')

    // unlink with the confirmation
    await page
      .locator('.amg-link-panel .ant-table-row')
      .getByRole('button', { name: /^移\s*除$/ })
      .click()
    const pop2 = page.locator('.ant-popconfirm')
    await pop2.waitFor()
    expect(await pop2.textContent()).toContain('确定要移除职位关联吗？')
    await shot(page, 'org-unlink-confirm')
    await pop2.getByRole('button', { name: /^确\s*定$/ }).click()
    await toast(page, '操作成功!').waitFor()
    await expect.poll(() => page.locator('.amg-link-panel .ant-table-row').count()).toBe(0)
    linked = await positionsOf(childId)
    expect(linked.list.map((p) => p.stationId)).toEqual([stationIds[0]])

    // delete the grandchild, then the child
    await chooseFromMenu(page, grandName, '删除')
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /^确\s*定$/ })
      .click()
    await toast(page, '删除成功').waitFor()
    await expect.poll(async () => (await detail(grandId)).status).toBe(404)
    await treeNode(page, grandName).waitFor({ state: 'detached' })

    await chooseFromMenu(page, renamed, '删除')
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /^确\s*定$/ })
      .click()
    await toast(page, '删除成功').waitFor()
    await expect.poll(async () => (await detail(childId)).status).toBe(404)
    // its positions went with it
    const station = await api<{ stationPositionVOS: { orgId: number }[] }>(
      'GET',
      `/station/detail?stationId=${stationIds[0]}`,
      { token },
    )
    expect(station.data.stationPositionVOS.map((p) => p.orgId)).not.toContain(childId)
    await treeNode(page, renamed).waitFor({ state: 'detached' })
    // the edit screen of the deleted department is left
    await page.waitForURL('**/orgmanage/orgaddform')
    const after = (await api<TreeNode[]>('GET', '/org/tree', { token })).data
    expect(findNode(after, childId)).toBeUndefined()
    await shot(page, 'org-deleted')

    for (const id of stationIds) await api('DELETE', `/station/delete?stationId=${id}`, { token })
    await page.context().close()
  })

  it('a tree of many departments renders only the rows in view and finds one by search', async () => {
    const ts = Date.now()
    const tree = (await api<TreeNode[]>('GET', '/org/tree', { token })).data
    const root = tree[0]
    const parent = await api<number>('POST', '/org/insert', {
      token,
      body: { organizationName: `E2E大部门${ts}`, parent: root.id, stationIds: [] },
    })
    const ids = await inBatches(300, async (i) => {
      const res = await api<number>('POST', '/org/insert', {
        token,
        body: { organizationName: `E2E批量${ts}号${i}`, parent: parent.data, stationIds: [] },
      })
      return res.data
    })

    const page = await newPage(browser)
    await signIn(page)
    await page.goto(`/orgmanage/orgeditform?id=${ids[0]}`)
    await page.waitForURL(`**/orgmanage/editform/orgbaseinfo?id=${ids[0]}`)
    // the selected department's ancestors open, so its 300 siblings are in the tree…
    await treeNode(page, `E2E批量${ts}号0`).waitFor()
    // …but only the rows in view are rendered
    const rendered = await page.locator('[data-testid="org-tree"] .ant-tree-treenode').count()
    expect(rendered).toBeLessThan(80)
    await shot(page, 'org-many')

    // search narrows the tree to matches and their ancestors
    const started = Date.now()
    await page.getByPlaceholder('输入部门名称进行过滤').fill(`${ts}号299`)
    await treeNode(page, `E2E批量${ts}号299`).waitFor()
    expect(Date.now() - started).toBeLessThan(3000)
    await expect
      .poll(
        async () => (await page.locator('[data-testid="org-tree"] .ant-tree-title').allTextContents()).length,
      )
      .toBe(3) // root, the parent, the match
    expect(await contextMenu(page, `E2E批量${ts}号299`)).toEqual(['编辑', '新增下级', '删除'])
    await page.getByTestId('org-context-menu').getByText('编辑').click()
    await page.waitForURL(`**/orgmanage/editform/orgbaseinfo?id=${ids[299]}`)
    await shot(page, 'org-many-search')

    await inBatches(ids.length, (i) => api('DELETE', `/org/delete?orgId=${ids[i]}`, { token }))
    await api('DELETE', `/org/delete?orgId=${parent.data}`, { token })
    await page.context().close()
  })

  it('a big tree loads level by level: the roots, a level as it opens, a deep one found by search', async () => {
    const ts = Date.now()
    const [root] = (await api<TreeNode[]>('GET', '/org/tree?roots=1', { token })).data
    const add = async (organizationName: string, parent: number) => {
      const res = await api<number>('POST', '/org/insert', {
        token,
        body: { organizationName, parent, stationIds: [] },
      })
      expect(res.code, res.msg).toBe(200)
      return res.data
    }
    // 1 + 20 + 200 departments, and one more three levels down
    const top = `E2E层级${ts}`
    const topId = await add(top, root.id)
    const branches: number[] = []
    for (let i = 0; i < 20; i++) branches.push(await add(`${top}部${i}`, topId))
    const groups: number[] = []
    for (let i = 0; i < 20; i += 5)
      groups.push(
        ...(await Promise.all(
          branches
            .slice(i, i + 5)
            .flatMap((b, j) => Array.from({ length: 10 }, (_, k) => add(`${top}部${i + j}组${k}`, b))),
        )),
      )
    const deepName = `E2E深处${ts}`
    const deepId = await add(deepName, groups[73]) // under 部7组3

    const page = await newPage(browser, { width: 1280, height: 800 })
    const treeCalls: URL[] = []
    page.on('request', (req) => {
      const url = new URL(req.url())
      if (url.pathname === '/api/org/tree') treeCalls.push(url)
    })
    await signIn(page)
    await page.goto('/orgmanage')
    await page.waitForURL('**/orgmanage/orgaddform')
    const toEnd = () =>
      page
        .locator('[data-testid="org-tree"] .ant-tree-list-holder')
        .evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
    const row = (name: string) =>
      page.locator('[data-testid="org-tree"] .ant-tree-treenode', {
        has: page.locator('.ant-tree-title').filter({ hasText: new RegExp(`^${escape(name)}$`) }),
      })
    /** The tree renders only the rows in view: scroll to its end (where the new ones are) until it shows. */
    const atEnd = (name: string) =>
      expect
        .poll(
          async () => {
            await toEnd()
            return treeNode(page, name).count()
          },
          { timeout: 20_000 },
        )
        .toBe(1)
    await atEnd(top)
    // the roots and the root's children only: nothing under the new department is read yet
    expect(await treeNode(page, `${top}部0`).count()).toBe(0)
    expect(treeCalls.map((u) => u.search).sort()).toEqual([`?parentId=${root.id}`, '?roots=1'].sort())
    await shot(page, 'org-levels-roots')

    // opening it reads its level (one call), and shows its 20 children, each still closed
    await row(top).locator('.ant-tree-switcher').click()
    await atEnd(`${top}部19`)
    expect(treeCalls.filter((u) => u.searchParams.get('parentId') === String(topId))).toHaveLength(1)
    expect(await treeNode(page, `${top}部19组0`).count()).toBe(0)
    await shot(page, 'org-levels-opened')

    // a search asks the server, and shows the deep hit under its path
    await page.getByPlaceholder('输入部门名称进行过滤').fill(deepName)
    await treeNode(page, deepName).waitFor()
    await expect
      .poll(() => page.locator('[data-testid="org-tree"] .ant-tree-title').allTextContents())
      .toEqual([root.organizationName, top, `${top}部7`, `${top}部7组3`, deepName])
    expect(treeCalls.some((u) => u.searchParams.get('keyword') === deepName)).toBe(true)
    await shot(page, 'org-levels-search')
    // choosing the hit opens its edit form; clearing the search shows it in the tree, its path opened
    await treeNode(page, deepName).click()
    await page.waitForURL(`**/orgmanage/editform/orgbaseinfo?id=${deepId}`)
    await expect.poll(() => page.getByPlaceholder('请输入部门名称').inputValue()).toBe(deepName)
    // …and the tree scrolls to it
    await page.getByPlaceholder('输入部门名称进行过滤').fill('')
    await treeNode(page, deepName).waitFor()
    await expect.poll(() => inView(page, deepName)).toBe(true)
    // never the whole tree, from this screen
    expect(treeCalls.filter((u) => u.search === '')).toEqual([])
    await page.context().close()

    // a phone: the same screen, the path to the department opened from its link
    const phone = await newPage(browser, { width: 390, height: 844 })
    await signIn(phone)
    await phone.goto(`/orgmanage/orgeditform?id=${deepId}`)
    await phone.waitForURL(`**/orgmanage/editform/orgbaseinfo?id=${deepId}`)
    await treeNode(phone, deepName).waitFor() // opened…
    await expect.poll(() => inView(phone, deepName)).toBe(true) // …and scrolled to
    await shot(phone, 'org-levels-phone')
    await phone.getByPlaceholder('输入部门名称进行过滤').fill(`${top}部7组`)
    await treeNode(phone, `${top}部7组9`).waitFor()
    await shot(phone, 'org-levels-phone-search')
    await phone.context().close()

    // children before their parents: a department with children is not deleted
    const remove = async (id: number) =>
      expect((await api('DELETE', `/org/delete?orgId=${id}`, { token })).code).toBe(200)
    for (const level of [[deepId], groups, branches, [topId]])
      await inBatches(level.length, (i) => remove(level[i]))
  })
})
