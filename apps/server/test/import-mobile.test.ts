import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { users } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { csvOf, runImport } from './helpers/workbooks'

/** A mobile typed with a Chinese input method's full-width digits imports as the digits (DESIGN.md §15). */

const HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
const row = (nickName: string, mobile: string) => [nickName, '', mobile, '', '', '', '', '']

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const mobileOf = async (nickName: string) =>
  (await t.db.select().from(users).where(eq(users.nickName, nickName)))[0]?.mobile
const importCsv = (rows: string[][], mode = 'insert') =>
  runImport(t, Buffer.from(csvOf([HEADER, ...rows])), { fileName: 'users.csv', mode })

describe('full-width digits in 手机号', () => {
  it('are stored as digits; the same number in either form is no change; a wrong one fails as one', async () => {
    const first = await importCsv([
      row('fw_mobile_a', '１３８００１３８０００'),
      row('fw_mobile_b', '２３８００１３８０００'),
    ])
    expect(first.job).toMatchObject({ status: 'done', inserted: 1, failed: 1 })
    expect(first.result.get(3)?.[9]).toBe(MSG.mobileInvalid)
    expect(await mobileOf('fw_mobile_a')).toBe('13800138000')
    expect(await mobileOf('fw_mobile_b')).toBeUndefined()

    for (const mobile of ['13800138000', '１３８００１３８０００']) {
      const again = await importCsv([row('fw_mobile_a', mobile)], 'upsert')
      expect(again.job, mobile).toMatchObject({ unchanged: 1, updated: 0, failed: 0 })
    }
    const changed = await importCsv([row('fw_mobile_a', '１３９００１３９０００')], 'upsert')
    expect(changed.job).toMatchObject({ updated: 1, failed: 0 })
    expect(await mobileOf('fw_mobile_a')).toBe('13900139000')
  })
})
