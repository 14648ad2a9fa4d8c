import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq, gt, and } from 'drizzle-orm'
import { DATA_SCOPE } from '@amg/contract'
import { operationLogs, type AuditChange } from '../src/db/audit-schema'
import { roles } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { csvOf, runImport, sofficeXlsx } from './helpers/workbooks'
import { previousStepCode } from './helpers/totp'

/**
 * The operation log as an auditor reads it (DESIGN.md §9): each row says what happened to what, in
 * words — a dry-run import apart from a real one, an import by its file and counts, a two-step change
 * by its user, a role's permissions by what changed — and a dialog's secret fetch is no change.
 */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

type ListRow = {
  id: number
  summary: string
  resourceName: string | null
  resourceId: string | null
  msg: string | null
}

/** The rows written since `afterId`, oldest first, as the log list answers them. */
async function rowsSince(afterId: number): Promise<ListRow[]> {
  const res = await t.call('POST', '/api/log/operation/list', {
    token: t.adminToken,
    body: { pageNum: 1, pageSize: 100 },
  })
  expect(res.status).toBe(200)
  return (res.body.data.list as ListRow[]).filter((r) => r.id > afterId).reverse()
}
const lastId = async () =>
  Number((await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1))[0]?.id ?? 0)
const detail = async (id: number) =>
  (await t.call('GET', '/api/log/operation/detail', { token: t.adminToken, query: { id } })).body.data as {
    changes: AuditChange[]
  }

describe('imports', () => {
  const HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
  let file: Buffer
  beforeAll(() => {
    file = sofficeXlsx(
      csvOf([
        HEADER,
        ['aud_imp_a', '甲', '', '', '', '', '', ''],
        ['aud_imp_b', '乙', '', '', '', '', '', ''],
        ['aud_imp_a', '', '', '', '', '', '', ''],
        ['aud_imp_c', '丙', '', '', '', '', '', ''],
      ]),
    )
  })

  it('a dry run is logged as 导入用户（仅校验）, with its file; it writes no batch row', async () => {
    const before = await lastId()
    const dry = await runImport(t, file, { dryRun: true, fileName: '员工名单.xlsx' })
    expect(dry.job).toMatchObject({ status: 'done', inserted: 2, failed: 2 })
    const rows = await rowsSince(before)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      summary: '导入用户（仅校验）',
      msg: '文件“员工名单.xlsx”，共 4 行，仅校验，不写入',
    })
    // filtering by the real run's name does not find the dry run
    const real = await t.call('POST', '/api/log/operation/list', {
      token: t.adminToken,
      body: { pageNum: 1, pageSize: 100, summary: '导入用户' },
    })
    expect((real.body.data.list as ListRow[]).some((r) => r.id === rows[0].id)).toBe(false)
  })

  it('a real run: 导入用户 naming the file, rows and counts, and the users it made, never the job id', async () => {
    const before = await lastId()
    await runImport(t, file, { fileName: 'C:\\fakepath\\员工\u202E名单.xlsx' })
    const rows = await rowsSince(before)
    expect(rows.map((r) => r.summary)).toEqual(['导入用户', '导入用户'])
    const [start, batch] = rows
    expect(start.msg).toBe('文件“员工名单.xlsx”，共 4 行')
    expect(batch.msg).toBe('文件“员工名单.xlsx” 第 2–5 行：新建 2，修改 0，未变更 0，失败 2')
    expect(batch.resourceName).toBe('用户 aud_imp_b 等 2 个')
    for (const row of rows) {
      expect(row.resourceId).toBeNull()
      expect(row.resourceName ?? '').not.toMatch(/#/)
    }
  })
})

