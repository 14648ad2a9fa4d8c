import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { confirmDeletePosition } from '@amg/contract'
import { api, apiLogin, launchBrowser, newPage, settledScreenshot, signIn } from './helpers'

/**
 * Position management (SPEC.md §2): the department cascader with child counts (any level), the
 * job-title filter, merged department cells, the enable/disable toggle, delete with its exact
 * confirmation (cancelled and confirmed), the links screen with its role and user tabs, pagination.
 * Everything the screen does is checked against what the server then holds.
 */

let browser: Browser
let page: Page
let token: string

const s = Date.now().toString(36)
const NAMES = {
  parent: `岗位中心${s}`,
  childA: `前端组${s}`,
  childB: `后端组${s}`,
  many: `分页部${s}`,
  stationA: `开发工程师${s}`,
  stationB: `测试工程师${s}`,
  role1: `岗位角色一${s}`,
  role2: `岗位角色二${s}`,
  user1: `岗位用户一${s}`,
  user2: `岗位用户二${s}`,
}

interface Tree {
  id: number
  organizationName: string
  organizationCompleteName: string
  childCount: number
  children: Tree[]
}
interface PositionRow {
  id: number
  orgId: number
  stationId: number
  organizationCompleteName: string
  stationName: string
  status: number
}

const ids = {} as Record<
  | 'root'
  | 'parent'
  | 'childA'
  | 'childB'
  | 'many'
  | 'stationA'
  | 'stationB'
  | 'role1'
  | 'role2'
  | 'user1'
  | 'user2',
  number
>
let rootName = ''
let fullParent = ''
let fullChildA = ''
let fullChildB = ''
let fullMany = ''

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}

async function serverPositions(body: { orgId?: number; stationId?: number }) {
  return ok(
    api<{ list: PositionRow[]; total: number }>('POST', '/position/list', {
      token,
      body: { pageNum: 1, pageSize: 100, ...body },
    }),
  )
}

const shot = (name: string) => settledScreenshot(page, name)

const rows = () => page.locator('.ant-table-tbody tr.ant-table-row')
const toast = (text: string) => page.locator('.ant-message-notice', { hasText: text }).last()
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const exactly = (text: string) => new RegExp(`^${escapeRe(text)}$`)

/** The table row whose own cells include one with exactly this text. */
const rowWithCell = (text: string) => rows().filter({ has: page.locator('td', { hasText: exactly(text) }) })

/** A row of the link panel's own table (not of the candidates' popover) with a cell of exactly this text. */
const linkedRow = (text: string) =>
  page
    .locator('.amg-link-panel .ant-table-tbody tr.ant-table-row')
    .filter({ has: page.locator('td', { hasText: exactly(text) }) })

/** Waits until the candidates' popover lists exactly these names (its search has answered). */
async function candidatesAre(names: string[]) {
  const list = page.locator('[data-testid="link-candidates"] .ant-table-tbody tr.ant-table-row')
  await expect
    .poll(async () => (await list.allTextContents()).map((t) => names.find((n) => t.includes(n)) ?? t))
    .toEqual(expect.arrayContaining(names))
  await expect.poll(() => list.count()).toBe(names.length)
}

/** Opens the department cascader and clicks through the given option labels (any level can be chosen). */
async function chooseDepartment(labels: (string | RegExp)[]) {
  await page.getByRole('combobox', { name: '部门' }).click()
  for (const [level, label] of labels.entries()) {
    const menu = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu').nth(level)
    await menu.locator('.ant-cascader-menu-item', { hasText: label }).click()
  }
  await page.keyboard.press('Escape')
  await page.locator('.ant-cascader-dropdown:visible').waitFor({ state: 'hidden' })
}

async function clearDepartment() {
  const select = page.locator('.ant-cascader').first()
  await select.hover()
  const clear = select.locator('.ant-select-clear')
  if (await clear.isVisible()) await clear.click()
}

async function chooseStation(name: string | null) {
  const box = page.getByRole('combobox', { name: '职位' })
  if (name === null) {
    const select = page.locator('.ant-select', { has: box })
    await select.hover()
    const clear = select.locator('.ant-select-clear')
    if (await clear.isVisible()) await clear.click()
    return
  }
  await box.click()
  await box.fill(name)
  await page.locator('.ant-select-item-option', { hasText: exactly(name) }).click()
}

