import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, MSG, ROLE_TYPE } from '@amg/contract'
import { roles, userRoles, users } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { csvOf, importForm, runImport } from './helpers/workbooks'

/**
 * 允许导入超级管理员 (DESIGN.md §15, §6a): a row that would make someone 超级管理员 fails unless the
 * import was started with the option; with it, only a super admin may still grant it.
 */

const HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
const row = (nickName: string, role = '', group = '') => [nickName, '', '', '', '', role, group, '']
const SUPER = '超级管理员'
const GROUP = '超管组_sa'

let t: TestApp
let superRoleId: number
beforeAll(async () => {
  t = await createTestApp()
  const [role] = await t.db.select().from(roles).where(eq(roles.type, ROLE_TYPE.superAdmin))
  superRoleId = role.id
  expect(role.roleName).toBe(SUPER)
  // a group carrying 超级管理员: joining it makes a super admin too
  const group = await t.call('POST', '/api/user_groups/insert', {
    token: t.adminToken,
    body: { groupName: GROUP, status: 1, roleIds: String(superRoleId) },
  })
  expect(group.status, group.body.msg).toBe(200)
})
afterAll(async () => t.close())

const userByName = async (nickName: string) =>
  (await t.db.select().from(users).where(eq(users.nickName, nickName)))[0]
const holdsSuper = async (nickName: string) => {
  const user = await userByName(nickName)
  if (!user) return false
  const held = await t.db
    .select()
    .from(userRoles)
    .where(and(eq(userRoles.userId, user.id), eq(userRoles.roleId, superRoleId)))
  return held.length > 0
}
const file = (rows: string[][]) => Buffer.from(csvOf([HEADER, ...rows]))
const importCsv = (rows: string[][], opts: Parameters<typeof runImport>[2] = {}) =>
  runImport(t, file(rows), { fileName: 'users.csv', ...opts })

describe('允许导入超级管理员', () => {
  it('without the option, a row giving 超级管理员 (by role or by group) fails saying so; the others go in', async () => {
    const rows = [row('sa_off_role', SUPER), row('sa_off_group', '', GROUP), row('sa_off_plain')]
    for (const opts of [{ dryRun: true }, {}, { allowSuperAdmin: false }]) {
      const { job, result } = await importCsv(
        rows.map((r) => [`${r[0]}${opts.allowSuperAdmin === false ? '_2' : ''}`, ...r.slice(1)]),
        opts,
      )
      const dry = opts.dryRun === true
      expect(job).toMatchObject({ status: 'done', total: 3, inserted: 1, failed: 2 })
      expect(result.get(2)?.slice(8)).toEqual([MSG.importRowFailed, MSG.importSuperAdminNotAllowed])
      expect(result.get(3)?.slice(8)).toEqual([MSG.importRowFailed, MSG.importSuperAdminNotAllowed])
      expect(result.get(4)?.[8]).toBe(MSG.importRowInserted)
      if (!dry)
        expect(await userByName(`sa_off_plain${opts.allowSuperAdmin === false ? '_2' : ''}`)).toBeDefined()
    }
    for (const name of ['sa_off_role', 'sa_off_group', 'sa_off_role_2', 'sa_off_group_2'])
      expect(await userByName(name), name).toBeUndefined()
  })

  it('with the option, a super admin imports them', async () => {
    const { job, result } = await importCsv([row('sa_on_role', SUPER), row('sa_on_group', '', GROUP)], {
      allowSuperAdmin: true,
    })
    expect(job, JSON.stringify([...result])).toMatchObject({ status: 'done', inserted: 2, failed: 0 })
    expect(await holdsSuper('sa_on_role')).toBe(true)
    expect(await userByName('sa_on_group')).toBeDefined()
  })

  it('with the option, anyone else is still refused: only a super admin grants super admin', async () => {
    const importer = await t.userWithCodes(['user', 'user:import', 'user:add', 'user:role', 'user:group'])
    const { job, result } = await importCsv(
      [row('sa_weak_role', SUPER), row('sa_weak_group', '', GROUP), row('sa_weak_plain')],
      { token: importer.token, allowSuperAdmin: true },
    )
    expect(job).toMatchObject({ status: 'done', total: 3, inserted: 1, failed: 2 })
    expect(result.get(2)?.[9]).toMatch(new RegExp(`^${BEYOND_POWER_PREFIX}`))
    expect(result.get(3)?.[9]).toMatch(new RegExp(`^${BEYOND_POWER_PREFIX}`))
    expect(await userByName('sa_weak_role')).toBeUndefined()
    expect(await userByName('sa_weak_group')).toBeUndefined()
    // and without it, the option's own reason
    const off = await importCsv([row('sa_weak_role', SUPER)], { token: importer.token })
    expect(off.result.get(2)?.[9]).toBe(MSG.importSuperAdminNotAllowed)
  })

  it('upsert: adding 超级管理员 to an existing user needs the option; a super admin imported as is stays unchanged', async () => {
    await importCsv([row('sa_existing')])
    const add = await importCsv([row('sa_existing', SUPER)], { mode: 'upsert' })
    expect(add.job).toMatchObject({ updated: 0, failed: 1 })
    expect(add.result.get(2)?.[9]).toBe(MSG.importSuperAdminNotAllowed)
    expect(await holdsSuper('sa_existing')).toBe(false)
    const allowed = await importCsv([row('sa_existing', SUPER)], { mode: 'upsert', allowSuperAdmin: true })
    expect(allowed.job).toMatchObject({ updated: 1, failed: 0 })
    expect(await holdsSuper('sa_existing')).toBe(true)
    // what an export gives back: the super admin with their role, no option needed
    const again = await importCsv([row('sa_existing', SUPER)], { mode: 'upsert' })
    expect(again.job).toMatchObject({ unchanged: 1, failed: 0 })
  })

  it('refuses a value of allowSuperAdmin that is not true or false', async () => {
    const { body, headers } = await importForm(file([row('sa_bad')]), 'users.csv', {
      allowSuperAdmin: 'maybe',
    })
    const res = await t.call('POST', '/api/user/import', { token: t.adminToken, body, headers })
    expect([res.status, res.body.msg]).toEqual([400, MSG.importAllowSuperAdminInvalid])
  })
})
