import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, inArray, like } from 'drizzle-orm'
import { DATA_SCOPE, MSG, POLICY_MSG } from '@amg/contract'
import { positionUsers, roleAuths, roles, userGroupUsers, userRoles, users } from '../src/db/schema'
import { operationLogs } from '../src/db/audit-schema'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { csvOf, runImport } from './helpers/workbooks'

/**
 * The set-wise import (DESIGN.md §15): a batch's rows are checked once per combination of positions,
 * roles and groups and written a table at a time, yet each row still passes or fails exactly as the
 * single calls would take it, across batch boundaries (batches of 1,000 rows).
 */

const HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
const FRONT = '总公司/研发中心/前端组/员工'
const SALES = '总公司/销售部/员工'
const csvFile = (rows: (string | number)[][]) => Buffer.from('\ufeff' + csvOf([HEADER, ...rows]))

let t: TestApp
let c: ScopedCompany
beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
})
afterAll(async () => t.close())

/** What the single calls answer the scoped administrator for a new user in FRONT given `roleId`. */
async function singleCallRefusal(nickName: string, roleId: number): Promise<string | null> {
  const inserted = await t.call<number>('POST', '/api/user/insert', {
    token: c.scoped.token,
    body: { nickName, positionIds: [c.posA1] },
  })
  expect(inserted.status, inserted.body.msg).toBe(200)
  const linked = await t.call('PUT', '/api/rel/user-rel-role', {
    token: c.scoped.token,
    body: { id: inserted.body.data, roleIds: String(roleId) },
  })
  return linked.status === 200 ? null : linked.body.msg
}

