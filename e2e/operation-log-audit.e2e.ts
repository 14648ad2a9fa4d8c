import { execFileSync } from 'node:child_process'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, apiLogin, attemptStamp, baseURL, launchBrowser, newPage, screenshot, signIn } from './helpers'
import { createdData } from './cleanup'

/**
 * 操作日志 as an auditor reads it (DESIGN.md §9): an import's rows name the file, its counts and the
 * users it made, a dry run reads 导入用户（仅校验）, a two-step bind names its user.
 */

let browser: Browser
let page: Page
let admin: string
const created = createdData()

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await apiLogin()
  page = await newPage(browser)
  await signIn(page)
})
afterAll(async () => {
  if (admin) await created.removeAll(admin)
  await browser?.close()
})

const HEADER = '登录名*,姓名,手机号,状态,岗位,角色,用户组,初始密码'

/** Starts an import of a CSV file through the API and waits for its job. */
async function importCsv(fileName: string, csv: string, dryRun: boolean) {
  const form = new FormData()
  form.append('mode', 'insert')
  form.append('dryRun', String(dryRun))
  form.append('file', new Blob([csv]), fileName)
  const res = await fetch(`${baseURL()}/api/user/import`, {
    method: 'POST',
    headers: { 'x-auth-token': admin },
    body: form,
  })
  const started = (await res.json()) as { data: { jobId: string } }
  expect(res.status).toBe(200)
  await expect
    .poll(
      async () => (await api('GET', `/import/job?jobId=${started.data.jobId}`, { token: admin })).data.status,
      { timeout: 30_000 },
    )
    .toBe('done')
}

/** The rows of the log table once it has stopped loading, each as its cells' texts. */
async function tableRows(p: Page): Promise<string[][]> {
  const table = p.getByTestId('operation-log-table')
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

const label = (text: string) => new RegExp(`(^|\\s)${[...text].join('\\s*')}\\s*$`)
const button = (scope: Page | Locator, text: string) => scope.getByRole('button', { name: label(text) })

/** Filters the log by 操作 and answers the rows shown, once every row is of that operation. */
async function filtered(summary: string): Promise<string[][]> {
  await page.getByLabel('操作', { exact: true }).fill(summary)
  await button(page, '查询').click()
  let rows: string[][] = []
  await expect
    .poll(
      async () => {
        rows = await tableRows(page)
        return rows.length > 0 && rows.every((r) => r[3] === summary)
      },
      { timeout: 15_000 },
    )
    .toBe(true)
  return rows
}

describe('操作日志 for an auditor', () => {
  it('an import reads by its file and counts, a dry run apart; a two-step bind names its user', async () => {
    const tag = attemptStamp()
    const file = `员工名单_${tag}.csv`
    const names = [`aud_${tag}_1`, `aud_${tag}_2`]
    const csv = `${HEADER}\n${names[0]},甲,,,,,,\n${names[1]},乙,,,,,,\n`
    await importCsv(file, csv, true)
    await importCsv(file, csv, false)
    const imported = await api<{ list: { id: number }[] }>('POST', '/user/list', {
      token: admin,
      body: { pageNum: 1, pageSize: 10, nickName: `aud_${tag}_` },
    })
    for (const u of imported.data.list) created.remember(`/user/delete?userId=${u.id}`)

    // a user binds two-step sign-in (their key fetched twice: the dialog opened twice)
    const nick = `mfa_${tag}`
    const user = await api<number>('POST', '/user/insert', {
      token: admin,
      body: { nickName: nick, status: 1, password: 'Audit@E2e#2468', passwordIsInitial: 0 },
    })
    expect(user.status, user.msg).toBe(200)
    created.remember(`/user/delete?userId=${user.data}`)
    const token = await apiLogin({ nickName: nick, password: 'Audit@E2e#2468' })
    await api('POST', '/user/mfa/setup', { token, body: {} })
    const setup = await api<{ secret: string }>('POST', '/user/mfa/setup', { token, body: {} })
    const code = execFileSync('oathtool', ['--totp', '-b', setup.data.secret], { encoding: 'utf8' }).trim()
    const bound = await api('POST', '/user/mfa/enable', { token, body: { code } })
    expect(bound.status, bound.msg).toBe(200)

    await page.goto('/operlog')
    await page.getByRole('heading', { name: '操作日志', exact: true }).waitFor()

    // the real import: the start names the file and its rows, the batch its counts and users
    const real = (await filtered('导入用户')).filter((r) => r.some((c) => c.includes(file)))
    expect(real.map((r) => [r[3], r[4], r[5], r[7]])).toEqual([
      [
        '导入用户',
        `用户 ${names[0]} 等 2 个`,
        '成功',
        `文件“${file}” 第 2–3 行：新建 2，修改 0，未变更 0，失败 0`,
      ],
      ['导入用户', '—', '成功', `文件“${file}”，共 2 行`],
    ])
    for (const row of real) expect(row.join(' ')).not.toMatch(/#[0-9a-f]{8}/)
    await screenshot(page, 'operlog-audit-import')

    const dry = (await filtered('导入用户（仅校验）')).filter((r) => r.some((c) => c.includes(file)))
    expect(dry.map((r) => [r[3], r[7]])).toEqual([
      ['导入用户（仅校验）', `文件“${file}”，共 2 行，仅校验，不写入`],
    ])
    await screenshot(page, 'operlog-audit-dry-run')

    // the bind: the user by name, and no row for fetching the key
    const binds = (await filtered('绑定两步验证')).filter((r) => r[4] === `用户 ${nick}`)
    expect(binds).toHaveLength(1)
    expect(binds[0].join(' ')).not.toContain(code)
    const mfaRow = page
      .getByTestId('operation-log-table')
      .locator('tr.ant-table-row')
      .filter({ has: page.locator('td', { hasText: new RegExp(`^用户 ${nick}$`) }) })
    await button(mfaRow, '详情').click()
    await page.getByTestId('changes-table').waitFor()
    await expect
      .poll(async () => (await page.getByTestId('changes-table').locator('td').allTextContents()).join('|'))
      .toContain('两步验证|未绑定|已绑定')
    await page.waitForTimeout(500)
    await screenshot(page, 'operlog-audit-mfa')
    await page.locator('.ant-drawer-close').click()
    const fetched = await api<{ total: number }>('POST', '/log/operation/list', {
      token: admin,
      body: { summary: '获取两步验证密钥', pageNum: 1, pageSize: 1 },
    })
    expect(fetched.data.total).toBe(0)
  })
})
