import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, desc, eq } from 'drizzle-orm'
import { MSG, importStationNotAllowed } from '@amg/contract'
import { organizations, positions, stations } from '../src/db/schema'
import { operationLogs } from '../src/db/audit-schema'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { csvOf, runImport, sofficeXlsx } from './helpers/workbooks'

/**
 * The department tree in one file (DESIGN.md §15): paths created as POST /org/insert creates them,
 * job titles as POST /station/insert does, positions as PUT /position/batch/insert does.
 */

let t: TestApp
let c: ScopedCompany
beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
})
afterAll(async () => t.close())

const orgNamed = async (name: string) =>
  (await t.db.select().from(organizations).where(eq(organizations.organizationName, name)))[0]

const stationNamed = async (name: string) =>
  (await t.db.select().from(stations).where(eq(stations.stationName, name)))[0]

const positionOf = async (orgId: number, stationId: number) =>
  (
    await t.db
      .select()
      .from(positions)
      .where(and(eq(positions.orgId, orgId), eq(positions.stationId, stationId)))
  )[0]

describe('POST /api/org/import', () => {
  it('creates the missing departments, job titles and positions; refused rows fail alone; dry run equals real run', async () => {
    // a job title the single call refuses: the import's reason is the call's own message
    const badName = '职'.repeat(65)
    const single = await t.call('POST', '/api/station/insert', {
      token: t.adminToken,
      body: { stationName: badName, type: 1 },
    })
    expect(single.status).toBe(400)
    const file = sofficeXlsx(
      csvOf([
        ['部门全称*', '职位'],
        ['总公司/研发中心/平台部/存储组', '员工'],
        ['总公司/研发中心/平台部', ''],
        ['总公司/研发中心/平台部/存储组', '员工'],
        ['总公司/研发中心/平台-部', ''],
        ['总公司/研发中心/测试部', '测试工程师'],
        ['别的公司/甲', ''],
        ['总公司/销售部', '测试工程师'],
        ['总公司/销售部', badName],
      ]),
    )
    const path = '/api/org/import'
    const dry = await runImport(t, file, { path, dryRun: true, mode: 'upsert' })
    expect(await orgNamed('平台部')).toBeUndefined()
    expect(await stationNamed('测试工程师')).toBeUndefined()
    const real = await runImport(t, file, { path, mode: 'upsert' })
    expect([...real.result.entries()]).toEqual([...dry.result.entries()])
    expect(real.job).toMatchObject({ status: 'done', total: 8, inserted: 3, unchanged: 0, failed: 5 })
    const reason = (row: number) => real.result.get(row)?.[3]
    expect(reason(2)).toBe(
      '部门全称/职位“总公司/研发中心/平台部/存储组/员工”在文件中重复（第 2 行与第 4 行）',
    )
    expect(real.result.get(3)?.[2]).toBe(MSG.importRowInserted)
    expect(reason(5)).toBe(MSG.orgNameNoHyphen)
    expect(real.result.get(6)?.[2]).toBe(MSG.importRowInserted)
    expect(reason(7)).toBe('部门“别的公司”不存在')
    expect(real.result.get(8)?.[2]).toBe(MSG.importRowInserted)
    expect(reason(9)).toBe(single.body.msg)
    const platform = await orgNamed('平台部')
    expect(platform.parent).toBe(c.orgA)

    // the new job title, as POST /station/insert makes it, and its positions in both departments
    const made = await stationNamed('测试工程师')
    expect(made).toMatchObject({ type: 1, createUserId: c.adminId, updateUserId: c.adminId })
    const testDept = await orgNamed('测试部')
    expect(testDept.parent).toBe(c.orgA)
    expect(await positionOf(testDept.id, made.id)).toMatchObject({ status: 1 })
    expect(await positionOf(c.orgB, made.id)).toMatchObject({ status: 1 })
    expect(await stationNamed(badName)).toBeUndefined()

    // the batch's operation-log row holds the job title it created, as the single call's row would
    const [log] = await t.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.summary, '导入部门'))
      .orderBy(desc(operationLogs.id))
      .limit(1)
    expect(log.msg).toBe('文件“users.xlsx” 第 2–9 行：新建 3，修改 0，未变更 0，失败 5')
    expect(JSON.stringify(log.rowChanges)).toContain('测试工程师')
    expect(JSON.stringify(log.rowChanges)).toContain('stations')

    // imported again: nothing new, the job title is used as it is
    const again = await runImport(t, file, { path, mode: 'upsert' })
    expect(again.job).toMatchObject({ inserted: 0, unchanged: 3, failed: 5 })
    expect(await t.db.select().from(stations).where(eq(stations.stationName, '测试工程师'))).toHaveLength(1)
  })

  it('a caller who may not call POST /station/insert fails the rows that need a new job title', async () => {
    const weak = await t.userWithCodes(['org', 'org:import'])
    const single = await t.call('POST', '/api/station/insert', {
      token: weak.token,
      body: { stationName: '无权职位', type: 1 },
    })
    expect(single.status).toBe(403)
    const file = sofficeXlsx(
      csvOf([
        ['部门全称*', '职位'],
        ['总公司/研发中心/无权组', '无权职位'],
        ['总公司/研发中心/有权组', '员工'],
      ]),
    )
    const dry = await runImport(t, file, { path: '/api/org/import', token: weak.token, dryRun: true })
    const { job, result } = await runImport(t, file, { path: '/api/org/import', token: weak.token })
    expect([...result.entries()]).toEqual([...dry.result.entries()])
    expect(job).toMatchObject({ inserted: 1, failed: 1 })
    expect(result.get(2)?.[3]).toBe(importStationNotAllowed('无权职位'))
    expect(importStationNotAllowed('无权职位')).toBe('职位“无权职位”不存在，新建职位需要“新建职位”权限')
    // the failed row's department rolled back with it
    expect(await orgNamed('无权组')).toBeUndefined()
    expect(await stationNamed('无权职位')).toBeUndefined()
    expect(await orgNamed('有权组')).toBeDefined()
  })

  it('a scoped administrator creates only below a root of their scope', async () => {
    const file = sofficeXlsx(
      csvOf([
        ['部门全称*', '职位'],
        ['总公司/研发中心/前端组/组件', '员工'],
        ['总公司/销售部/华东', ''],
        ['总公司/新部门', ''],
        ['总公司/研发中心/前端组', '前端工程师'],
        ['总公司/销售部', '销售代表'],
      ]),
    )
    const { job, result } = await runImport(t, file, { path: '/api/org/import', token: c.scoped.token })
    expect(job).toMatchObject({ inserted: 2, failed: 3 })
    expect(result.get(3)?.[3]).toBe(MSG.orgOutOfScope)
    expect(result.get(4)?.[3]).toBe(MSG.orgOutOfScope)
    // a new job title is company-wide, but its position only in scope: out of scope, neither is made
    const frontEngineer = await stationNamed('前端工程师')
    expect(await positionOf(c.orgA1, frontEngineer.id)).toBeDefined()
    expect(result.get(6)?.[3]).toBe(MSG.orgOutOfScope)
    expect(await stationNamed('销售代表')).toBeUndefined()
    const made = await orgNamed('组件')
    expect(made.parent).toBe(c.orgA1)
    const held = await t.db.select().from(positions).where(eq(positions.orgId, made.id))
    expect(held).toHaveLength(1)
  })
})