describe('a scoped administrator imports 1,050 rows: the same combinations over and over, two batches', () => {
  it('rows beyond power, reach or scope fail alone with the single calls’ reasons; the rest go in with their links', async () => {
    const [superRole] = await t.db.select().from(roles).where(eq(roles.type, 1))
    const [wide] = await t.db
      .insert(roles)
      .values({ roleName: '批量全公司', type: 2, status: 1, dataScope: DATA_SCOPE.all })
      .returning({ id: roles.id })
    await t.db.insert(roleAuths).values({ roleId: wide.id, authCode: 'user' })
    t.app.ctx.changes.dropAll()
    const superReason = await singleCallRefusal('single_super', superRole.id)
    const wideReason = await singleCallRefusal('single_wide', wide.id)
    expect(superReason).not.toBeNull()
    expect(wideReason).not.toBeNull()

    const kinds = ['ok', 'super', 'wide', 'sales', 'none'] as const
    const rows = Array.from({ length: 1050 }, (_, i) => {
      const kind = kinds[i % kinds.length]
      const name = `bt_${kind}_${i}`
      if (kind === 'ok') return [name, '', '', '', FRONT, '', '全公司群', '']
      if (kind === 'super') return [name, '', '', '', FRONT, superRole.roleName, '', '']
      if (kind === 'wide') return [name, '', '', '', FRONT, '批量全公司', '', '']
      if (kind === 'sales') return [name, '', '', '', SALES, '', '', '']
      return [name, '', '', '', '', '', '', '']
    })
    const file = csvFile(rows)
    const logsBefore = (await t.db.select({ id: operationLogs.id }).from(operationLogs)).length
    // 允许导入超级管理员 on: what refuses the super-admin rows is the power check itself
    const dry = await runImport(t, file, {
      token: c.scoped.token,
      dryRun: true,
      fileName: 'users.csv',
      allowSuperAdmin: true,
    })
    expect(await t.db.select().from(users).where(like(users.nickName, 'bt_%'))).toEqual([])
    const real = await runImport(t, file, {
      token: c.scoped.token,
      fileName: 'users.csv',
      allowSuperAdmin: true,
    })
    expect(real.job).toMatchObject({ status: 'done', total: 1050, done: 1050, inserted: 210, failed: 840 })
    expect([...real.result.entries()]).toEqual([...dry.result.entries()])

    // a row that went in has an empty 原因, which the reader leaves out
    const expected: Record<(typeof kinds)[number], string[]> = {
      ok: [MSG.importRowInserted],
      super: [MSG.importRowFailed, superReason!],
      wide: [MSG.importRowFailed, wideReason!],
      sales: [MSG.importRowFailed, MSG.positionOutOfScope],
      none: [MSG.importRowFailed, MSG.positionRequiredInScope],
    }
    rows.forEach((row, i) => {
      const kind = kinds[i % kinds.length]
      expect(real.result.get(i + 2)?.slice(8), row[0] as string).toEqual(expected[kind])
    })

    const made = await t.db.select().from(users).where(like(users.nickName, 'bt_%'))
    expect(made.map((u) => u.nickName).every((n) => n.startsWith('bt_ok_'))).toBe(true)
    expect(made).toHaveLength(210)
    const ids = made.map((u) => u.id)
    const held = await t.db.select().from(positionUsers).where(inArray(positionUsers.userId, ids))
    expect(held.map((h) => h.positionId)).toEqual(ids.map(() => c.posA1))
    const joined = await t.db.select().from(userGroupUsers).where(inArray(userGroupUsers.userId, ids))
    expect(joined.map((j) => j.groupId)).toEqual(ids.map(() => c.group))
    expect(await t.db.select().from(userRoles).where(inArray(userRoles.userId, ids))).toEqual([])
    expect(made.every((u) => u.mustChangePassword === 1 && u.passwordIsInitial === 1)).toBe(true)

    // a log row per batch (two), each holding its own new users and links
    const batchRows = (await t.db.select().from(operationLogs).where(eq(operationLogs.summary, '导入用户')))
      .filter((row) => row.rowChanges !== null)
      .slice(-2)
    expect(batchRows.map((row) => row.msg)).toEqual([
      '文件“users.csv” 第 2–1001 行：新建 200，修改 0，未变更 0，失败 800',
      '文件“users.csv” 第 1002–1051 行：新建 10，修改 0，未变更 0，失败 40',
    ])
    expect(JSON.stringify(batchRows[1].rowChanges)).toContain('bt_ok_1045')
    expect(JSON.stringify(batchRows[1].rowChanges)).toContain('position_users')
    expect((await t.db.select({ id: operationLogs.id }).from(operationLogs)).length).toBeGreaterThan(
      logsBefore,
    )
  })
})

describe('an imported password passes the password policy, as on POST /user/insert', () => {
  it('a password naming its user fails that row with the policy’s message; the others go in', async () => {
    const single = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'pol_single', password: 'Xpol_single@2026' },
    })
    expect(single.status).toBe(400)
    expect(single.body.msg).toBe(POLICY_MSG.containsUsername)
    const { job, result } = await runImport(
      t,
      csvFile([
        ['pol_named', '', '', '', '', '', '', 'Xpol_named@2026'],
        ['pol_fine', '', '', '', '', '', '', 'Strong#Pass2026'],
      ]),
      { fileName: 'users.csv' },
    )
    expect(job).toMatchObject({ inserted: 1, failed: 1 })
    expect(result.get(2)?.[9]).toBe(POLICY_MSG.containsUsername)
    expect(result.get(3)?.[8]).toBe(MSG.importRowInserted)
  })
})

describe('export → import of many users changes nothing', () => {
  it('the exported workbook, imported with upsert, is unchanged row for row', async () => {
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/user/export',
      headers: { 'x-auth-token': t.adminToken },
    })
    const before = await t.db.select().from(users).orderBy(users.id)
    expect(before.length).toBeGreaterThan(200)
    const { job } = await runImport(t, exported.rawPayload, { mode: 'upsert' })
    expect(job).toMatchObject({
      status: 'done',
      inserted: 0,
      updated: 0,
      failed: 0,
      unchanged: before.length,
    })
    expect(await t.db.select().from(users).orderBy(users.id)).toEqual(before)
  })
})
