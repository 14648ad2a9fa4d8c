import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, desc, eq, inArray } from 'drizzle-orm'
import { MSG, BEYOND_POWER_PREFIX } from '@amg/contract'
import { roles, sessions, userRoles, users } from '../src/db/schema'
import { operationLogs } from '../src/db/audit-schema'
import { verifyPassword } from '../src/auth/password'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'

const GOOD_PASSWORD = 'Abcdef@123456'
const LAST_SUPER_ADMIN = '不能删除、冻结或移除最后一个超级管理员'

let t: TestApp
let adminId: number
let superRoleId: number
beforeAll(async () => {
  t = await createTestApp()
  adminId = (await userIdByName(t.db, 'admin'))!
  const [role] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.type, 1))
  superRoleId = role.id
})
afterAll(async () => t.close())

const userRow = async (id: number) => (await t.db.select().from(users).where(eq(users.id, id)))[0]
const sessionCount = async (userId: number) =>
  (await t.db.select().from(sessions).where(eq(sessions.userId, userId))).length

const insert = (body: Record<string, unknown>, token = t.adminToken) =>
  t.call('POST', '/api/user/insert', { token, body })
const update = (body: Record<string, unknown>, token = t.adminToken) =>
  t.call('PUT', '/api/user/update', { token, body })

async function newUser(nickName: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await insert({ nickName, ...extra })
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data
}

describe('POST /api/user/insert', () => {
  it('creates an active user with the configured initial password', async () => {
    const res = await insert({ nickName: '  zhangsan  ', realName: '张三', mobile: '13800138000' })
    expect(res.status).toBe(200)
    expect(res.body.code).toBe(200)
    expect(res.body.msg).toBe(MSG.created)
    const id = res.body.data
    expect(typeof id).toBe('number')
    const row = await userRow(id)
    expect(row).toMatchObject({
      nickName: 'zhangsan',
      realName: '张三',
      mobile: '13800138000',
      status: 1,
      passwordIsInitial: 1,
    })
    expect(row.createUserId).toBe(adminId)
    expect(row.passwordHash).not.toContain(TEST_USER_PASSWORD)
    expect(await verifyPassword(t.config.initialUserPassword, row.passwordHash)).toBe(true)
    await expect(t.login('zhangsan', t.config.initialUserPassword)).resolves.toBeTruthy()
  })

  it('keeps a given status and password (then not the initial one)', async () => {
    const id = await newUser('withpass', { password: GOOD_PASSWORD, status: 2 })
    const row = await userRow(id)
    expect(row).toMatchObject({ status: 2, passwordIsInitial: 0, mobile: null, realName: null })
    expect(await verifyPassword(GOOD_PASSWORD, row.passwordHash)).toBe(true)
  })

  it('treats empty optional fields as absent', async () => {
    const id = await newUser('emptyopts', { password: '', mobile: '', realName: '' })
    expect(await userRow(id)).toMatchObject({ passwordIsInitial: 1, mobile: null, realName: null })
  })

  it.each([
    [{ nickName: '   ' }, MSG.nickNameBlank],
    [{ nickName: '' }, MSG.nickNameBlank],
    [{}, MSG.nickNameBlank],
    [{ nickName: 'm1', mobile: '1380013800' }, MSG.mobileInvalid],
    [{ nickName: 'm2', mobile: '23800138000' }, MSG.mobileInvalid],
    [{ nickName: 'm3', mobile: '1380013800a' }, MSG.mobileInvalid],
    [{ nickName: 'p1', password: 'short@A1' }, MSG.passwordPolicy],
    [{ nickName: 'p2', password: 'abcdefghijklmn' }, MSG.passwordPolicy],
    [{ nickName: 'p3', password: 'Abcdef@12345中文' }, MSG.passwordPolicy],
    [{ nickName: 'p4', password: 'Abcdef@1234567890123456789012345' }, MSG.passwordPolicy],
    [{ nickName: 's1', status: 3 }, MSG.statusRequired],
  ])('refuses %j with 400 and its message, changing nothing', async (body, msg) => {
    const before = (await t.db.select({ id: users.id }).from(users)).length
    const res = await insert(body)
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(msg)
    expect((await t.db.select({ id: users.id }).from(users)).length).toBe(before)
  })

  it('stores a mobile typed in full-width digits as digits, on insert and on update', async () => {
    const id = await newUser('mobile_fw', { mobile: '１３８００１３８０００' })
    expect((await userRow(id)).mobile).toBe('13800138000')
    const res = await update({ id, nickName: 'mobile_fw', status: 1, mobile: ' １３９００１３９０００ ' })
    expect(res.status, res.body.msg).toBe(200)
    expect((await userRow(id)).mobile).toBe('13900139000')
    // found by the digits, whichever were typed
    const found = await t.call('POST', '/api/user/list', {
      token: t.adminToken,
      body: { keyword: '１３９００１３９' },
    })
    expect(found.body.data.list.map((u: { id: number }) => u.id)).toContain(id)
    // a full-width number that is no mobile is refused as one
    const bad = await update({ id, nickName: 'mobile_fw', status: 1, mobile: '２３８００１３８０００' })
    expect([bad.status, bad.body.msg]).toEqual([400, MSG.mobileInvalid])
    expect((await userRow(id)).mobile).toBe('13900139000')
  })

  it('refuses an oversized nickName and a malformed body with 400', async () => {
    expect((await insert({ nickName: 'x'.repeat(65) })).status).toBe(400)
    const bad = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: '{"nickName":',
      headers: { 'content-type': 'application/json' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.msg).toBe(MSG.badJson)
  })

  it('refuses a duplicate nickName with 409', async () => {
    await newUser('dupname')
    const res = await insert({ nickName: ' dupname ' })
    expect(res.status).toBe(409)
    expect(res.body.msg).toBe('用户昵称已存在')
  })

  it('needs a session and the user:add permission', async () => {
    expect((await insert({ nickName: 'anon' }, '')).status).toBe(401)
    const viewer = await t.userWithCodes(['user'])
    const denied = await insert({ nickName: 'byviewer' }, viewer.token)
    expect(denied.status).toBe(403)
    expect(await userIdByName(t.db, 'byviewer')).toBeUndefined()
    const adder = await t.userWithCodes(['user:add'])
    const res = await insert({ nickName: 'byadder' }, adder.token)
    expect(res.status).toBe(200)
    expect((await userRow(res.body.data)).createUserId).toBe(adder.id)
  })
})

