import fs from 'node:fs'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { instantOfWall, zonedIso } from '@amg/contract'
import { api, apiLogin, launchBrowser, newPage, settledScreenshot, signIn } from './helpers'

/** DESIGN.md §9 in the console: 操作日志, 登录日志 and 在线用户 (系统监控). */

const RUN = Date.now().toString(36)
const PASSWORD = 'Monitor@2468'

let browser: Browser
let page: Page
let admin: string

/** The operator cell: the name, then the id (DESIGN.md §11). */
const ADMIN_OPERATOR = /^admin\s*ID \d+$/

/** expect.poll with room for a loaded machine. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

const shot = (p: Page, name: string) => settledScreenshot(p, `monitor-${name}`)

/** antd puts a space between the two characters of a two-character Chinese button label. */
const label = (text: string) => new RegExp(`(^|\\s)${[...text].join('\\s*')}\\s*$`)
const button = (scope: Page | Locator, text: string) => scope.getByRole('button', { name: label(text) })
const toast = (p: Page, text: string) => p.locator('.ant-message').getByText(text, { exact: true })

/** The rows of a table (by test id) once it has stopped loading, each as its cells' texts. */
async function tableRows(p: Page, testId: string): Promise<string[][]> {
  const table = p.getByTestId(testId)
  await table.locator('.ant-table-tbody').waitFor()
  await table
    .locator('.ant-spin-spinning')
    .waitFor({ state: 'detached' })
    .catch(() => {})
  const rows = table.locator('.ant-table-tbody tr.ant-table-row')
  const out: string[][] = []
  for (let i = 0; i < (await rows.count()); i++)
    out.push((await rows.nth(i).locator('td').allTextContents()).map((t) => t.trim()))
  return out
}

/** Chooses an option of an antd Select found by its aria-label. */
async function choose(p: Page, selectLabel: string, option: string) {
  await p.getByLabel(selectLabel, { exact: true }).click()
  await p.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click()
}

async function call<T = any>(method: string, url: string, body?: unknown, token = admin) {
  const res = await api<T>(method, url, { token, body })
  expect(res.status, `${method} ${url}: ${res.msg}`).toBe(200)
  return res.data
}

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await apiLogin()
  page = await newPage(browser)
  await signIn(page)
})
afterAll(async () => {
  await browser?.close()
})

