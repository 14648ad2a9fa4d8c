import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, inArray } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, DATA_SCOPE, MSG } from '@amg/contract'
import { positionUsers, roleAuths, roles, userGroupUsers, userRoles, users } from '../src/db/schema'
import { operationLogs } from '../src/db/audit-schema'
import { verifyPassword } from '../src/auth/password'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { TEST_USER_PASSWORD } from './helpers/constants'
import { csvOf, runImport, sofficeXlsx } from './helpers/workbooks'

/**
 * User import (DESIGN.md §15) from workbooks LibreOffice wrote: each row passes the single calls'
 * rules, a bad row fails alone with its reason, the dry run equals the real run.
 */

const HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
const FRONT = '总公司/研发中心/前端组/员工'
const SALES = '总公司/销售部/员工'

let t: TestApp
let c: ScopedCompany
beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
})
afterAll(async () => t.close())

const userByName = async (nickName: string) =>
  (await t.db.select().from(users).where(eq(users.nickName, nickName)))[0]
const userCount = async () => (await t.db.select({ id: users.id }).from(users)).length

describe('POST /api/user/import (insert), a workbook from LibreOffice', () => {
  // row 1 the header, row 3 blank, trailing empty rows: the numbers are the spreadsheet's own
  const csv = csvOf([
    HEADER,
    ['imp_a', '甲', 13800000001, '正常', `${FRONT}；${SALES}`, '', '全公司群', ''],
    ['', '', '', '', '', '', '', ''],
    ['imp_b', '', '', '冻结', '', '', '', ''],
    ['imp_a', '', '', '', '', '', '', ''],
    ['imp_c', '', 12345, '', '', '', '', ''],
    ['imp_d', '', '', '', '总公司/不存在/员工', '', '', ''],
    ['admin', '', '', '', '', '', '', ''],
    ['imp_e', '', '', '', '', '', '', 'weak'],
    ['imp_f', '己', 13800000002, '正常', `${FRONT}; ${SALES};`, '', '全公司群', ''],
    ['imp_g', '', '', '暂停', '', '', '', ''],
    ['', '', '', '', '', '', '', ''],
    ['', '', '', '', '', '', '', ''],
  ])
  let file: Buffer
  beforeAll(() => {
    file = sofficeXlsx(csv)
  })

  it('dry run: reports every row, changes nothing; the real run does exactly what it reported', async () => {
    const before = await userCount()
    const logsBefore = (await t.db.select({ id: operationLogs.id }).from(operationLogs)).length
    const dry = await runImport(t, file, { dryRun: true })
    expect(dry.job).toMatchObject({ status: 'done', total: 9, done: 9, inserted: 2, updated: 0, failed: 7 })
    expect(await userCount()).toBe(before)
    // the request's own row only: a dry run's batches roll back with their rows
    expect((await t.db.select({ id: operationLogs.id }).from(operationLogs)).length).toBe(logsBefore + 1)

    const real = await runImport(t, file)
    const { status, total, inserted, updated, unchanged, failed } = real.job
    expect({ status, total, inserted, updated, unchanged, failed }).toEqual({
      status: dry.job.status,
      total: dry.job.total,
      inserted: dry.job.inserted,
      updated: dry.job.updated,
      unchanged: dry.job.unchanged,
      failed: dry.job.failed,
    })
    expect([...real.result.entries()]).toEqual([...dry.result.entries()])
    expect(await userCount()).toBe(before + 2)

    const r = real.result
    expect(r.get(1)).toEqual([...HEADER, '结果', '原因'])
    const reason = (row: number) => r.get(row)?.[9]
    const outcome = (row: number) => r.get(row)?.[8]
    // duplicate names: both rows fail, each naming both row numbers
    expect(reason(2)).toBe('登录名“imp_a”在文件中重复（第 2 行与第 5 行）')
    expect(reason(5)).toBe('登录名“imp_a”在文件中重复（第 2 行与第 5 行）')
    expect(outcome(4)).toBe(MSG.importRowInserted)
    expect(reason(6)).toBe(MSG.mobileInvalid)
    expect(reason(7)).toBe('岗位“总公司/不存在/员工”不存在')
    expect(reason(8)).toBe('用户昵称已存在')
    expect(reason(9)).toBe(MSG.passwordPolicy)
    expect(outcome(10)).toBe(MSG.importRowInserted)
    expect(reason(11)).toBe(MSG.importStatusInvalid)
    // the row as sent: the phone number LibreOffice stored as a number comes back as its digits
    expect(r.get(10)?.slice(0, 3)).toEqual(['imp_f', '己', '13800000002'])

    const f = await userByName('imp_f')
    expect(f).toMatchObject({ realName: '己', mobile: '13800000002', status: 1, passwordIsInitial: 1 })
    expect(await verifyPassword(TEST_USER_PASSWORD, f.passwordHash)).toBe(true)
    const held = await t.db
      .select({ id: positionUsers.positionId })
      .from(positionUsers)
      .where(eq(positionUsers.userId, f.id))
    expect(held.map((p) => p.id).sort()).toEqual([c.posA1, c.posB].sort())
    const grouped = await t.db.select().from(userGroupUsers).where(eq(userGroupUsers.userId, f.id))
    expect(grouped.map((g) => g.groupId)).toEqual([c.group])
    expect((await userByName('imp_b')).status).toBe(2)
    expect(await userByName('imp_a')).toBeUndefined()

    // one log row for the request and one for the batch, holding the batch's changes
    const [batchRow] = await t.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.summary, '导入用户'))
      .orderBy(operationLogs.id)
      .then((rows) => rows.filter((row) => row.rowChanges !== null))
    expect(batchRow.msg).toContain('新建 2')
    expect(JSON.stringify(batchRow.rowChanges)).toContain('imp_f')
  })

  it('hashes the initial password once per job, not per row', async () => {
    const names = Array.from({ length: 30 }, (_, i) => [`hash_once_${i}`, '', '', '', '', '', '', ''])
    const started = Date.now()
    const { job } = await runImport(t, sofficeXlsx(csvOf([HEADER, ...names])))
    expect(job).toMatchObject({ inserted: 30, failed: 0 })
    const hashes = await t.db
      .select({ h: users.passwordHash })
      .from(users)
      .where(
        inArray(
          users.nickName,
          names.map((n) => n[0]),
        ),
      )
    expect(new Set(hashes.map((h) => h.h)).size).toBe(1)
    expect(Date.now() - started).toBeLessThan(60_000)
  })
})