describe('POST /api/user/list', () => {
  let prefix: string
  beforeAll(async () => {
    prefix = 'lst_'
    for (let i = 1; i <= 5; i++) await newUser(`${prefix}${i}`, { status: i === 5 ? 2 : 1 })
    await newUser('other_LST_x')
  })

  const list = (body: Record<string, unknown>, token = t.adminToken) =>
    t.call('POST', '/api/user/list', { token, body })

  it('pages newest first with the total, never carrying a password', async () => {
    const first = await list({ nickName: prefix, pageNum: 1, pageSize: 2 })
    expect(first.status).toBe(200)
    expect(first.body.data.total).toBe(6) // substring, case-insensitive: other_LST_x too
    expect(first.body.data.list.map((u: { nickName: string }) => u.nickName)).toEqual([
      'other_LST_x',
      'lst_5',
    ])
    const last = await list({ nickName: prefix, pageNum: 3, pageSize: 2 })
    expect(last.body.data.list.map((u: { nickName: string }) => u.nickName)).toEqual(['lst_2', 'lst_1'])
    const beyond = await list({ nickName: prefix, pageNum: 4, pageSize: 2 })
    expect(beyond.body.data).toEqual({ list: [], total: 6 })
    const row = first.body.data.list[1]
    expect(Object.keys(row).sort()).toEqual([
      'createTime',
      'id',
      'mfaEnabled',
      'mobile',
      'nickName',
      'positions',
      'realName',
      'roles',
      'serviceAccount',
      'source',
      'status',
      'updateTime',
      'writable',
    ])
    expect(row.serviceAccount).toBe(false)
    expect(row.source).toBe('local')
    expect(row.writable).toBe(true)
    expect(new Date(row.createTime).toISOString()).toBe(row.createTime)
    expect(first.raw).not.toMatch(/password|scrypt\$/i)
  })

  it('filters by status and by substring, treating LIKE wildcards literally', async () => {
    const frozen = await list({ nickName: 'lst', status: 2, pageNum: 1, pageSize: 10 })
    expect(frozen.body.data.list.map((u: { nickName: string }) => u.nickName)).toEqual(['lst_5'])
    expect((await list({ nickName: '%', pageNum: 1, pageSize: 10 })).body.data.total).toBe(0)
    await newUser('lstQ9') // 'lst_' would match it if '_' were a wildcard
    expect((await list({ nickName: 'lst_', pageNum: 1, pageSize: 10 })).body.data.total).toBe(6)
    const all = await list({ pageNum: 1, pageSize: 1000 })
    expect(all.body.data.total).toBe((await t.db.select({ id: users.id }).from(users)).length)
  })

  it('refuses bad paging with 400', async () => {
    expect((await list({ pageNum: 0, pageSize: 10 })).status).toBe(400)
    expect((await list({ pageNum: 1, pageSize: 'x' })).status).toBe(400)
    expect((await list({ pageNum: 1, pageSize: 10, status: 7 })).status).toBe(400)
  })

  it('needs a session and the user permission', async () => {
    expect((await list({ pageNum: 1, pageSize: 10 }, '')).status).toBe(401)
    const none = await t.userWithCodes(['role'])
    expect((await list({ pageNum: 1, pageSize: 10 }, none.token)).status).toBe(403)
    const viewer = await t.userWithCodes(['user'])
    expect((await list({ pageNum: 1, pageSize: 10 }, viewer.token)).status).toBe(200)
  })
})

