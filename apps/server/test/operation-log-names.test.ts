import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { timeZoneOf } from '../src/config'
import { actionName } from '../src/audit/action-name'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'

/**
 * The operation log reads as what happened (DESIGN.md §9): each write named precisely (冻结用户, 重置密码 …),
 * the record it is about by its type and its name as it was then (用户 张三), and every time in the
 * server's zone with its offset, the same on the screen and in the CSV. The app runs in Asia/Shanghai
 * (config `timeZone`) whatever the machine's zone, so the offset is known.
 */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ timeZone: 'Asia/Shanghai' })
})
afterAll(async () => t.close())

const admin = (method: string, url: string, opts: CallOptions = {}) =>
  t.call(method, url, { ...opts, token: t.adminToken })

interface ListedRow {
  id: number
  time: string
  summary: string | null
  resourceId: string | null
  resourceName: string | null
  result: string
  path: string
}

/** The rows the list answers for this filter, newest first. */
async function list(body: Record<string, unknown> = {}): Promise<ListedRow[]> {
  const res = await admin('POST', '/api/log/operation/list', { body: { pageSize: 200, ...body } })
  expect(res.status).toBe(200)
  return res.body.data.list
}
const newest = async () => (await list({ pageSize: 1 }))[0]

let seq = 0
async function newUser(status = 1) {
  const nickName = `named_${++seq}`
  const res = await admin('POST', '/api/user/insert', { body: { nickName, status, realName: '张三' } })
  expect(res.status).toBe(200)
  return { id: res.body.data as number, nickName }
}
const update = (user: { id: number; nickName: string }, change: Record<string, unknown>) =>
  admin('PUT', '/api/user/update', {
    body: { id: user.id, nickName: user.nickName, status: 1, realName: '张三', ...change },
  })

describe('the action is named from the route and what changed', () => {
  it('a user update that only freezes is 冻结用户, one that only unfreezes is 启用用户', async () => {
    const user = await newUser()
    expect((await update(user, { status: 2 })).status).toBe(200)
    expect(await newest()).toMatchObject({ summary: '冻结用户', resourceName: `用户 ${user.nickName}` })
    expect((await update(user, { status: 1 })).status).toBe(200)
    expect(await newest()).toMatchObject({ summary: '启用用户', resourceName: `用户 ${user.nickName}` })
  })

  it('a password set by an admin is 重置密码; an edit of several fields stays 修改用户', async () => {
    const user = await newUser()
    expect((await update(user, { password: 'Reset@Pass2026' })).status).toBe(200)
    expect((await newest()).summary).toBe('重置密码')
    expect((await update(user, { status: 2, realName: '李四' })).status).toBe(200)
    expect((await newest()).summary).toBe('修改用户')
    // nothing changed: still the route's name
    expect((await update(user, { status: 2, realName: '李四' })).status).toBe(200)
    expect((await newest()).summary).toBe('修改用户')
  })

  it('a group disabled and enabled is 禁用用户组 / 启用用户组, named', async () => {
    const made = await admin('POST', '/api/user_groups/insert', {
      body: { groupName: 'named_group', status: 1, description: '' },
    })
    expect(made.status).toBe(200)
    const userGroupsId = made.body.data as number
    const off = await admin('PATCH', '/api/user_groups/enable', { query: { userGroupsId, enable: false } })
    expect(off.status).toBe(200)
    expect(await newest()).toMatchObject({ summary: '禁用用户组', resourceName: '用户组 named_group' })
    await admin('PATCH', '/api/user_groups/enable', { query: { userGroupsId, enable: true } })
    expect((await newest()).summary).toBe('启用用户组')
  })

  it('links keep their route’s name and are filed under the record the route is about', async () => {
    const user = await newUser()
    const role = await admin('POST', '/api/role/insert', {
      body: { roleName: 'named_role', description: '', authCodes: [] },
    })
    expect(role.status).toBe(200)
    await admin('PUT', '/api/rel/user-rel-role', { body: { id: user.id, roleIds: [role.body.data] } })
    expect(await newest()).toMatchObject({ summary: '用户关联角色', resourceName: `用户 ${user.nickName}` })
  })

  it('the list filters by the precise name, exactly', async () => {
    const frozen = await list({ summary: '冻结用户' })
    expect(frozen.length).toBeGreaterThan(0)
    expect(frozen.every((r) => r.summary === '冻结用户')).toBe(true)
    const edits = await list({ summary: '修改用户' })
    expect(edits.every((r) => r.summary === '修改用户')).toBe(true)
    expect(edits.some((r) => r.summary === '冻结用户')).toBe(false)
  })

  it('the rule itself: only a status-only or password-only change renames, and only updates', () => {
    const status = (before: number, after: number) => ({ field: 'status', before, after })
    expect(actionName('修改用户', [status(1, 2)])).toBe('冻结用户')
    expect(actionName('修改普通角色', [status(1, 2)])).toBe('禁用普通角色')
    expect(actionName('修改权限', [status(2, 1)])).toBe('启用权限')
    expect(actionName('启用/禁用岗位', [status(1, 2), status(1, 2)])).toBe('禁用岗位')
    expect(actionName('启用/禁用岗位', [status(1, 2), status(2, 1)])).toBe('启用/禁用岗位')
    expect(actionName('修改用户', [{ field: 'password', before: null, after: '已修改' }])).toBe('重置密码')
    expect(
      actionName('修改用户', [
        { field: 'passwordIsInitial', before: 1, after: 0 },
        { field: 'password', before: null, after: '已修改' },
      ]),
    ).toBe('重置密码')
    expect(actionName('修改用户', [{ field: 'passwordIsInitial', before: 1, after: 0 }])).toBe('修改用户')
    expect(actionName('修改部门', [{ field: 'password', before: null, after: '已修改' }])).toBe('修改部门')
    expect(actionName('修改用户', [status(1, 2), { field: 'realName', before: 'a', after: 'b' }])).toBe(
      '修改用户',
    )
    expect(actionName('新建用户', [{ field: 'status', before: null, after: 1 }])).toBe('新建用户')
    expect(actionName('修改用户', [])).toBe('修改用户')
    expect(actionName(null, [status(1, 2)])).toBeNull()
  })
})