describe('two-step sign-in', () => {
  it('opening the bind dialog (the key) logs nothing; binding, unbinding and a reset name the user', async () => {
    const user = await t.userWithCodes([], 'aud_mfa_user')
    const before = await lastId()
    for (let i = 0; i < 3; i++) {
      const setup = await t.call('POST', '/api/user/mfa/setup', { token: user.token, body: {} })
      expect(setup.status).toBe(200)
    }
    expect(await rowsSince(before)).toEqual([])

    const setup = await t.call('POST', '/api/user/mfa/setup', { token: user.token, body: {} })
    const code = await previousStepCode(setup.body.data.secret)
    const enable = await t.call('POST', '/api/user/mfa/enable', { token: user.token, body: { code } })
    expect(enable.status).toBe(200)
    const [bound] = await rowsSince(before)
    expect(bound).toMatchObject({
      summary: '绑定两步验证',
      resourceId: String(user.id),
      resourceName: '用户 aud_mfa_user',
    })
    // the code sent is no record, and is nowhere in the row
    expect(JSON.stringify(bound)).not.toContain(code)
    expect((await detail(bound.id)).changes).toEqual([
      {
        field: 'mfa',
        before: '未绑定',
        after: '已绑定',
        target: { type: 'user', id: user.id, name: 'aud_mfa_user' },
      },
    ])

    const reset = await t.call('DELETE', '/api/user/mfa/reset', {
      token: t.adminToken,
      query: { userId: user.id },
    })
    expect(reset.status).toBe(200)
    const [, resetRow] = await rowsSince(before)
    expect(resetRow).toMatchObject({
      summary: '重置两步验证',
      resourceId: String(user.id),
      resourceName: '用户 aud_mfa_user',
    })
    expect((await detail(resetRow.id)).changes).toMatchObject([
      { field: 'mfa', before: '已绑定', after: '未绑定' },
    ])
  })

  it('a two-step row about a user outside a scoped reader’s reach is not shown to them', async () => {
    const outsider = await t.userWithCodes([], 'aud_mfa_out')
    const setup = await t.call('POST', '/api/user/mfa/setup', { token: outsider.token, body: {} })
    const code = await previousStepCode(setup.body.data.secret)
    expect(
      (await t.call('POST', '/api/user/mfa/enable', { token: outsider.token, body: { code } })).status,
    ).toBe(200)
    const [row] = await t.db
      .select()
      .from(operationLogs)
      .where(
        and(eq(operationLogs.summary, '绑定两步验证'), eq(operationLogs.resourceId, String(outsider.id))),
      )
    // a reader of the log whose data scope is only themselves
    const reader = await t.userWithCodes(['operlog'])
    await t.db.update(roles).set({ dataScope: DATA_SCOPE.self }).where(eq(roles.id, reader.roleId))
    await t.app.ctx.authz.invalidate()
    const own = await t.call('GET', '/api/log/operation/detail', {
      token: reader.token,
      query: { id: row.id },
    })
    expect(own.status).toBe(404)
    const all = await t.call('GET', '/api/log/operation/detail', {
      token: t.adminToken,
      query: { id: row.id },
    })
    expect(all.status).toBe(200)
  })
})

describe('a role’s permissions', () => {
  it('an edit lists only the permissions added and removed, not those kept', async () => {
    const created = await t.call('POST', '/api/role/insert', {
      token: t.adminToken,
      body: { roleName: '审计差异角色', authCodes: ['user', 'role', 'usergroup'] },
    })
    const id = created.body.data as number
    const before = await lastId()
    const res = await t.call('PUT', '/api/role/update', {
      token: t.adminToken,
      body: { id, roleName: '审计差异角色', status: 1, authCodes: ['user', 'role', 'position'] },
    })
    expect(res.status).toBe(200)
    const [row] = await rowsSince(before)
    expect(row.resourceName).toBe('角色 审计差异角色')
    const links = (await detail(row.id)).changes.filter((c) => c.field === 'links')
    expect(links).toHaveLength(1)
    const link = links[0] as Extract<AuditChange, { field: 'links' }>
    expect(link.added.map((a) => a.id)).toEqual(['position'])
    expect(link.removed.map((r) => r.id)).toEqual(['usergroup'])

    // saved again unchanged: no permission appears at all
    const again = await lastId()
    await t.call('PUT', '/api/role/update', {
      token: t.adminToken,
      body: { id, roleName: '审计差异角色', status: 1, authCodes: ['position', 'user', 'role'] },
    })
    const [same] = await rowsSince(again)
    expect((await detail(same.id)).changes.filter((c) => c.field === 'links')).toEqual([])
    const stored = await t.db.select().from(operationLogs).where(gt(operationLogs.id, again))
    expect(JSON.stringify(stored[0].rowChanges ?? [])).not.toContain('role_auths')
  })
})