describe('操作日志 /operlog', () => {
  it('shows the writes just made, filters them, and shows a change as 字段 / 修改前 / 修改后', async () => {
    // names of this attempt (a retry starts afresh)
    const tag = `${RUN}${Date.now().toString(36).slice(-4)}`
    const nick = `mon_${tag}`
    const renamed = `mon2_${tag}`
    const roleName = `monrole_${tag}`
    // a user created, then edited (name, real name, status, password), then given a role
    const roleId = await call<number>('POST', '/role/insert', {
      roleName,
      description: 'e2e',
      authCodes: ['user'],
    })
    const userId = await call<number>('POST', '/user/insert', { nickName: nick, status: 1, realName: '张三' })
    await call('PUT', '/user/update', {
      id: userId,
      nickName: renamed,
      status: 2,
      realName: '李四',
      password: PASSWORD,
    })
    await call('PUT', '/rel/user-rel-role', { id: userId, roleIds: [roleId] })
    // and a refused write: the same nickName again (409) is logged as denied
    const dup = await api('POST', '/user/insert', { token: admin, body: { nickName: renamed, status: 1 } })
    expect(dup.status).toBe(409)

    // from the menu: 系统监控 > 操作日志
    await page.goto('/body')
    await page.locator('[data-testid="side-menu"] .ant-menu-submenu-title', { hasText: '系统监控' }).hover()
    await page.locator('.ant-menu-submenu-popup .ant-menu-item', { hasText: /^操作日志$/ }).click()
    await page.waitForURL('**/operlog')
    await page.getByRole('heading', { name: '操作日志', exact: true }).waitFor()
    expect(await page.locator('.ant-breadcrumb').textContent()).toContain('系统监控')

    // newest first: the refused insert leads, with its tag and status
    // (a refused insert changed nothing and names no record yet: no 资源)
    await poll(async () => (await tableRows(page, 'operation-log-table'))[0]?.slice(1, 8)).toEqual([
      expect.stringMatching(ADMIN_OPERATOR),
      expect.any(String),
      '新建用户',
      '—',
      '拒绝',
      '409',
      expect.stringContaining('已存在'),
    ])
    await shot(page, 'operlog-list')

    // filter: 操作 修改用户, 结果 成功 (kept in the URL)
    await page.getByLabel('操作', { exact: true }).fill('修改用户')
    await choose(page, '结果', '成功')
    await button(page, '查询').click()
    await page.waitForURL(/summary=/)
    expect(new URL(page.url()).searchParams.get('result')).toBe('success')
    await poll(async () => {
      const rows = await tableRows(page, 'operation-log-table')
      return rows.length > 0 && rows.every((r) => r[3] === '修改用户' && r[5] === '成功')
    }).toBe(true)
    // an edit of several fields stays 修改用户; the record is named as the update left it
    const ours = page
      .getByTestId('operation-log-table')
      .locator('tr.ant-table-row')
      .filter({ has: page.locator('td', { hasText: new RegExp(`^用户 ${renamed}$`) }) })
    await expect.poll(() => ours.count()).toBe(1)

    // the detail drawer: the request's facts and the diff
    await button(ours, '详情').click()
    const drawer = page.getByTestId('operation-log-detail')
    await drawer.getByTestId('changes-table').waitFor()
    await expect.poll(() => drawer.textContent()).toContain('PUT /api/user/update')
    const diff = await tableRows(page, 'changes-table')
    // one record (the user, merged cell on the first row), then 字段 / 修改前 / 修改后 per field
    expect(diff[0][0]).toBe(`用户 ${renamed}`)
    expect(diff.map((r) => r.slice(-3))).toEqual(
      expect.arrayContaining([
        ['用户昵称', nick, renamed],
        ['真实姓名', '张三', '李四'],
        ['状态', '正常（1）', '冻结（2）'],
        ['密码', '—', '已修改'],
      ]),
    )
    const headers = await page.getByTestId('changes-table').locator('th').allTextContents()
    expect(headers).toEqual(['记录', '字段', '修改前', '修改后'])
    await shot(page, 'operlog-detail')
    await page.locator('.ant-drawer-close').click()

    // the link: 用户关联角色 shows "+ role"
    await page.getByLabel('操作', { exact: true }).fill('用户关联角色')
    await button(page, '查询').click()
    // the previous rows stay in view until the new ones arrive: wait for these
    await poll(async () => {
      const rows = await tableRows(page, 'operation-log-table')
      return rows.length > 0 && rows.every((r) => r[3] === '用户关联角色')
    }).toBe(true)
    const linkRow = page
      .getByTestId('operation-log-table')
      .locator('tr.ant-table-row')
      .filter({ has: page.locator('td', { hasText: new RegExp(`^用户 ${renamed}$`) }) })
    await expect.poll(() => linkRow.count()).toBe(1)
    await button(linkRow, '详情').click()
    await page.getByTestId('changes-table').waitFor()
    await poll(() => tableRows(page, 'changes-table')).toEqual([
      [`用户 ${renamed}`, '关联角色', '—', `+ ${roleName}`],
    ])
    await shot(page, 'operlog-link-detail')
    await page.locator('.ant-drawer-close').click()

    // 重置 clears the filters and the URL
    await button(page, '重置').click()
    await page.waitForURL((u) => u.pathname === '/operlog' && u.search === '')
    expect(await page.getByLabel('操作', { exact: true }).inputValue()).toBe('')

    // the server holds the same rows
    const logs = await call<{ list: { summary: string; resourceId: string; result: string }[] }>(
      'POST',
      '/log/operation/list',
      { summary: '修改用户', result: 'success', pageNum: 1, pageSize: 50 },
    )
    expect(logs.list.some((r) => r.resourceId === String(userId))).toBe(true)
  })

  it('a freeze reads 冻结用户 on the user by name, at the server’s time with its offset, whatever the browser’s zone', async () => {
    const nick = `frz_${RUN}${Date.now().toString(36).slice(-4)}`
    const userId = await call<number>('POST', '/user/insert', { nickName: nick, status: 1 })
    await call('PUT', '/user/update', { id: userId, nickName: nick, status: 2 })
    const { list, timeZone } = await call<{
      list: { time: string; summary: string; resourceName: string }[]
      timeZone: string
    }>('POST', '/log/operation/list', { summary: '冻结用户', pageSize: 1 })
    const [logged] = list
    expect(logged).toMatchObject({ summary: '冻结用户', resourceName: `用户 ${nick}` })
    // the server's wall time and offset, as it wrote them: 2026-11-26T14:03:05.123+08:00
    const [, date, clock, offset] = /^(\S+)T(\d{2}:\d{2}:\d{2})\.\d+([+-]\d{2}:\d{2})$/.exec(logged.time)!
    const shown = `${date} ${clock} ${offset}`

    // a browser in another zone than the server's (the server's offset is never -10:00 here)
    const context = await browser.newContext({
      baseURL: new URL(page.url()).origin,
      viewport: { width: 1280, height: 800 },
      locale: 'zh-CN',
      reducedMotion: 'reduce',
      timezoneId: offset === '-10:00' ? 'Asia/Shanghai' : 'Pacific/Honolulu',
    })
    const away = await context.newPage()
    try {
      await signIn(away)
      await away.goto('/operlog?summary=冻结用户')
      const row = away
        .getByTestId('operation-log-table')
        .locator('tr.ant-table-row')
        .filter({ has: away.locator('td', { hasText: new RegExp(`^用户 ${nick}$`) }) })
      await poll(() => row.count()).toBe(1)
      const cells = (await row.locator('td').allTextContents()).map((c) => c.trim())
      expect([cells[0], cells[3], cells[4]]).toEqual([shown, '冻结用户', `用户 ${nick}`])
      // the filters wrap between fields, never inside one: every field whole on a row of its own height
      const boxes = await away
        .getByTestId('list-search-bar')
        .locator(':scope > div')
        .evaluateAll((cols) => cols.map((c) => c.getBoundingClientRect().height))
      expect(Math.max(...boxes)).toBeLessThan(40)
      await shot(away, 'operlog-freeze-list-1280')

      // the time range is picked on the server's clock too: 今天 starts at the server's midnight
      await away.getByPlaceholder('开始时间').click()
      await away.locator('.ant-picker-dropdown:visible .ant-picker-presets li', { hasText: '今天' }).click()
      await button(away, '查询').click()
      await away.waitForURL(/from=/)
      const today = zonedIso(new Date(), timeZone).slice(0, 10)
      expect(new URL(away.url()).searchParams.get('from')).toBe(
        instantOfWall(`${today}T00:00:00`, timeZone).toISOString(),
      )
      expect(await away.getByPlaceholder('开始时间').inputValue()).toBe(`${today} 00:00:00`)
      await poll(() => row.count()).toBe(1)

      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ]) {
        await away.setViewportSize({ width, height })
        await button(row, '详情').click()
        const drawer = away.getByTestId('operation-log-detail')
        await drawer.waitFor()
        const facts = Object.fromEntries(
          await drawer
            .locator('.ant-descriptions-item-label')
            .evaluateAll((labels) =>
              labels.map((l) => [l.textContent!.trim(), l.nextElementSibling?.textContent?.trim() ?? '']),
            ),
        )
        expect(facts).toMatchObject({ 时间: shown, 操作: '冻结用户', 资源: `用户 ${nick}` })
        // every label on one line: its text is one line box high
        const lines = await drawer.locator('.ant-descriptions-item-label').evaluateAll((labels) =>
          labels.map((l) => {
            const range = document.createRange()
            range.selectNodeContents(l)
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
          }),
        )
        expect(lines.every((n) => n === 1)).toBe(true)
        await shot(away, `operlog-freeze-drawer-${width}`)
        await away.locator('.ant-drawer-close').click()
        await drawer.waitFor({ state: 'detached' })
      }
    } finally {
      await context.close()
    }
  })

  it('filters by result and operator, and by a time range', async () => {
    await page.goto('/operlog')
    await choose(page, '结果', '拒绝')
    await page.getByLabel('操作人', { exact: true }).fill('admin')
    await button(page, '查询').click()
    await poll(async () => {
      const rows = await tableRows(page, 'operation-log-table')
      return rows.length > 0 && rows.every((r) => ADMIN_OPERATOR.test(r[1]) && r[5] === '拒绝')
    }).toBe(true)

    // a range from the picker's presets: sent as ISO times, kept in the URL
    await button(page, '重置').click()
    await page.getByPlaceholder('开始时间').click()
    await page
      .locator('.ant-picker-dropdown:visible .ant-picker-presets li', { hasText: '最近 1 小时' })
      .click()
    await button(page, '查询').click()
    await page.waitForURL(/from=/)
    const url = new URL(page.url())
    const from = Date.parse(url.searchParams.get('from')!)
    const to = Date.parse(url.searchParams.get('to')!)
    expect(to - from).toBeGreaterThanOrEqual(3_600_000 - 1000)
    expect(Math.abs(to - Date.now())).toBeLessThan(120_000)
    await page.getByTestId('operation-log-table').locator('tr.ant-table-row').first().waitFor()

    // a range in the past holds nothing: the empty state
    await page.goto('/operlog?from=2000-01-01T00:00:00.000Z&to=2000-01-02T00:00:00.000Z')
    await page.getByTestId('operation-log-table').locator('.ant-empty').waitFor()
    expect(await page.getByPlaceholder('开始时间').inputValue()).toMatch(/^2000-01-01 /)
    await shot(page, 'operlog-empty')
  })

  it('导出 downloads the CSV of the current filters (UTF-8 BOM, Chinese headers)', async () => {
    await page.goto('/operlog?summary=修改用户')
    await page.getByTestId('operation-log-table').locator('tr.ant-table-row').first().waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), button(page, '导出').click()])
    expect(download.suggestedFilename()).toMatch(/^操作日志-\d{14}\.csv$/)
    const file = await download.path()
    const bytes = fs.readFileSync(file)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = bytes.toString('utf8').slice(1).split('\r\n').filter(Boolean)
    expect(lines[0]).toBe(
      '编号,时间,操作人,操作人 ID,IP 地址,浏览器,请求方法,请求路径,操作,资源类型,资源 ID,资源,结果,状态码,消息,变更',
    )
    expect(lines.length).toBeGreaterThan(1)
    // times as the screen shows them: the server's zone, with its offset
    expect(
      lines.slice(1).every((l) => /^\d+,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{2}:\d{2},/.test(l)),
    ).toBe(true)
    // only the filtered operation
    expect(lines.slice(1).every((l) => l.includes(',修改用户,'))).toBe(true)
    await toast(page, '导出成功').waitFor()
  })
})

