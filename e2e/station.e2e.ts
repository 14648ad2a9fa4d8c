import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, apiLogin, launchBrowser, newPage, settledScreenshot as shot, signIn } from './helpers'

let browser: Browser
let token: string

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).last()
const fieldErrors = async (page: Page) =>
  (await page.locator('.ant-form-item-explain-error').allTextContents()).map((t) => t.trim())
const squash = (texts: string[]) => texts.map((t) => t.replace(/\s+/g, ''))

/** The department tree's row with exactly this name. */
function orgRow(page: Page, name: string): Locator {
  return page
    .locator('[data-testid="station-org-tree"] .ant-tree-treenode')
    .filter({ has: page.locator('.ant-tree-title', { hasText: new RegExp(`^${escape(name)}$`) }) })
}

async function filterTree(page: Page, text: string) {
  await page.getByTestId('station-org-tree').getByPlaceholder('输入部门名称进行过滤').fill(text)
}

async function breadcrumb(page: Page): Promise<string[]> {
  const items = page.locator('.ant-breadcrumb li:not(.ant-breadcrumb-separator)')
  return (await items.allTextContents()).map((t) => t.trim()).filter((t) => t !== '' && t !== '/')
}

interface StationDetail {
  id: number
  stationName: string
  type: number
  orgIds: number[]
  stationPositionVOS: { orgId: number; stationId: number }[]
}

async function findStations(stationName: string) {
  return (
    await api<{ list: { id: number; stationName: string }[]; total: number }>('POST', '/station/list', {
      token,
      body: { stationName, pageNum: 1, pageSize: 10 },
    })
  ).data
}

const stationDetail = async (id: number) =>
  (await api<StationDetail>('GET', `/station/detail?stationId=${id}`, { token })).data

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
})
afterAll(async () => {
  await browser?.close()
})

