import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { organizations, positions } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { csvOf, runImport, sofficeXlsx } from './helpers/workbooks'

/** The department tree in one file (DESIGN.md §15): paths created as POST /org/insert creates them. */

let t: TestApp
let c: ScopedCompany
beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
})
afterAll(async () => t.close())

const orgNamed = async (name: string) =>
  (await t.db.select().from(organizations).where(eq(organizations.organizationName, name)))[0]

describe('POST /api/org/import', () => {
  it('creates the missing departments and positions; refused rows fail alone; dry run equals real run', async () => {
    const file = sofficeXlsx(
      csvOf([
        ['部门全称*', '职位'],
        ['总公司/研发中心/平台部/存储组', '员工'],
        ['总公司/研发中心/平台部', ''],
        ['总公司/研发中心/平台部/存储组', '员工'],
        ['总公司/研发中心/平台-部', ''],
        ['总公司/研发中心/测试部', '不存在的职位'],
        ['别的公司/甲', ''],
      ]),
    )
    const path = '/api/org/import'
    const dry = await runImport(t, file, { path, dryRun: true, mode: 'upsert' })
    expect(await orgNamed('平台部')).toBeUndefined()
    const real = await runImport(t, file, { path, mode: 'upsert' })
    expect([...real.result.entries()]).toEqual([...dry.result.entries()])
    expect(real.job).toMatchObject({ status: 'done', total: 6, inserted: 1, unchanged: 0, failed: 5 })
    const reason = (row: number) => real.result.get(row)?.[3]
    expect(reason(2)).toBe(
      '部门全称/职位“总公司/研发中心/平台部/存储组/员工”在文件中重复（第 2 行与第 4 行）',
    )
    expect(real.result.get(3)?.[2]).toBe(MSG.importRowInserted)
    expect(reason(5)).toBe(MSG.orgNameNoHyphen)
    expect(reason(6)).toBe('职位“不存在的职位”不存在')
    expect(reason(7)).toBe('部门“别的公司”不存在')
    const platform = await orgNamed('平台部')
    expect(platform.parent).toBe(c.orgA)
    // the failed row's departments rolled back with it
    expect(await orgNamed('测试部')).toBeUndefined()
  })

  it('a scoped administrator creates only below a root of their scope', async () => {
    const file = sofficeXlsx(
      csvOf([
        ['部门全称*', '职位'],
        ['总公司/研发中心/前端组/组件', '员工'],
        ['总公司/销售部/华东', ''],
        ['总公司/新部门', ''],
      ]),
    )
    const { job, result } = await runImport(t, file, { path: '/api/org/import', token: c.scoped.token })
    expect(job).toMatchObject({ inserted: 1, failed: 2 })
    expect(result.get(3)?.[3]).toBe(MSG.orgOutOfScope)
    expect(result.get(4)?.[3]).toBe(MSG.orgOutOfScope)
    const made = await orgNamed('组件')
    expect(made.parent).toBe(c.orgA1)
    const held = await t.db.select().from(positions).where(eq(positions.orgId, made.id))
    expect(held).toHaveLength(1)
  })
})
