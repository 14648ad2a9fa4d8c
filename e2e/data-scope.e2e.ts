import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, apiLogin, launchBrowser, newPage, screenshot, signIn } from './helpers'
import { createdData } from './cleanup'

/**
 * DESIGN.md §13 in the console: the role form's 数据权限 (and 自定义部门 with its department tree),
 * the 管理范围 line of a scoped administrator, and the scope of a tested call in 权限分析.
 */

const RUN = Date.now().toString(36)
const NAMES = {
  center: `ds研发中心${RUN}`,
  team: `ds前端组${RUN}`,
  other: `ds销售部${RUN}`,
  station: `ds经理${RUN}`,
  scopedRole: `ds部门管理员${RUN}`,
  customRole: `ds自定义${RUN}`,
  admin: `ds_admin_${RUN}`,
}
const PASSWORD = 'Scoped@2024ds'

let browser: Browser
let page: Page
let token: string
const created = createdData()
const ids: Record<string, number> = {}

async function ok<T>(res: Promise<{ status: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  expect(r.status, r.msg).toBe(200)
  return r.data
}

beforeAll(async () => {
  token = await apiLogin()
  const [root] = await ok(api<{ id: number }[]>('GET', '/org/tree', { token }))
  const org = async (organizationName: string, parent: number) => {
    const id = await ok(api<number>('POST', '/org/insert', { token, body: { organizationName, parent } }))
    created.remember(`/org/delete?orgId=${id}`)
    return id
  }
  ids.center = await org(NAMES.center, root.id)
  ids.team = await org(NAMES.team, ids.center)
  ids.other = await org(NAMES.other, root.id)
  ids.station = await ok(
    api<number>('POST', '/station/insert', {
      token,
      body: { stationName: NAMES.station, type: 1, orgIds: [ids.center] },
    }),
  )
  created.remember(`/station/delete?stationId=${ids.station}`)
  ids.scopedRole = await ok(
    api<number>('POST', '/role/insert', {
      token,
      body: { roleName: NAMES.scopedRole, authCodes: ['access', 'user'], dataScope: 4 },
    }),
  )
  created.remember(`/role/delete?id=${ids.scopedRole}`)
  ids.admin = await ok(
    api<number>('POST', '/user/insert', {
      token,
      body: { nickName: NAMES.admin, status: 1, password: PASSWORD },
    }),
  )
  created.remember(`/user/delete?userId=${ids.admin}`)
  const positions = await ok(
    api<{ list: { id: number }[] }>('POST', '/position/list', {
      token,
      body: { orgId: ids.center, pageNum: 1, pageSize: 10 },
    }),
  )
  const positionId = positions.list[0].id
  await ok(api('PUT', '/rel/position-rel-user', { token, body: { positionId, userIds: [ids.admin] } }))
  await ok(
    api('PUT', '/rel/user-rel-role', { token, body: { id: ids.admin, roleIds: String(ids.scopedRole) } }),
  )

  browser = await launchBrowser()
  page = await newPage(browser)
  await signIn(page)
})

afterAll(async () => {
  await browser?.close()
  const roles = await api<{ list: { id: number }[] }>('POST', '/role/listall', {
    token,
    body: { roleName: NAMES.customRole, pageNum: 1, pageSize: 10 },
  })
  for (const r of roles.data?.list ?? []) created.remember(`/role/delete?id=${r.id}`)
  await created.removeAll(token)
})

describe('data scope in the console (DESIGN.md §13)', () => {
  it('a role gets 自定义部门 with departments chosen in the tree; the server holds them and the form shows them again', async () => {
    await page.goto('/rolemanage/addrole')
    await page.getByLabel('角色名称').fill(NAMES.customRole)
    // 全部数据 by default, and no department field until 自定义部门 is chosen
    await expect.poll(() => page.getByTestId('data-scope-select').textContent()).toContain('全部数据')
    expect(await page.getByTestId('scope-org-tree').count()).toBe(0)
    await page.getByTestId('data-scope-select').click()
    await page.locator('.ant-select-dropdown:visible').getByTitle('自定义部门', { exact: true }).click()
    // saving without a department is refused with the rule's message
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await page.getByText('数据权限为自定义部门时，请至少选择一个部门').waitFor()
    const tree = page.getByTestId('scope-org-tree')
    await tree.getByPlaceholder('输入部门名称进行过滤').fill(NAMES.other)
    await tree.locator('.ant-tree-treenode', { hasText: NAMES.other }).locator('.ant-tree-checkbox').click()
    await screenshot(page, 'data-scope-role-form')
    await page.getByRole('button', { name: /保\s*存/ }).click()
    await page.waitForURL('**/rolemanage')

    const list = await ok(
      api<{ list: { id: number; dataScope: number; scopeOrgIds: number[] }[] }>('POST', '/role/listall', {
        token,
        body: { roleName: NAMES.customRole, pageNum: 1, pageSize: 10 },
      }),
    )
    expect(list.list).toHaveLength(1)
    expect(list.list[0]).toMatchObject({ dataScope: 2, scopeOrgIds: [ids.other] })

    await page.goto(
      `/rolemanage/roleinfo?id=${list.list[0].id}&title=${encodeURIComponent(NAMES.customRole)}`,
    )
    await expect.poll(() => page.getByTestId('data-scope-select').textContent()).toContain('自定义部门')
    // the chosen department is ticked where the tree shows it (under the root, which starts open)
    await page
      .getByTestId('scope-org-tree')
      .locator('.ant-tree-treenode-checkbox-checked', { hasText: NAMES.other })
      .waitFor()
  })

  it('a scoped administrator sees 管理范围 with their department and everything below it', async () => {
    const scoped = await newPage(browser)
    await signIn(scoped, { nickName: NAMES.admin, password: PASSWORD })
    const line = scoped.getByTestId('manage-scope')
    await line.waitFor()
    expect((await line.textContent())?.trim()).toBe(`管理范围：${NAMES.center}（含下级）`)
    await screenshot(scoped, 'data-scope-manage-line')
    await scoped.context().close()
    // the super admin reaches all data: no line
    await page.goto('/body')
    await page.getByTestId('current-user').waitFor()
    expect(await page.getByTestId('manage-scope').count()).toBe(0)
  })

  it('权限分析 shows the scope of a tested call and each role’s part', async () => {
    await page.goto(`/authzanalysis?userId=${ids.admin}`)
    const fields = page.locator('form#call-test')
    await fields.waitFor()
    await fields.getByLabel('请求方法').click()
    await page.locator('.ant-select-dropdown:visible').getByTitle('POST', { exact: true }).click()
    await fields.getByLabel('路径').fill('/user/list')
    await fields.getByRole('button', { name: /测\s*试/ }).click()
    const scope = page.getByTestId('call-scope')
    await scope.waitFor()
    await expect.poll(() => scope.textContent()).toContain(`${NAMES.center}（含下级）`)
    expect(await scope.textContent()).toContain(`${NAMES.scopedRole}（本部门及以下）`)
    await screenshot(page, 'data-scope-authz-analysis')
  })
})