describe('操作日志: operators told apart by id, personal fields only for who may read users', () => {
  it('two operators with look-alike names show different ids; picking an id filters by it', async () => {
    const tag = `${RUN}${Date.now().toString(36).slice(-4)}`
    const roleId = await call<number>('POST', '/role/insert', {
      roleName: `lookrole_${tag}`,
      authCodes: ['role', 'role:add'],
    })
    const names = [`look_${tag}`, `look_${tag}1`]
    const ids: number[] = []
    for (const [i, nickName] of names.entries()) {
      const id = await call<number>('POST', '/user/insert', { nickName, status: 1, password: PASSWORD })
      ids.push(id)
      await call('PUT', '/rel/user-rel-role', { id, roleIds: [roleId] })
      const token = await apiLogin({ nickName, password: PASSWORD })
      await call('POST', '/role/insert', { roleName: `lookmade_${tag}_${i}` }, token)
    }
    await page.goto(`/operlog?operatorName=look_${tag}`)
    await poll(async () => (await tableRows(page, 'operation-log-table')).map((r) => r[1]).sort()).toEqual(
      [`${names[0]}ID ${ids[0]}`, `${names[1]}ID ${ids[1]}`].sort(),
    )
    await shot(page, 'operlog-operator-ids')
    await page
      .getByTestId('operator-id')
      .filter({ hasText: `ID ${ids[0]}` })
      .click()
    await page.waitForURL(new RegExp(`operatorId=${ids[0]}`))
    await poll(async () => (await tableRows(page, 'operation-log-table')).map((r) => r[1])).toEqual([
      `${names[0]}ID ${ids[0]}`,
    ])
    expect(await page.getByLabel('操作人 ID', { exact: true }).inputValue()).toBe(String(ids[0]))
    // the detail names the operator by id too
    await button(page, '详情').first().click()
    const drawer = page.getByTestId('operation-log-detail')
    await expect.poll(() => drawer.getByTestId('operator-id').textContent()).toBe(`ID ${ids[0]}`)
    await page.locator('.ant-drawer-close').click()
  })

  it('a reader who may not read users sees （无权查看） for a mobile and real name; the admin sees them', async () => {
    const tag = `${RUN}${Date.now().toString(36).slice(-4)}`
    const target = `pf_${tag}`
    await call<number>('POST', '/user/insert', {
      nickName: target,
      status: 1,
      mobile: '13800000001',
      realName: '王小明',
    })
    const roleId = await call<number>('POST', '/role/insert', {
      roleName: `logonly_${tag}`,
      authCodes: ['operlog'],
    })
    const readerName = `logonly_${tag}`
    const readerId = await call<number>('POST', '/user/insert', {
      nickName: readerName,
      status: 1,
      password: PASSWORD,
    })
    await call('PUT', '/rel/user-rel-role', { id: readerId, roleIds: [roleId] })

    const openDetail = async (p: Page) => {
      await p.goto(`/operlog?summary=${encodeURIComponent('新建用户')}`)
      const row = p
        .getByTestId('operation-log-table')
        .locator('tr.ant-table-row')
        .filter({ has: p.locator('td', { hasText: new RegExp(`^用户 ${target}$`) }) })
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1)
      await button(row, '详情').click()
      await p.getByTestId('changes-table').waitFor()
      return tableRows(p, 'changes-table')
    }
    const reader = await newPage(browser)
    await signIn(reader, { nickName: readerName, password: PASSWORD })
    const masked = await openDetail(reader)
    expect(masked.map((r) => r.slice(-3))).toEqual(
      expect.arrayContaining([
        ['手机号', '（无权查看）', '（无权查看）'],
        ['真实姓名', '（无权查看）', '（无权查看）'],
      ]),
    )
    expect(JSON.stringify(masked)).not.toContain('13800000001')
    await shot(reader, 'operlog-detail-masked')
    await reader.context().close()

    const shown = await openDetail(page)
    expect(shown.map((r) => r.slice(-3))).toEqual(
      expect.arrayContaining([
        ['手机号', '（空）', '13800000001'],
        ['真实姓名', '（空）', '王小明'],
      ]),
    )
    await page.locator('.ant-drawer-close').click()
  })
})