describe('GET /api/user/detail', () => {
  it('answers the user without a password or hash', async () => {
    const id = await newUser('detailme', { realName: '李四', mobile: '13900139000' })
    const res = await t.call('GET', '/api/user/detail', { token: t.adminToken, query: { userId: id } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      id,
      nickName: 'detailme',
      realName: '李四',
      mobile: '13900139000',
      status: 1,
      passwordIsInitial: true,
    })
    expect(res.raw).not.toMatch(/password_?hash|scrypt\$/i)
  })

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const missing = await t.call('GET', '/api/user/detail', {
      token: t.adminToken,
      query: { userId: 999999 },
    })
    expect(missing.status).toBe(404)
    expect(missing.body.msg).toBe('用户不存在')
    expect(
      (await t.call('GET', '/api/user/detail', { token: t.adminToken, query: { userId: 'abc' } })).status,
    ).toBe(400)
    expect((await t.call('GET', '/api/user/detail', { token: t.adminToken })).status).toBe(400)
  })

  it('needs a session and the user permission', async () => {
    expect((await t.call('GET', '/api/user/detail', { query: { userId: adminId } })).status).toBe(401)
    const none = await t.userWithCodes(['role'])
    expect(
      (await t.call('GET', '/api/user/detail', { token: none.token, query: { userId: adminId } })).status,
    ).toBe(403)
    const viewer = await t.userWithCodes(['user'])
    expect(
      (await t.call('GET', '/api/user/detail', { token: viewer.token, query: { userId: adminId } })).status,
    ).toBe(200)
  })
})