describe('the record is named as it was then', () => {
  it('a renamed user’s earlier rows keep the old name; a deleted user’s row names it', async () => {
    const user = await newUser()
    await update(user, { status: 2 })
    const frozenRow = await newest()
    await update(user, { nickName: `${user.nickName}_new`, status: 2 })
    expect((await newest()).resourceName).toBe(`用户 ${user.nickName}_new`)
    const again = (await list()).find((r) => r.id === frozenRow.id)
    expect(again?.resourceName).toBe(`用户 ${user.nickName}`)

    const del = await admin('DELETE', '/api/user/delete', { query: { userId: user.id } })
    expect(del.status, del.body.msg).toBe(200)
    expect(await newest()).toMatchObject({ summary: '删除用户', resourceName: `用户 ${user.nickName}_new` })
    // the detail answers the same
    const detail = await admin('GET', '/api/log/operation/detail', { query: { id: frozenRow.id } })
    expect(detail.body.data.resourceName).toBe(`用户 ${user.nickName}`)
  })

  it('a refused write, which changed nothing, names the record by its id', async () => {
    const a = await newUser()
    const b = await newUser()
    const dup = await update(b, { nickName: a.nickName })
    expect(dup.status).toBe(409)
    expect(await newest()).toMatchObject({
      summary: '修改用户',
      result: 'denied',
      resourceName: `用户 #${b.id}`,
    })
  })
})

describe('times in the server’s zone, with the offset', () => {
  it('the list, the detail and the login log answer ISO 8601 with +08:00', async () => {
    const row = await newest()
    expect(row.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/)
    expect(Math.abs(Date.parse(row.time) - Date.now())).toBeLessThan(60_000)
    const detail = await admin('GET', '/api/log/operation/detail', { query: { id: row.id } })
    expect(detail.body.data.time).toBe(row.time)
    const logins = await admin('POST', '/api/log/login/list', { body: { pageSize: 5 } })
    expect(logins.status).toBe(200)
    expect(logins.body.data.list.length).toBeGreaterThan(0)
    for (const r of logins.body.data.list) expect(r.time).toMatch(/\+08:00$/)
    // the zone itself, for the console's time-range filter
    expect(logins.body.data.timeZone).toBe('Asia/Shanghai')
    const page = await admin('POST', '/api/log/operation/list', { body: { pageSize: 1 } })
    expect(page.body.data.timeZone).toBe('Asia/Shanghai')
  })

  it('the online sessions answer their times in the same zone', async () => {
    const online = await admin('POST', '/api/session/online/list', { body: { pageSize: 5 } })
    expect(online.status).toBe(200)
    expect(online.body.data.list.length).toBeGreaterThan(0)
    for (const r of online.body.data.list)
      for (const time of [r.loginTime, r.lastSeenTime, r.expiresAt])
        expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/)
  })

  it('the CSV writes the same wall time and offset the screen shows, and the record’s name', async () => {
    const user = await newUser()
    await update(user, { status: 2 })
    const row = await newest()
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/log/operation/export?summary=冻结用户',
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(res.statusCode).toBe(200)
    const lines = res.rawPayload.toString('utf8').slice(1).trim().split('\r\n')
    const header = lines[0].split(',')
    const cells = lines.find((l) => l.startsWith(`${row.id},`))!.split(',')
    const at = (name: string) => cells[header.indexOf(name)]
    // 2026-11-26T14:03:05.123+08:00 on the screen reads 2026-11-26 14:03:05 +08:00, so does the CSV
    const [date, clock] = row.time.split('T')
    expect(at('时间')).toBe(`${date} ${clock.slice(0, 8)} +08:00`)
    expect(at('操作')).toBe('冻结用户')
    expect(at('资源')).toBe(`用户 ${user.nickName}`)
  })

  it('TZ names the zone; anything Intl cannot read falls back to the machine’s', () => {
    const machine = new Intl.DateTimeFormat().resolvedOptions().timeZone
    expect(timeZoneOf('Asia/Shanghai')).toBe('Asia/Shanghai')
    expect(timeZoneOf(':Europe/Paris')).toBe('Europe/Paris')
    expect(timeZoneOf('Not/AZone')).toBe(machine)
    expect(timeZoneOf(undefined)).toBe(machine)
  })
})