describe('在线用户 /online and 登录日志 /loginlog', () => {
  let other = `monu_${RUN}`
  let otherPage: Page

  it('a user with 操作日志 and 在线用户 but neither button sees no 导出 and no 强制下线', async () => {
    const tag = `${RUN}${Date.now().toString(36).slice(-4)}`
    other = `monu_${tag}`
    const roleId = await call<number>('POST', '/role/insert', {
      roleName: `monview_${tag}`,
      authCodes: ['user', 'operlog', 'online'],
    })
    const id = await call<number>('POST', '/user/insert', { nickName: other, status: 1, password: PASSWORD })
    await call('PUT', '/rel/user-rel-role', { id, roleIds: [roleId] })

    otherPage = await newPage(browser)
    await signIn(otherPage, { nickName: other, password: PASSWORD })
    await otherPage.getByRole('button', { name: '展开菜单' }).click()
    const menu = await otherPage
      .locator('[data-testid="side-menu"] .ant-menu-title-content')
      .allTextContents()
    expect(menu).toEqual(expect.arrayContaining(['系统监控', '操作日志', '在线用户']))
    expect(menu).not.toContain('登录日志')

    await otherPage.goto('/operlog')
    await otherPage.getByTestId('operation-log-table').locator('tr.ant-table-row').first().waitFor()
    await expect.poll(() => button(otherPage, '查询').count()).toBe(1)
    expect(await button(otherPage, '导出').count()).toBe(0)

    await otherPage.goto('/online')
    await poll(async () => (await tableRows(otherPage, 'online-table')).length).toBeGreaterThan(1)
    expect(await otherPage.getByRole('button', { name: '强制下线' }).count()).toBe(0)
    await shot(otherPage, 'online-no-revoke')
  })

  it('lists both sessions with the admin’s own marked, and 强制下线 ends the other at once', async () => {
    await page.goto('/online')
    const rows = page.getByTestId('online-table').locator('tr.ant-table-row')
    await rows.first().waitFor()
    // the admin's own session: 当前会话, and no 强制下线 on it
    const own = rows.filter({ hasText: '当前会话' })
    await expect.poll(() => own.count()).toBe(1)
    expect(await own.locator('td').first().textContent()).toContain('admin')
    expect(await own.getByRole('button', { name: '强制下线' }).count()).toBe(0)
    // the other user's session, from Chromium
    const theirs = rows.filter({ has: page.locator('td:first-child', { hasText: other }) })
    await expect.poll(() => theirs.count()).toBe(1)
    expect(await theirs.locator('td').nth(2).textContent()).toMatch(/Chrome/)
    await shot(page, 'online-list')

    // filter by nickName
    await page.getByLabel('用户昵称').fill(other)
    await button(page, '查询').click()
    await poll(async () => (await tableRows(page, 'online-table')).map((r) => r[0])).toEqual([other])

    // 强制下线 asks first; cancelling keeps the session
    const pop = page.locator('.ant-popconfirm:not(.ant-popover-hidden)')
    await button(theirs, '强制下线').click()
    await pop.getByText('确定要强制该会话下线吗？', { exact: true }).waitFor()
    await button(pop, '取消').click()
    await pop.waitFor({ state: 'hidden' })
    expect(await theirs.count()).toBe(1)
    await button(theirs, '强制下线').click()
    await pop.getByText('确定要强制该会话下线吗？', { exact: true }).waitFor()
    await shot(page, 'online-confirm')
    await button(pop, '确定').click()
    await toast(page, '已强制下线').waitFor()
    await page.getByTestId('online-table').locator('.ant-empty').waitFor()
    const live = await call<{ list: { nickName: string }[] }>('POST', '/session/online/list', {
      nickName: other,
      pageNum: 1,
      pageSize: 10,
    })
    expect(live.list).toEqual([])

    // the other browser's next action sends it to the sign-in page
    await otherPage.reload()
    await otherPage.waitForURL((u) => u.pathname === '/')
    await otherPage.getByPlaceholder('用户昵称').waitFor()
    await shot(otherPage, 'revoked-signin')
    await otherPage.context().close()
  })

  it('登录日志 shows the forced sign-out (and the sign-in, once sign-in is logged)', async () => {
    await page.goto('/body')
    await page.locator('[data-testid="side-menu"] .ant-menu-submenu-title', { hasText: '系统监控' }).hover()
    await page.locator('.ant-menu-submenu-popup .ant-menu-item', { hasText: /^登录日志$/ }).click()
    await page.waitForURL('**/loginlog')
    await page.getByLabel('用户', { exact: true }).fill(other)
    await button(page, '查询').click()
    await poll(async () =>
      (await tableRows(page, 'login-log-table')).some((r) => r[1] === other && r[4] === '强制下线'),
    ).toBe(true)

    // sign-in rows: asserted when the server logs them (the server's answer decides, not a guess)
    const signIns = await call<{ list: unknown[] }>('POST', '/log/login/list', {
      nickName: other,
      result: 'success',
      pageNum: 1,
      pageSize: 10,
    })
    if (signIns.list.length > 0) {
      await choose(page, '结果', '成功')
      await button(page, '查询').click()
      await poll(async () => {
        const rows = await tableRows(page, 'login-log-table')
        return rows.length > 0 && rows.every((r) => r[1] === other && r[4] === '成功')
      }).toBe(true)
      await button(page, '重置').click()
    } else {
      console.info('登录日志: sign-in is not logged yet; only the forced sign-out is checked')
    }
    await page.getByLabel('用户', { exact: true }).fill(other)
    await button(page, '查询').click()
    await poll(async () => {
      const rows = await tableRows(page, 'login-log-table')
      return rows.length > 0 && rows.every((r) => r[1] === other)
    }).toBe(true)
    await shot(page, 'loginlog')
  })
})