async function search(expectedTotal: number) {
  await page.getByRole('button', { name: /查\s*询$/ }).click()
  await expect
    .poll(() => page.locator('.ant-pagination-total-text').textContent())
    .toBe(`共 ${expectedTotal} 条`)
  await page
    .locator('.ant-table .ant-spin-spinning')
    .waitFor({ state: 'detached' })
    .catch(() => {})
}

async function buttonIn(row: Locator, name: RegExp) {
  await row.getByRole('button', { name }).click()
}

beforeAll(async () => {
  token = await apiLogin()
  const tree = await ok(api<Tree[]>('GET', '/org/tree', { token }))
  ids.root = tree[0].id
  rootName = tree[0].organizationName

  ids.stationA = await ok(
    api<number>('POST', '/station/insert', { token, body: { stationName: NAMES.stationA, type: 1 } }),
  )
  ids.stationB = await ok(
    api<number>('POST', '/station/insert', { token, body: { stationName: NAMES.stationB, type: 1 } }),
  )
  const manyStations: number[] = []
  for (let i = 1; i <= 12; i++) {
    manyStations.push(
      await ok(
        api<number>('POST', '/station/insert', {
          token,
          body: { stationName: `分页职位${String(i).padStart(2, '0')}${s}`, type: 1 },
        }),
      ),
    )
  }

  // Two levels: parent (job title A) with children A (titles A, B) and B (title B); positions by org insert.
  ids.parent = await ok(
    api<number>('POST', '/org/insert', {
      token,
      body: { organizationName: NAMES.parent, parent: ids.root, stationIds: [ids.stationA] },
    }),
  )
  ids.childA = await ok(
    api<number>('POST', '/org/insert', {
      token,
      body: { organizationName: NAMES.childA, parent: ids.parent, stationIds: [ids.stationA, ids.stationB] },
    }),
  )
  ids.childB = await ok(
    api<number>('POST', '/org/insert', {
      token,
      body: { organizationName: NAMES.childB, parent: ids.parent, stationIds: [ids.stationB] },
    }),
  )
  // A department with 12 positions through the batch insert, for pagination and a long merged cell.
  ids.many = await ok(
    api<number>('POST', '/org/insert', { token, body: { organizationName: NAMES.many, parent: ids.root } }),
  )
  await ok(
    api('PUT', '/position/batch/insert', { token, body: { orgId: ids.many, stationIds: manyStations } }),
  )

  fullParent = `${rootName}-${NAMES.parent}`
  fullChildA = `${fullParent}-${NAMES.childA}`
  fullChildB = `${fullParent}-${NAMES.childB}`
  fullMany = `${rootName}-${NAMES.many}`

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

describe('position management', () => {
  it('opens the list with the filters and the table', async () => {
    await page.goto('/positionmanage')
    await page.getByRole('heading', { name: '岗位管理', exact: true }).waitFor()
    await page.getByRole('combobox', { name: '部门' }).waitFor()
    await page.getByRole('combobox', { name: '职位' }).waitFor()
    await rows().first().waitFor()
    const headers = await page.locator('.ant-table-thead th').allTextContents()
    expect(headers.map((h) => h.trim())).toEqual(['部门', '职位', '状态', '类型', '操作'])
    await shot('position-list')
  })

  it('shows child counts in the cascader and filters by a parent department, sub-departments included', async () => {
    await page.getByRole('combobox', { name: '部门' }).click()
    const rootItem = page
      .locator('.ant-cascader-menu')
      .nth(0)
      .locator('.ant-cascader-menu-item', {
        hasText: new RegExp(`^${escapeRe(rootName)} \\(\\d+\\)$`),
      })
    await rootItem.click()
    const parentItem = page
      .locator('.ant-cascader-menu')
      .nth(1)
      .locator('.ant-cascader-menu-item', {
        hasText: exactly(`${NAMES.parent} (2)`),
      })
    await parentItem.scrollIntoViewIfNeeded()
    await parentItem.click()
    const children = page.locator('.ant-cascader-menu').nth(2).locator('.ant-cascader-menu-item')
    await expect
      .poll(() => children.allTextContents())
      .toEqual([`${NAMES.childA} (0)`, `${NAMES.childB} (0)`])
    await shot('position-cascader')
    await page.keyboard.press('Escape')

    await search(4)
    // Parent's own position and those of both children.
    expect(await rows().count()).toBe(4)
    for (const name of [fullParent, fullChildA, fullChildB])
      expect(await page.locator('.ant-table-tbody td', { hasText: exactly(name) }).count()).toBe(1)

    // The two positions of child A share one department cell spanning two rows.
    const merged = page.locator('.ant-table-tbody td', { hasText: exactly(fullChildA) })
    expect(await merged.getAttribute('rowspan')).toBe('2')
    const childARows = rows().filter({ has: page.locator('td', { hasText: exactly(fullChildA) }) })
    const next = childARows.locator('xpath=following-sibling::tr[1]')
    // The continuation row has no department cell of its own: job title, status, type, actions.
    expect(await next.locator('td').count()).toBe(4)
    expect(await rowWithCell(fullChildA).locator('td').count()).toBe(5)
    const server = await serverPositions({ orgId: ids.parent })
    expect(server.total).toBe(4)
    await shot('position-filter-parent')
  })

  it('filters by a child department', async () => {
    await chooseDepartment([
      new RegExp(`^${escapeRe(rootName)} \\(`),
      `${NAMES.parent} (2)`,
      `${NAMES.childA} (0)`,
    ])
    // The field shows the chosen path by name (the counts belong to the menu only).
    expect(await page.locator('.ant-cascader').first().textContent()).toContain(
      `${rootName} / ${NAMES.parent} / ${NAMES.childA}`,
    )
    await search(2)
    const stations = await rows().locator('td:nth-last-child(4)').allTextContents()
    expect(stations.sort()).toEqual([NAMES.stationA, NAMES.stationB].sort())
    expect(await page.locator('.ant-table-tbody td', { hasText: exactly(fullChildA) }).count()).toBe(1)
  })

  it('filters by job title, alone and with a department', async () => {
    await clearDepartment()
    await chooseStation(NAMES.stationB)
    await search(2)
    expect((await rows().allTextContents()).every((t) => t.includes(NAMES.stationB))).toBe(true)
    expect(await page.locator('.ant-table-tbody td', { hasText: exactly(fullChildA) }).count()).toBe(1)
    expect(await page.locator('.ant-table-tbody td', { hasText: exactly(fullChildB) }).count()).toBe(1)

    await chooseDepartment([
      new RegExp(`^${escapeRe(rootName)} \\(`),
      `${NAMES.parent} (2)`,
      `${NAMES.childB} (0)`,
    ])
    await search(1)
    await shot('position-filter-station')
    await chooseStation(null)
  })

  it('pages 10 per page and merges a department over all its rows', async () => {
    await chooseDepartment([new RegExp(`^${escapeRe(rootName)} \\(`), `${NAMES.many} (0)`])
    await search(12)
    expect(await rows().count()).toBe(10)
    const cell = page.locator('.ant-table-tbody td', { hasText: exactly(fullMany) })
    expect(await cell.count()).toBe(1)
    expect(await cell.getAttribute('rowspan')).toBe('10')
    await shot('position-page-1')

    await page.locator('.ant-pagination-item-2').click()
    await expect.poll(() => rows().count()).toBe(2)
    expect(await cell.getAttribute('rowspan')).toBe('2')
    const server = await ok(
      api<{ list: PositionRow[]; total: number }>('POST', '/position/list', {
        token,
        body: { pageNum: 2, pageSize: 10, orgId: ids.many },
      }),
    )
    expect(server.total).toBe(12)
    expect((await rows().locator('td:nth-last-child(4)').allTextContents()).sort()).toEqual(
      server.list.map((p) => p.stationName).sort(),
    )
    await shot('position-page-2')
  })

  it('disables and enables a position', async () => {
    await chooseDepartment([
      new RegExp(`^${escapeRe(rootName)} \\(`),
      `${NAMES.parent} (2)`,
      `${NAMES.childB} (0)`,
    ])
    await search(1)
    const row = rows().first()
    expect(await row.locator('td').nth(2).textContent()).toBe('启用')
    const [position] = (await serverPositions({ orgId: ids.childB })).list
    expect(position.status).toBe(1)

    await buttonIn(row, /^禁\s*用$/)
    await toast('操作成功!').waitFor()
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('禁用')
    expect((await serverPositions({ orgId: ids.childB })).list[0].status).toBe(2)
    await shot('position-disabled')

    await buttonIn(row, /^启\s*用$/)
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('启用')
    expect((await serverPositions({ orgId: ids.childB })).list[0].status).toBe(1)
  })

  it('asks before deleting: cancel keeps the position, confirm deletes it', async () => {
    const row = rows().first()
    const text = confirmDeletePosition(`${fullChildB}-${NAMES.stationB}`)
    expect(text).toBe(`此操作将永久删除${fullChildB}-${NAMES.stationB}, 是否继续?`)

    await buttonIn(row, /^删\s*除$/)
    const dialog = page.locator('.ant-modal-confirm')
    await dialog.waitFor()
    expect(await dialog.locator('.ant-modal-confirm-content').textContent()).toBe(text)
    await shot('position-delete-confirm')
    await dialog.getByRole('button', { name: /^取\s*消$/ }).click()
    await toast('已取消删除').waitFor()
    expect((await serverPositions({ orgId: ids.childB })).total).toBe(1)
    expect(await rows().count()).toBe(1)

    await buttonIn(row, /^删\s*除$/)
    await dialog.waitFor()
    expect(await dialog.locator('.ant-modal-confirm-content').textContent()).toBe(text)
    await dialog.getByRole('button', { name: /^确\s*定$/ }).click()
    await toast('删除成功').waitFor()
    await expect.poll(() => rows().count()).toBe(0)
    expect((await serverPositions({ orgId: ids.childB })).total).toBe(0)
  })

  it('edits the role and user links of a position', async () => {
    await chooseDepartment([new RegExp(`^${escapeRe(rootName)} \\(`), `${NAMES.parent} (2)`])
    await chooseStation(NAMES.stationA)
    await search(2)
    const [position] = (await serverPositions({ orgId: ids.parent, stationId: ids.stationA })).list.filter(
      (p) => p.orgId === ids.parent,
    )
    const title = `修改${fullParent}-${NAMES.stationA}的关联关系`
    await buttonIn(rowWithCell(fullParent), /修改关联/)
    await page.waitForURL((u) => u.pathname === '/positionmanage/positioninfo/roleform')
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(position.id))
    await page.getByRole('heading', { name: title, exact: true }).waitFor()

    // Roles: link two, remove one with the exact confirmation.
    await page.getByRole('button', { name: '关联角色' }).click()
    const pop = page.locator('[data-testid="link-candidates"]')
    await pop.getByPlaceholder('请输入角色名称').fill(`岗位角色`)
    await pop.getByPlaceholder('请输入角色名称').press('Enter')
    await candidatesAre([NAMES.role1, NAMES.role2])
    for (const name of [NAMES.role1, NAMES.role2])
      await pop.locator('tr', { hasText: name }).locator('.ant-checkbox-input').check()
    await shot('position-link-roles')
    await pop.getByRole('button', { name: /^关\s*联$/ }).click()
    await toast('操作成功!').waitFor()
    await linkedRow(NAMES.role1).waitFor()
    await linkedRow(NAMES.role2).waitFor()
    const linkedRoles = async () =>
      (
        await ok(
          api<{ list: { id: number }[]; total: number }>(
            'POST',
            `/rel/position/rolelist?positionId=${position.id}&pageNum=1&pageSize=100`,
            { token, body: {} },
          ),
        )
      ).list
        .map((r) => r.id)
        .sort()
    expect(await linkedRoles()).toEqual([ids.role1, ids.role2].sort())

    await linkedRow(NAMES.role1)
      .getByRole('button', { name: /移\s*除/ })
      .click()
    const confirm = page.locator('.ant-popconfirm:visible')
    await confirm.getByText('确定要移除该角色关联吗？', { exact: true }).waitFor()
    await shot('position-unlink-role')
    await confirm.getByRole('button', { name: /^确\s*定$/ }).click()
    await expect.poll(() => linkedRow(NAMES.role1).count()).toBe(0)
    expect(await linkedRoles()).toEqual([ids.role2])

    // Users: the second tab, same pattern.
    await page.getByRole('tab', { name: '关联用户' }).click()
    await page.waitForURL((u) => u.pathname === '/positionmanage/positioninfo/userform')
    await page.getByRole('heading', { name: title, exact: true }).waitFor()
    await page.getByRole('button', { name: '关联用户' }).click()
    await pop.getByPlaceholder('请输入用户昵称').fill('岗位用户')
    await pop.getByPlaceholder('请输入用户昵称').press('Enter')
    await candidatesAre([NAMES.user1, NAMES.user2])
    for (const name of [NAMES.user1, NAMES.user2])
      await pop.locator('tr', { hasText: name }).locator('.ant-checkbox-input').check()
    await pop.getByRole('button', { name: /^关\s*联$/ }).click()
    await toast('操作成功!').waitFor()
    await linkedRow(NAMES.user1).waitFor()
    await linkedRow(NAMES.user2).waitFor()
    const linkedUsers = async () =>
      (
        await ok(
          api<{ list: { id: number }[]; total: number }>(
            'GET',
            `/rel/position/userlist?id=${position.id}&pagenum=1&pagesize=100`,
            { token },
          ),
        )
      ).list
        .map((u) => u.id)
        .sort()
    expect(await linkedUsers()).toEqual([ids.user1, ids.user2].sort())

    await linkedRow(NAMES.user2)
      .getByRole('button', { name: /移\s*除/ })
      .click()
    await confirm.getByText('确定要移除该用户关联吗？', { exact: true }).waitFor()
    await shot('position-unlink-user')
    await confirm.getByRole('button', { name: /^确\s*定$/ }).click()
    await expect.poll(() => linkedRow(NAMES.user2).count()).toBe(0)
    expect(await linkedUsers()).toEqual([ids.user1])
    await shot('position-users')
  })

  it('the department cascader reads the tree level by level, and its search asks the server', async () => {
    const treeCalls: URL[] = []
    const listen = (req: { url(): string }) => {
      const url = new URL(req.url())
      if (url.pathname === '/api/org/tree') treeCalls.push(url)
    }
    page.on('request', listen)
    try {
      await page.goto('/positionmanage')
      const box = page.getByRole('combobox', { name: '部门' })
      await box.click()
      await page
        .locator('.ant-cascader-menu')
        .nth(0)
        .locator('.ant-cascader-menu-item', { hasText: new RegExp(`^${escapeRe(rootName)} \\(`) })
        .click()
      await page
        .locator('.ant-cascader-menu')
        .nth(1)
        .locator('.ant-cascader-menu-item', { hasText: exactly(`${NAMES.parent} (2)`) })
        .waitFor()
      // the root's level is read as it opens; nothing under a department not opened yet
      expect(treeCalls.filter((u) => u.searchParams.get('parentId') === String(ids.root))).toHaveLength(1)
      expect(treeCalls.some((u) => u.searchParams.get('parentId') === String(ids.parent))).toBe(false)
      await page.keyboard.press('Escape')
      await page.locator('.ant-cascader-dropdown:visible').waitFor({ state: 'hidden' })

      // a search lists the departments the server found, each with its path
      await box.click()
      await box.fill(NAMES.childA)
      const found = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item')
      await expect
        .poll(() => found.allTextContents())
        .toEqual([`${rootName} / ${NAMES.parent} / ${NAMES.childA} (0)`])
      expect(treeCalls.some((u) => u.searchParams.get('keyword') === NAMES.childA)).toBe(true)
      await shot('position-cascader-search')
      await found.first().click()
      await expect
        .poll(() => page.locator('.ant-cascader').first().textContent())
        .toContain(`${rootName} / ${NAMES.parent} / ${NAMES.childA}`)
      await search(2) // child A's two positions
      // never the whole tree, from this screen
      expect(treeCalls.filter((u) => u.search === '')).toEqual([])
    } finally {
      page.off('request', listen)
    }
  })
})