describe('PUT /api/user/update', () => {
  it('changes the fields, keeping the password when none is given', async () => {
    const id = await newUser('upd1', { mobile: '13800000001' })
    const before = await userRow(id)
    const res = await update({ id, nickName: 'upd1b', realName: '王五', mobile: '13800000002', status: 1 })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.updated)
    expect(res.body.data).toBeNull()
    const row = await userRow(id)
    expect(row).toMatchObject({
      nickName: 'upd1b',
      realName: '王五',
      mobile: '13800000002',
      status: 1,
      updateUserId: adminId,
    })
    expect(row.passwordHash).toBe(before.passwordHash)
    expect(row.passwordIsInitial).toBe(1)
    expect(row.updateTime.getTime()).toBeGreaterThanOrEqual(before.updateTime.getTime())
    // clearing the optional fields
    await update({ id, nickName: 'upd1b', realName: '', mobile: null, status: 1 })
    expect(await userRow(id)).toMatchObject({ realName: null, mobile: null })
  })

  it.each([
    [{ nickName: '  ', status: 1 }, MSG.nickNameRequired],
    [{ status: 1 }, MSG.nickNameRequired],
    [{ nickName: 'x' }, MSG.statusRequired],
    [{ nickName: 'x', status: 0 }, MSG.statusRequired],
    [{ nickName: 'x', status: null }, MSG.statusRequired],
    [{ nickName: 'x', status: 1, mobile: '12345' }, MSG.mobileInvalid],
    [{ nickName: 'x', status: 1, password: 'weakpassword1' }, MSG.passwordPolicy],
  ])('refuses %j with 400 and its message, changing nothing', async (body, msg) => {
    const id = await newUser(`updbad_${Math.random().toString(36).slice(2, 8)}`)
    const before = await userRow(id)
    const res = await update({ id, ...body })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(msg)
    expect(await userRow(id)).toEqual(before)
  })

  it('refuses a nickName another user has with 409, but accepts the user own', async () => {
    const id = await newUser('upd2')
    await newUser('upd2taken')
    const res = await update({ id, nickName: 'upd2taken', status: 1 })
    expect(res.status).toBe(409)
    expect(res.body.msg).toBe('用户昵称已存在')
    expect((await update({ id, nickName: 'upd2', status: 1 })).status).toBe(200)
  })

  it('answers 404 for an unknown user', async () => {
    const res = await update({ id: 999999, nickName: 'ghost', status: 1 })
    expect(res.status).toBe(404)
    expect(res.body.msg).toBe('用户不存在')
  })

  it('freezing a user ends their sessions at once', async () => {
    const id = await newUser('freezeme')
    const token = await t.login('freezeme', t.config.initialUserPassword)
    expect((await t.call('GET', '/api/user/current', { token })).status).toBe(200)
    expect((await update({ id, nickName: 'freezeme', status: 2 })).status).toBe(200)
    expect((await userRow(id)).status).toBe(2)
    expect(await sessionCount(id)).toBe(0)
    expect((await t.call('GET', '/api/user/current', { token })).status).toBe(401)
    // unfreezing lets them sign in again
    expect((await update({ id, nickName: 'freezeme', status: 1 })).status).toBe(200)
    await expect(t.login('freezeme', t.config.initialUserPassword)).resolves.toBeTruthy()
  })

  it('setting a password marks it no longer initial and ends that user sessions', async () => {
    const id = await newUser('pwreset')
    const token = await t.login('pwreset', t.config.initialUserPassword)
    expect((await update({ id, nickName: 'pwreset', status: 1, password: GOOD_PASSWORD })).status).toBe(200)
    const row = await userRow(id)
    expect(row.passwordIsInitial).toBe(0)
    expect(await verifyPassword(GOOD_PASSWORD, row.passwordHash)).toBe(true)
    expect((await t.call('GET', '/api/user/current', { token })).status).toBe(401)
    await expect(t.login('pwreset', GOOD_PASSWORD)).resolves.toBeTruthy()
  })

  // DESIGN.md §6a: a stolen session must not become a takeover, so one's own password changes only
  // through PUT /api/user/password with the old one.
  it.each([
    ['an administrator with user:edit', false],
    ['the super admin', true],
  ])('refuses %s setting their own password here with 403, changing nothing', async (_who, superAdmin) => {
    const editor = superAdmin ? { id: adminId, token: t.adminToken } : await t.userWithCodes(['user:edit'])
    const before = await userRow(editor.id)
    const other = await t.login(before.nickName, superAdmin ? t.config.initialAdminPassword : undefined)
    const sessionsBefore = await sessionCount(editor.id)
    const res = await update(
      {
        id: editor.id,
        nickName: before.nickName,
        realName: '改过的名字',
        status: 1,
        password: GOOD_PASSWORD,
      },
      editor.token,
    )
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ code: 403, msg: MSG.ownPasswordViaChange, data: null })
    expect(await userRow(editor.id)).toEqual(before)
    expect(await sessionCount(editor.id)).toBe(sessionsBefore)
    expect((await t.call('GET', '/api/user/current', { token: other })).status).toBe(200)
    // the refusal is a security event in the operation log
    const [row] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(row).toMatchObject({
      operatorId: editor.id,
      result: 'denied',
      status: 403,
      msg: MSG.ownPasswordViaChange,
    })
    // a weak password is refused the same way: the rule is about whose password, not which
    const weak = await update(
      { id: editor.id, nickName: before.nickName, status: 1, password: 'x' },
      editor.token,
    )
    expect(weak.body.msg).toBe(MSG.ownPasswordViaChange)
  })

  it('lets users change their other fields, with the password left empty', async () => {
    const editor = await t.userWithCodes(['user:edit'])
    const before = await userRow(editor.id)
    for (const [i, password] of [undefined, '', null, '   '].entries()) {
      const res = await update(
        { id: editor.id, nickName: before.nickName, realName: `自己${i}`, status: 1, password },
        editor.token,
      )
      expect(res.status, res.body.msg).toBe(200)
    }
    const after = await userRow(editor.id)
    expect(after.realName).toBe('自己3')
    expect(after.passwordHash).toBe(before.passwordHash)
    expect((await t.call('GET', '/api/user/current', { token: editor.token })).status).toBe(200)
    // and may still reset another user's password, which ends that user's sessions
    const id = await newUser('reset_by_peer')
    const token = await t.login('reset_by_peer', t.config.initialUserPassword)
    expect(
      (await update({ id, nickName: 'reset_by_peer', status: 1, password: GOOD_PASSWORD }, editor.token))
        .status,
    ).toBe(200)
    expect((await t.call('GET', '/api/user/current', { token })).status).toBe(401)
  })

  it('changes one own password through PUT /api/user/password with the old one', async () => {
    const me = await t.userWithCodes([])
    const other = await t.login((await userRow(me.id)).nickName)
    const res = await t.call('PUT', '/api/user/password', {
      token: me.token,
      body: { oldPassword: TEST_USER_PASSWORD, newPassword: GOOD_PASSWORD },
    })
    expect(res.status).toBe(200)
    expect(await verifyPassword(GOOD_PASSWORD, (await userRow(me.id)).passwordHash)).toBe(true)
    expect((await t.call('GET', '/api/user/current', { token: me.token })).status).toBe(200)
    expect((await t.call('GET', '/api/user/current', { token: other })).status).toBe(401)
  })

  it('refuses to freeze yourself', async () => {
    const [admin] = await t.db.select().from(users).where(eq(users.id, adminId))
    const res = await update({ id: adminId, nickName: admin.nickName, status: 2 })
    expect(res.status).toBe(409)
    expect(res.body.msg).toBe('不能冻结自己！')
    expect((await userRow(adminId)).status).toBe(1)
  })

  it('needs a session and the user:edit permission', async () => {
    const id = await newUser('upd3')
    expect((await update({ id, nickName: 'upd3x', status: 1 }, '')).status).toBe(401)
    const viewer = await t.userWithCodes(['user'])
    expect((await update({ id, nickName: 'upd3x', status: 1 }, viewer.token)).status).toBe(403)
    expect((await userRow(id)).nickName).toBe('upd3')
    const editor = await t.userWithCodes(['user:edit'])
    expect((await update({ id, nickName: 'upd3x', status: 1 }, editor.token)).status).toBe(200)
    expect(await userRow(id)).toMatchObject({ nickName: 'upd3x', updateUserId: editor.id })
  })
})