describe('a scoped administrator imports: rows beyond power or reach fail alone', () => {
  it('each refused row names its reason; the others go in', async () => {
    const [superRole] = await t.db.select().from(roles).where(eq(roles.type, 1))
    const [wide] = await t.db
      .insert(roles)
      .values({ roleName: '全公司只读', type: 2, status: 1, dataScope: DATA_SCOPE.all })
      .returning({ id: roles.id })
    await t.db.insert(roleAuths).values({ roleId: wide.id, authCode: 'user' })
    t.app.ctx.changes.dropAll()
    const file = sofficeXlsx(
      csvOf([
        HEADER,
        ['sc_in', '', '', '', FRONT, '', '', ''],
        ['sc_out', '', '', '', SALES, '', '', ''],
        ['sc_none', '', '', '', '', '', '', ''],
        ['sc_super', '', '', '', FRONT, superRole.roleName, '', ''],
        ['sc_wide', '', '', '', FRONT, '全公司只读', '', ''],
        ['outside_user', '改名', '', '', SALES, '', '', ''],
      ]),
    )
    // 允许导入超级管理员 on: what refuses sc_super is the power check itself
    const options = { token: c.scoped.token, mode: 'upsert', allowSuperAdmin: true }
    const dry = await runImport(t, file, { ...options, dryRun: true })
    const real = await runImport(t, file, options)
    expect(real.job).toMatchObject({ status: 'done', total: 6, inserted: 1, failed: 5 })
    expect([...real.result.entries()]).toEqual([...dry.result.entries()])
    const reason = (row: number) => real.result.get(row)?.[9] ?? ''
    expect(real.result.get(2)?.[8]).toBe(MSG.importRowInserted)
    expect(reason(3)).toBe(MSG.positionOutOfScope)
    expect(reason(4)).toBe(MSG.positionRequiredInScope)
    expect(reason(5).startsWith(BEYOND_POWER_PREFIX)).toBe(true)
    expect(reason(6).startsWith(BEYOND_POWER_PREFIX)).toBe(true)
    expect(reason(7)).toBe(MSG.userOutOfScope)
    const inside = await userByName('sc_in')
    expect(inside).toBeDefined()
    for (const name of ['sc_out', 'sc_none', 'sc_super', 'sc_wide'])
      expect(await userByName(name)).toBeUndefined()
    const superHeld = await t.db.select().from(userRoles).where(eq(userRoles.roleId, superRole.id))
    expect(superHeld.every((r) => r.userId !== inside.id)).toBe(true)
    expect((await userByName('outside_user')).realName).toBeNull()
  })
})

describe('export → import changes nothing', () => {
  it('the exported workbook imported with upsert leaves every user as it was', async () => {
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/user/export',
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(exported.statusCode).toBe(200)
    expect(exported.headers['content-type']).toContain('spreadsheetml')
    const before = await t.db.select().from(users).orderBy(users.id)
    const links = async () => ({
      p: await t.db.select().from(positionUsers),
      r: await t.db.select().from(userRoles),
      g: await t.db.select().from(userGroupUsers),
    })
    const linksBefore = await links()
    const { job } = await runImport(t, exported.rawPayload, { mode: 'upsert' })
    expect(job).toMatchObject({
      status: 'done',
      inserted: 0,
      updated: 0,
      failed: 0,
      unchanged: before.length,
    })
    expect(await t.db.select().from(users).orderBy(users.id)).toEqual(before)
    const after = await links()
    const sort = <T>(rows: T[]) => rows.map((x) => JSON.stringify(x)).sort()
    expect(sort(after.p)).toEqual(sort(linksBefore.p))
    expect(sort(after.r)).toEqual(sort(linksBefore.r))
    expect(sort(after.g)).toEqual(sort(linksBefore.g))
  })

  it('the scoped administrator exports only the users their list shows, positions in scope only', async () => {
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/user/export',
      headers: { 'x-auth-token': c.scoped.token },
    })
    const { sheetRows } = await import('./helpers/workbooks')
    const rows = [...(await sheetRows(exported.rawPayload)).values()].slice(1)
    const names = rows.map((r) => r[0])
    expect(names).toContain('inside_user')
    expect(names).not.toContain('outside_user')
    const straddler = rows.find((r) => r[0] === 'straddler')
    if (straddler) expect(straddler[4]).toBe(FRONT)
  })

  it('upsert changes what a row says and only that', async () => {
    const file = sofficeXlsx(
      csvOf([HEADER, ['inside_user', '新名字', 13900000000, '正常', SALES, '', '', '']]),
    )
    const { job } = await runImport(t, file, { mode: 'upsert' })
    expect(job).toMatchObject({ updated: 1, failed: 0 })
    const u = await userByName('inside_user')
    expect(u).toMatchObject({ realName: '新名字', mobile: '13900000000' })
    const held = await t.db.select().from(positionUsers).where(eq(positionUsers.userId, u.id))
    expect(held.map((h) => h.positionId)).toEqual([c.posB])
  })
})