describe('job title management (SPEC.md §2)', () => {
  it('create with messages, search, edit with departments, read-only view, delete', async () => {
    const ts = Date.now()
    const root = (await api<{ id: number }[]>('GET', '/org/tree', { token })).data[0]
    const deptA = `E2E职位部门甲${ts}`
    const deptB = `E2E职位部门乙${ts}`
    const orgA = (
      await api<number>('POST', '/org/insert', {
        token,
        body: { organizationName: deptA, parent: root.id, stationIds: [] },
      })
    ).data
    const orgB = (
      await api<number>('POST', '/org/insert', {
        token,
        body: { organizationName: deptB, parent: root.id, stationIds: [] },
      })
    ).data

    const page = await newPage(browser)
    // the form's department tree is read level by level and searched on the server, never whole
    const treeCalls: URL[] = []
    page.on('request', (req) => {
      const url = new URL(req.url())
      if (url.pathname === '/api/org/tree') treeCalls.push(url)
    })
    await signIn(page)
    await page.goto('/stationmanage')
    await page.getByRole('heading', { name: '职位管理', exact: true }).waitFor()

    // create: the messages, then success back to the list
    await page.getByRole('button', { name: /^新\s*建$/ }).click()
    await page.waitForURL('**/stationmanage/addstation')
    await page.getByRole('heading', { name: '新建职位', exact: true }).waitFor()
    await page.getByRole('button', { name: /^创\s*建$/ }).click()
    await expect.poll(() => fieldErrors(page)).toEqual(['必须输入职位名称'])
    // the type defaults to 普通职位; cleared, it is required
    const typeSelect = page.locator('.ant-form-item', { hasText: '职位类型' }).locator('.ant-select')
    expect(await typeSelect.textContent()).toContain('普通职位')
    await typeSelect.hover()
    await typeSelect.locator('.ant-select-clear').click()
    await page.getByRole('button', { name: /^创\s*建$/ }).click()
    await expect.poll(() => fieldErrors(page)).toEqual(['必须输入职位名称', '必须选择职位类型'])
    await shot(page, 'station-add-validation')

    const name = `E2E职位${ts}`
    await page.getByPlaceholder('请输入职位名称').fill(name)
    await typeSelect.click()
    await page.locator('.ant-select-item-option', { hasText: '普通职位' }).click()
    await filterTree(page, deptA)
    await orgRow(page, deptA).locator('.ant-tree-checkbox').click()
    await expect.poll(() => orgRow(page, deptA).locator('.ant-tree-checkbox-checked').count()).toBe(1)
    await expect.poll(() => fieldErrors(page)).toEqual([])
    await shot(page, 'station-add-filled')
    await page.getByRole('button', { name: /^创\s*建$/ }).click()
    await toast(page, '创建成功').waitFor()
    await page.waitForURL((u) => u.pathname === '/stationmanage')
    const created = await findStations(name)
    expect(created.total).toBe(1)
    const id = created.list[0].id
    let station = await stationDetail(id)
    expect(station).toMatchObject({ stationName: name, type: 1 })
    expect(station.stationPositionVOS.map((p) => p.orgId)).toEqual([orgA])

    // list search by stationName
    const search = page.getByPlaceholder('按职位名称搜索')
    await search.fill(name)
    await search.press('Enter')
    const rows = page.locator('.ant-table-tbody .ant-table-row')
    await expect.poll(() => rows.count()).toBe(1)
    expect(await rows.first().textContent()).toContain(name)
    expect(await rows.first().textContent()).toContain('普通职位')
    await shot(page, 'station-list-search')
    await search.fill(`不存在的职位${ts}`)
    await search.press('Enter')
    await expect.poll(() => page.locator('.ant-table-tbody .ant-empty').count()).toBe(1)
    await search.fill(name)
    await search.press('Enter')
    await expect.poll(() => rows.count()).toBe(1)

    // edit: loaded values, department A checked; move it to department B and rename
    await rows
      .first()
      .getByRole('button', { name: /^修\s*改$/ })
      .click()
    await page.waitForURL(
      (u) => u.pathname === '/stationmanage/editstation' && u.searchParams.get('id') === String(id),
    )
    await page.getByRole('heading', { name: '修改职位', exact: true }).waitFor()
    await expect.poll(() => breadcrumb(page)).toEqual(['首页', '职位管理', '修改职位'])
    await expect.poll(() => page.getByPlaceholder('请输入职位名称').inputValue()).toBe(name)
    await filterTree(page, `${ts}`)
    await expect.poll(() => orgRow(page, deptA).locator('.ant-tree-checkbox-checked').count()).toBe(1)
    expect(await orgRow(page, deptB).locator('.ant-tree-checkbox-checked').count()).toBe(0)
    await page.getByPlaceholder('请输入职位名称').fill('')
    await page.getByRole('button', { name: /^修\s*改$/ }).click()
    await expect.poll(() => fieldErrors(page)).toEqual(['必须输入职位名称'])
    const renamed = `${name}改`
    await page.getByPlaceholder('请输入职位名称').fill(renamed)
    await orgRow(page, deptA).locator('.ant-tree-checkbox').click()
    await orgRow(page, deptB).locator('.ant-tree-checkbox').click()
    await shot(page, 'station-edit')
    await page.getByRole('button', { name: /^修\s*改$/ }).click()
    await toast(page, '修改成功').waitFor()
    await page.waitForURL((u) => u.pathname === '/stationmanage')
    station = await stationDetail(id)
    expect(station.stationName).toBe(renamed)
    expect(station.stationPositionVOS.map((p) => p.orgId)).toEqual([orgB])

    // view: read-only, breadcrumb 首页 / 职位管理 / 新建职位, the checked tree all disabled, only 返回
    await search.fill(renamed)
    await search.press('Enter')
    await expect.poll(() => rows.count()).toBe(1)
    await rows
      .first()
      .getByRole('button', { name: /^查\s*看$/ })
      .click()
    await page.waitForURL(
      (u) => u.pathname === '/stationmanage/viewstation' && u.searchParams.get('id') === String(id),
    )
    await expect.poll(() => breadcrumb(page)).toEqual(['首页', '职位管理', '新建职位'])
    await expect.poll(() => page.getByPlaceholder('请输入职位名称').inputValue()).toBe(renamed)
    expect(await page.getByPlaceholder('请输入职位名称').isDisabled()).toBe(true)
    const viewType = page.locator('.ant-form-item', { hasText: '职位类型' }).locator('.ant-select')
    expect(await viewType.textContent()).toContain('普通职位')
    expect(await viewType.getAttribute('class')).toContain('ant-select-disabled')
    await filterTree(page, `${ts}`)
    await expect.poll(() => orgRow(page, deptB).locator('.ant-tree-checkbox-checked').count()).toBe(1)
    expect(await orgRow(page, deptA).locator('.ant-tree-checkbox-checked').count()).toBe(0)
    const tree = page.getByTestId('station-org-tree')
    expect(await tree.locator('.ant-tree-treenode-disabled .ant-tree-title').count()).toBe(3) // root, A, B
    expect(
      await tree.locator('.ant-tree-treenode:not(.ant-tree-treenode-disabled) .ant-tree-title').count(),
    ).toBe(0)
    // clicking a disabled checkbox changes nothing
    await orgRow(page, deptA).locator('.ant-tree-checkbox').click({ force: true })
    expect(await orgRow(page, deptA).locator('.ant-tree-checkbox-checked').count()).toBe(0)
    expect(squash(await page.locator('form .ant-btn').allTextContents())).toEqual(['返回'])
    await shot(page, 'station-view')
    expect(treeCalls.some((u) => u.searchParams.get('keyword') === `${ts}`)).toBe(true)
    expect(treeCalls.filter((u) => u.search === '')).toEqual([])
    await page
      .locator('form')
      .getByRole('button', { name: /^返\s*回$/ })
      .click()
    await page.waitForURL((u) => u.pathname === '/stationmanage')

    // delete: cancel first, then confirm
    await search.fill(renamed)
    await search.press('Enter')
    await expect.poll(() => rows.count()).toBe(1)
    await rows
      .first()
      .getByRole('button', { name: /^删\s*除$/ })
      .click()
    const confirm = page.locator('.ant-popconfirm')
    await confirm.waitFor()
    expect(await confirm.textContent()).toContain(renamed)
    await confirm.getByRole('button', { name: /^取\s*消$/ }).click()
    await toast(page, '已取消删除').waitFor()
    expect((await findStations(renamed)).total).toBe(1)
    await rows
      .first()
      .getByRole('button', { name: /^删\s*除$/ })
      .click()
    await shot(page, 'station-delete-confirm')
    await page
      .locator('.ant-popconfirm:visible')
      .getByRole('button', { name: /^确\s*定$/ })
      .click()
    await toast(page, '删除成功').waitFor()
    await expect.poll(async () => (await findStations(renamed)).total).toBe(0)
    await expect.poll(() => page.locator('.ant-table-tbody .ant-empty').count()).toBe(1)
    await shot(page, 'station-deleted')

    await api('DELETE', `/org/delete?orgId=${orgA}`, { token })
    await api('DELETE', `/org/delete?orgId=${orgB}`, { token })
    await page.context().close()
  })
})