describe('DELETE /api/user/delete', () => {
  const del = (userId: unknown, token = t.adminToken) =>
    t.call('DELETE', '/api/user/delete', { token, query: { userId: userId as number } })

  it('deletes the user with their links and sessions', async () => {
    const id = await newUser('delme')
    await t.login('delme', t.config.initialUserPassword)
    const [role] = await t.db
      .insert(roles)
      .values({ roleName: 'del_role', type: 3 })
      .returning({ id: roles.id })
    await t.db.insert(userRoles).values({ userId: id, roleId: role.id })
    const res = await del(id)
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.deleted)
    expect(await userRow(id)).toBeUndefined()
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, id))).toEqual([])
    expect(await sessionCount(id)).toBe(0)
    expect(await t.db.select().from(roles).where(eq(roles.id, role.id))).toHaveLength(1)
  })

  it('refuses deleting yourself with 409', async () => {
    const res = await del(adminId)
    expect(res.status).toBe(409)
    expect(res.body.msg).toBe(MSG.deleteSelf)
    expect(await userRow(adminId)).toBeDefined()
  })

  it('answers 404 for an unknown user and 400 for a malformed id', async () => {
    const res = await del(999999)
    expect(res.status).toBe(404)
    expect(res.body.msg).toBe('用户不存在')
    expect((await del('x')).status).toBe(400)
    expect((await del(-1)).status).toBe(400)
  })

  it('needs a session and the user:delete permission', async () => {
    const id = await newUser('del2')
    expect((await del(id, '')).status).toBe(401)
    const viewer = await t.userWithCodes(['user', 'user:edit'])
    expect((await del(id, viewer.token)).status).toBe(403)
    expect(await userRow(id)).toBeDefined()
    const deleter = await t.userWithCodes(['user:delete'])
    expect((await del(id, deleter.token)).status).toBe(200)
    expect(await userRow(id)).toBeUndefined()
  })
})

