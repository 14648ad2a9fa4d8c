import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import { api, apiLogin, launchBrowser, newPage, signIn } from './helpers'
import { poll, shot } from './role-helpers'

/**
 * 权限分析 (DESIGN.md §10): a user holding one role directly, one through a user group and one
 * through a position; their roles with those sources, their permission tree, the tester (允许 with
 * its chains, 拒绝 without) and who can make a call. One node stands for another service's paths,
 * so that who-can answers for a call nobody else in the run holds.
 */

let browser: Browser
let page: Page
let token: string
const s = Date.now().toString(36)
const created = createdData()
const ORDERS = `/az${s}-orders`
const names = {
  user: `az${s}用户`,
  node: `az${s}订单服务`,
  direct: `az${s}直接角色`,
  viaGroup: `az${s}组角色`,
  viaPosition: `az${s}岗位角色`,
  group: `az${s}组`,
  org: `az${s}部门`,
  station: `az${s}职位`,
}
let userId: number
let nodeCode: string

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}
const insertRole = (roleName: string, authCodes: string[]) =>
  ok(api<number>('POST', '/role/insert', { token, body: { roleName, authCodes } }))

beforeAll(async () => {
  token = await apiLogin()
  nodeCode = await ok(
    api<string>('POST', '/auth/insert', {
      token,
      body: {
        chName: names.node,
        enName: `az${s}orders`,
        type: 1,
        status: 1,
        seq: 99,
        parentCode: null,
        urlPatternInfos: [{ method: 'GET', uri: `${ORDERS}/**` }],
      },
    }),
  )
  created.remember(`/auth/delete?authCode=${encodeURIComponent(nodeCode)}`)
  const direct = await insertRole(names.direct, [nodeCode])
  const viaGroup = await insertRole(names.viaGroup, ['access', 'user'])
  const viaPosition = await insertRole(names.viaPosition, ['monitor', 'operlog'])
  for (const id of [direct, viaGroup, viaPosition]) created.remember(`/role/delete?id=${id}`)

  const [root] = await ok(api<{ id: number }[]>('GET', '/org/tree', { token }))
  const orgId = await ok(
    api<number>('POST', '/org/insert', { token, body: { organizationName: names.org, parent: root.id } }),
  )
  created.remember(`/org/delete?orgId=${orgId}`)
  const stationId = await ok(
    api<number>('POST', '/station/insert', {
      token,
      body: { stationName: names.station, type: 1, orgIds: [orgId] },
    }),
  )
  created.remember(`/station/delete?stationId=${stationId}`)

  userId = await ok(api<number>('POST', '/user/insert', { token, body: { nickName: names.user } }))
  const groupId = await ok(
    api<number>('POST', '/user_groups/insert', {
      token,
      body: {
        groupName: names.group,
        status: 1,
        description: '',
        userIds: String(userId),
        roleIds: String(viaGroup),
      },
    }),
  )
  created.remember(`/user_groups/delete?userGroupsId=${groupId}`)
  created.remember(`/user/delete?userId=${userId}`)
  await ok(api('PUT', '/rel/user-rel-role', { token, body: { id: userId, roleIds: String(direct) } }))
  const positions = await ok(
    api<{ list: { id: number }[] }>('POST', '/position/list', {
      token,
      body: { orgId, pageNum: 1, pageSize: 10 },
    }),
  )
  const positionId = positions.list[0].id
  await ok(api('PUT', '/rel/position-rel-user', { token, body: { positionId, userIds: [userId] } }))
  await ok(api('PUT', '/rel/position-rel-role', { token, body: { positionId, roleIds: [viaPosition] } }))

  browser = await launchBrowser()
  page = await newPage(browser)
  await signIn(page)
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

const roleRow = (roleName: string) =>
  page.getByTestId('role-sources').locator('tr.ant-table-row').filter({ hasText: roleName })
const tagsOf = async (scope: Locator) =>
  (await scope.getByTestId('via-tag').allTextContents()).map((t) => t.trim())

type CallFormName = 'call-test' | 'who-can'

/** Asks a call in one of the page's two forms (the tester, who-can): method, path, then its button. */
async function ask(form: CallFormName, method: string, path: string) {
  const fields = page.locator(`form#${form}`)
  await fields.getByLabel('请求方法').click()
  await page.locator('.ant-select-dropdown:visible').getByTitle(method, { exact: true }).click()
  await fields.getByLabel('路径').fill(path)
  await fields.getByRole('button', { name: form === 'call-test' ? /测\s*试/ : /查\s*询/ }).click()
}

async function useTheme(mode: 'light' | 'dark') {
  await page.getByTestId('appearance').first().click()
  await page.getByRole('menuitem', { name: mode === 'dark' ? '深色主题' : '浅色主题' }).click()
  await page.keyboard.press('Escape')
}

describe('权限分析 /authzanalysis', () => {
  it('opens from the user list with the user chosen: roles with their sources and the held tree', async () => {
    await page.goto('/usermanage')
    await page.getByLabel('用户昵称').fill(names.user)
    await page.getByRole('button', { name: /查\s*询/ }).click()
    const row = page.getByTestId('user-table').locator('tr.ant-table-row', { hasText: names.user })
    await poll(() => row.count()).toBe(1)
    await row.getByRole('button', { name: '权限分析' }).click()
    await page.waitForURL(
      (u) => u.pathname === '/authzanalysis' && u.searchParams.get('userId') === String(userId),
    )
    await page.getByRole('heading', { name: '权限分析', exact: true }).waitFor()
    await poll(() => page.getByTestId('user-picker').textContent()).toContain(names.user)

    await roleRow(names.direct).waitFor()
    expect(await tagsOf(roleRow(names.direct))).toEqual(['直接'])
    expect(await tagsOf(roleRow(names.viaGroup))).toEqual([`用户组 ${names.group}`])
    const [position] = await tagsOf(roleRow(names.viaPosition))
    expect(position).toMatch(new RegExp(`^岗位 .*${names.org}-${names.station}$`))

    const held = page.getByTestId('effective-tree')
    for (const label of [names.node, '权限管理', '用户管理', '系统监控', '操作日志'])
      await held.locator('.ant-tree-title', { hasText: label }).first().waitFor()
    expect(await held.locator('.ant-tree-title', { hasText: '角色管理' }).count()).toBe(0)
    await shot(page, 'authz-analysis-user-light')
  })

  it('tests calls: 允许 with each chain, 拒绝 without one', async () => {
    // another service's path (held directly); the query string is ignored
    await ask('call-test', 'GET', `${ORDERS}/42?expand=1`)
    const verdict = page.getByTestId('verdict')
    await poll(() => verdict.textContent()).toContain('允许')
    const chains = page.getByTestId('chain')
    await poll(() => chains.count()).toBe(1)
    expect(await chains.first().getAttribute('aria-label')).toBe(
      `直接 → ${names.direct} → ${names.node}（${nodeCode}） → GET ${ORDERS}/**`,
    )

    // this server's own call, held through the group
    await ask('call-test', 'POST', '/user/list')
    await poll(() => chains.first().getAttribute('aria-label')).toBe(
      `用户组 ${names.group} → ${names.viaGroup} → 用户管理（user） → POST /user/list`,
    )
    expect(await verdict.textContent()).toContain('允许')
    await shot(page, 'authz-analysis-tester-allowed-light')

    await ask('call-test', 'DELETE', '/user/delete')
    await poll(() => verdict.textContent()).toContain('拒绝')
    expect(await chains.count()).toBe(0)
    await shot(page, 'authz-analysis-tester-denied-light')

    // a path without its leading '/' is refused by the form with the server's text
    const tester = page.locator('form#call-test')
    await tester.getByLabel('路径').fill('user/list')
    await tester.getByRole('button', { name: /测\s*试/ }).click()
    await page.locator('.ant-form-item-explain-error', { hasText: '路径必须以 / 开头' }).waitFor()

    // this server's calls are offered as the path is typed; choosing one sets its real method too
    await tester.getByLabel('请求方法').click()
    await page.locator('.ant-select-dropdown:visible').getByTitle('GET', { exact: true }).click()
    await tester.getByLabel('路径').fill('/user/lis')
    const offered = page.locator('.ant-select-dropdown:visible').getByText(/^POST \/user\/list\s/)
    await offered.waitFor()
    await shot(page, 'authz-analysis-tester-known-calls-light')
    await offered.click()
    expect(await tester.getByLabel('路径').inputValue()).toBe('/user/list')
    await tester.getByRole('button', { name: /测\s*试/ }).click()
    await poll(() => chains.first().getAttribute('aria-label')).toBe(
      `用户组 ${names.group} → ${names.viaGroup} → 用户管理（user） → POST /user/list`,
    )
    expect(await verdict.textContent()).toContain('允许')
  })

  it('who-can lists the user with the link that brings the role; 查看权限 opens them', async () => {
    await page.getByRole('tab', { name: '谁能访问' }).click()
    await page.waitForURL((u) => u.searchParams.get('tab') === 'whocan')
    await ask('who-can', 'GET', `${ORDERS}/42`)
    const table = page.getByTestId('who-can-table')
    const mine = table.locator('tr.ant-table-row', { hasText: names.user })
    await poll(() => mine.count()).toBe(1)
    expect(await tagsOf(mine)).toEqual([`直接：${names.direct}`])
    // super admins may make any call: admin, the first user, leads the list
    expect(await table.locator('tr.ant-table-row').first().textContent()).toMatch(/^admin超级管理员/)
    // the question lives in the URL: a reload asks it again
    expect(new URL(page.url()).searchParams.get('path')).toBe(`${ORDERS}/42`)
    await page.reload()
    await poll(() => mine.count()).toBe(1)
    await shot(page, 'authz-analysis-who-can-light')

    await mine.getByRole('button', { name: '查看权限' }).click()
    await page.waitForURL(
      (u) => u.searchParams.get('userId') === String(userId) && !u.searchParams.has('tab'),
    )
    await roleRow(names.direct).waitFor()
  })

  it('the user screens link to it too', async () => {
    await page.goto(`/usermanage/userinfo/userbaseinfo?id=${userId}&title=${encodeURIComponent(names.user)}`)
    await page.getByRole('button', { name: /权限分析/ }).click()
    await page.waitForURL(
      (u) => u.pathname === '/authzanalysis' && u.searchParams.get('userId') === String(userId),
    )
    await roleRow(names.viaGroup).waitFor()
  })

  it('the picker searches users by name and keeps the choice in the URL', async () => {
    await page.goto('/authzanalysis')
    await page.getByText('选择一个用户，查看其角色来源、有效权限').waitFor()
    await page.getByLabel('选择用户').click()
    await page.getByLabel('选择用户').fill(names.user)
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', {
      hasText: names.user,
    })
    await poll(() => option.count()).toBe(1)
    await option.click()
    await page.waitForURL((u) => u.searchParams.get('userId') === String(userId))
    await roleRow(names.viaPosition).waitFor()
  })

  it('looks right in the dark theme too', async () => {
    await page.goto(`/authzanalysis?userId=${userId}`)
    await useTheme('dark')
    await roleRow(names.direct).waitFor()
    await ask('call-test', 'GET', `${ORDERS}/7`)
    await poll(() => page.getByTestId('verdict').textContent()).toContain('允许')
    await shot(page, 'authz-analysis-user-dark')
    await page.getByRole('tab', { name: '谁能访问' }).click()
    await page.waitForURL((u) => u.searchParams.get('tab') === 'whocan')
    await ask('who-can', 'GET', `${ORDERS}/42`)
    await poll(() =>
      page.getByTestId('who-can-table').locator('tr.ant-table-row', { hasText: names.user }).count(),
    ).toBe(1)
    await shot(page, 'authz-analysis-who-can-dark')
    await useTheme('light')
  })
})