describe('the last active super admin', () => {
  const unlink = (userId: number, token = t.adminToken) =>
    t.call('PUT', '/api/rel/user-un-rel-role', { token, body: { userId, roleId: superRoleId } })

  it('cannot be deleted, frozen or unlinked from the super-admin role', async () => {
    // only a super admin manages a super admin (DESIGN.md §6a), so a helper is refused before the guard
    const helper = await t.userWithCodes(['user:delete', 'user:edit'])
    const del = await t.call('DELETE', '/api/user/delete', {
      token: helper.token,
      query: { userId: adminId },
    })
    expect(del.status).toBe(403)
    expect(del.body.msg).toBe(`${BEYOND_POWER_PREFIX}超级管理员`)
    const freeze = await update({ id: adminId, nickName: 'admin', status: 2 }, helper.token)
    expect(freeze.status).toBe(403)
    expect(freeze.body.msg).toBe(`${BEYOND_POWER_PREFIX}超级管理员`)
    const unlinked = await unlink(adminId)
    expect(unlinked.status).toBe(409)
    expect(unlinked.body.msg).toBe(LAST_SUPER_ADMIN)
    expect(await userRow(adminId)).toMatchObject({ status: 1 })
    const links = await t.db
      .select()
      .from(userRoles)
      .where(and(eq(userRoles.userId, adminId), eq(userRoles.roleId, superRoleId)))
    expect(links).toHaveLength(1)
    expect(await sessionCount(adminId)).toBeGreaterThan(0)
  })

  it('may be changed while another active super admin remains', async () => {
    const second = await newUser('super2', { password: GOOD_PASSWORD })
    const third = await newUser('super3')
    await t.db.insert(userRoles).values([
      { userId: second, roleId: superRoleId },
      { userId: third, roleId: superRoleId },
    ])
    await t.app.ctx.authz.invalidate()
    // a frozen one does not count
    expect((await update({ id: third, nickName: 'super3', status: 2 })).status).toBe(200)
    expect((await unlink(second)).status).toBe(200)
    expect(
      await t.db
        .select()
        .from(userRoles)
        .where(and(eq(userRoles.userId, second), eq(userRoles.roleId, superRoleId))),
    ).toEqual([])
    const relink = await t.call('PUT', '/api/rel/user-rel-role', {
      token: t.adminToken,
      body: { id: second, roleIds: String(superRoleId) },
    })
    expect(relink.status).toBe(200)
    const secondToken = await t.login('super2', GOOD_PASSWORD)
    // the other super admin removes admin from the role: allowed, admin is then an ordinary user
    expect((await unlink(adminId, secondToken)).status).toBe(200)
    // now super2 is the last one: neither can remove them
    const self = await unlink(second, secondToken)
    expect(self.status).toBe(409)
    expect(self.body.msg).toBe(LAST_SUPER_ADMIN)
    // restore admin for the file's other tests
    const back = await t.call('PUT', '/api/rel/user-rel-role', {
      token: secondToken,
      body: { id: adminId, roleIds: [superRoleId] },
    })
    expect(back.status).toBe(200)
    expect(
      (await t.call('DELETE', '/api/user/delete', { token: t.adminToken, query: { userId: second } })).status,
    ).toBe(200)
    const remaining = await t.db
      .select()
      .from(userRoles)
      .where(and(eq(userRoles.roleId, superRoleId), inArray(userRoles.userId, [adminId, second])))
    expect(remaining.map((r) => r.userId)).toEqual([adminId])
  })
})

describe('API documentation', () => {
  it('lists every user call with its schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json() as { paths: Record<string, Record<string, { tags?: string[]; summary?: string }>> }
    const calls = [
      ['post', '/api/user/list'],
      ['post', '/api/user/insert'],
      ['get', '/api/user/detail'],
      ['put', '/api/user/update'],
      ['delete', '/api/user/delete'],
      ['put', '/api/rel/user-rel-role'],
      ['put', '/api/rel/user-un-rel-role'],
      ['put', '/api/rel/user-rel-groups'],
      ['put', '/api/rel/user-un-rel-groups'],
      ['put', '/api/rel/user-rel-position'],
      ['put', '/api/rel/user-un-rel-position'],
      ['post', '/api/rel/user/rolelist'],
      ['post', '/api/rel/user/grouplist'],
      ['post', '/api/rel/user/positionlist'],
    ]
    for (const [method, url] of calls) {
      const op = doc.paths[url]?.[method]
      expect(op, `${method} ${url}`).toBeDefined()
      expect(op.tags).toEqual(['用户管理'])
      expect(op.summary).toBeTruthy()
    }
  })
})
