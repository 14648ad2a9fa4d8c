import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asc, eq } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { roleAuths, roles, userGroupRoles, userGroupUsers, userGroups, users } from '../src/db/schema'
import { hashPassword } from '../src/auth/password'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'

let t: TestApp
let adminId: number
let superRoleId: number

beforeAll(async () => {
  t = await createTestApp()
  adminId = (await userIdByName(t.db, 'admin'))!
  const [sr] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.type, 1))
  superRoleId = sr.id
})
afterAll(async () => t.close())

let seq = 0
async function makeRole(name = `role_${++seq}`, type = 3) {
  const [r] = await t.db.insert(roles).values({ roleName: name, type, status: 1 }).returning({ id: roles.id })
  return r.id
}
async function makeUser(name = `user_${++seq}`) {
  const [u] = await t.db
    .insert(users)
    .values({ nickName: name, realName: `实名${name}`, passwordHash: await hashPassword('x'), status: 1 })
    .returning({ id: users.id })
  return u.id
}
async function makeGroup(body: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/user_groups/insert', {
    token: t.adminToken,
    body: { groupName: `group_${++seq}`, status: 1, description: 'desc', ...body },
  })
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data as number
}
const groupRow = async (id: number) => (await t.db.select().from(userGroups).where(eq(userGroups.id, id)))[0]
const groupRoleIds = async (id: number) =>
  (
    await t.db
      .select()
      .from(userGroupRoles)
      .where(eq(userGroupRoles.groupId, id))
      .orderBy(asc(userGroupRoles.roleId))
  ).map((r) => r.roleId)
const groupUserIds = async (id: number) =>
  (
    await t.db
      .select()
      .from(userGroupUsers)
      .where(eq(userGroupUsers.groupId, id))
      .orderBy(asc(userGroupUsers.userId))
  ).map((r) => r.userId)

describe('POST /user_groups/insert', () => {
  it('creates the group and its links in one go (comma-joined ids and arrays)', async () => {
    const r1 = await makeRole()
    const r2 = await makeRole()
    const u1 = await makeUser()
    const u2 = await makeUser()
    const res = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: {
        groupName: ' 研发组 ',
        status: 1,
        description: '研发',
        roleIds: `${r1}, ${r2}`,
        userIds: [u1, String(u2)],
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.created)
    const id = res.body.data
    expect(typeof id).toBe('number')
    const row = await groupRow(id)
    expect(row).toMatchObject({
      groupName: '研发组',
      status: 1,
      description: '研发',
      createUserId: adminId,
      updateUserId: adminId,
    })
    expect(await groupRoleIds(id)).toEqual([r1, r2])
    expect(await groupUserIds(id)).toEqual([u1, u2])
  })

  it('accepts a group without links', async () => {
    const id = await makeGroup({ roleIds: '', userIds: null, description: undefined })
    expect(await groupRoleIds(id)).toEqual([])
    expect((await groupRow(id)).description).toBeNull()
  })

  it('answers the SPEC.md §5 messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 1 }, MSG.groupNameRequired],
      [{ groupName: '   ', status: 1 }, MSG.groupNameRequired],
      [{ groupName: null, status: 1 }, MSG.groupNameRequired],
      [{ groupName: 'g-no-status' }, MSG.statusRequired],
      [{ groupName: 'g-bad-status', status: 3 }, MSG.statusRequired],
      [{ groupName: 'g-null-status', status: null }, MSG.statusRequired],
    ]
    for (const [body, msg] of cases) {
      const res = await t.call('POST', '/api/user_groups/insert', { token: t.adminToken, body })
      expect(res.status).toBe(400)
      expect(res.body.msg).toBe(msg)
    }
    const long = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: 'x'.repeat(65), status: 1 },
    })
    expect(long.status).toBe(400)
    expect(await t.db.select().from(userGroups).where(eq(userGroups.groupName, 'g-no-status'))).toHaveLength(
      0,
    )
  })

  it('refuses a duplicate name with 409', async () => {
    await makeGroup({ groupName: '重复组' })
    const res = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: '重复组', status: 1 },
    })
    expect(res.status).toBe(409)
    expect(res.body.msg).toBe('用户组名称已存在')
  })

  it('refuses unknown or malformed ids and creates nothing', async () => {
    const r1 = await makeRole()
    const unknownRole = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: 'bad-links-1', status: 1, roleIds: `${r1},999999` },
    })
    expect(unknownRole.status).toBe(404)
    expect(unknownRole.body.msg).toContain('角色不存在')
    const unknownUser = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: 'bad-links-2', status: 1, userIds: '999998' },
    })
    expect(unknownUser.status).toBe(404)
    expect(unknownUser.body.msg).toContain('用户不存在')
    const malformed = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: 'bad-links-3', status: 1, roleIds: '1,abc' },
    })
    expect(malformed.status).toBe(400)
    const rows = await t.db.select().from(userGroups)
    expect(rows.filter((g) => g.groupName.startsWith('bad-links'))).toHaveLength(0)
  })

  it('lets only a super admin link the super-admin role', async () => {
    const { token } = await t.userWithCodes(['usergroup', 'usergroup:add'])
    const res = await t.call('POST', '/api/user_groups/insert', {
      token,
      body: { groupName: 'escalate', status: 1, roleIds: String(superRoleId) },
    })
    expect(res.status).toBe(403)
    expect(await t.db.select().from(userGroups).where(eq(userGroups.groupName, 'escalate'))).toHaveLength(0)
    const admin = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: 'admins', status: 1, roleIds: String(superRoleId) },
    })
    expect(admin.status).toBe(200)
  })

  it('is authorized by usergroup:add', async () => {
    const body = { groupName: 'authz-insert', status: 1 }
    expect((await t.call('POST', '/api/user_groups/insert', { body })).status).toBe(401)
    const without = await t.userWithCodes(['usergroup'])
    const denied = await t.call('POST', '/api/user_groups/insert', { token: without.token, body })
    expect(denied.status).toBe(403)
    expect(denied.body.msg).toBe(MSG.forbidden)
    const withCode = await t.userWithCodes(['usergroup', 'usergroup:add'])
    const res = await t.call('POST', '/api/user_groups/insert', { token: withCode.token, body })
    expect(res.status).toBe(200)
    expect((await groupRow(res.body.data)).createUserId).toBe(withCode.id)
  })
})

describe('POST /user_groups/list', () => {
  let editorId: number
  beforeAll(async () => {
    await t.db.delete(userGroups)
    for (let i = 1; i <= 12; i++) {
      await makeGroup({
        groupName: `list-${String(i).padStart(2, '0')}`,
        status: i % 3 === 0 ? 2 : 1,
        description: i === 5 ? '特别的描述' : 'plain',
      })
    }
    editorId = await makeUser('list-editor')
    await t.db.update(userGroups).set({ updateUserId: editorId }).where(eq(userGroups.groupName, 'list-01'))
  })

  it('pages with the right total, newest first, with operators joined', async () => {
    const p1 = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { pageNum: 1, pageSize: 10 },
    })
    expect(p1.status).toBe(200)
    expect(p1.body.data.total).toBe(12)
    expect(p1.body.data.list).toHaveLength(10)
    expect(p1.body.data.list[0].groupName).toBe('list-12')
    const p2 = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { pageNum: 2, pageSize: 10 },
    })
    expect(p2.body.data.list.map((g: { groupName: string }) => g.groupName)).toEqual(['list-02', 'list-01'])
    expect(p2.body.data.total).toBe(12)
    const first = p2.body.data.list[1]
    expect(first).toMatchObject({
      status: 1,
      description: 'plain',
      createUserVo: { id: adminId, nickName: 'admin' },
      updateUserVo: { id: editorId, nickName: 'list-editor' },
    })
    expect(new Date(first.createTime).getTime()).not.toBeNaN()
    const p3 = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { pageNum: 3, pageSize: 10 },
    })
    expect(p3.body.data).toEqual({ list: [], total: 12 })
    const exact = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { pageNum: 1, pageSize: 12 },
    })
    expect(exact.body.data.list).toHaveLength(12)
  })

  it('answers null operators when the creator is gone', async () => {
    const gone = await makeUser('gone-user')
    await t.db.update(userGroups).set({ createUserId: gone }).where(eq(userGroups.groupName, 'list-03'))
    await t.db.delete(users).where(eq(users.id, gone))
    const res = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { groupName: 'list-03', pageNum: 1, pageSize: 10 },
    })
    expect(res.body.data.list[0].createUserVo).toBeNull()
  })

  it('filters by name and description substrings and by status', async () => {
    const byName = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { groupName: 'LIST-1', pageNum: 1, pageSize: 10 },
    })
    expect(byName.body.data.total).toBe(3)
    const byDesc = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { description: '特别', pageNum: 1, pageSize: 10 },
    })
    expect(byDesc.body.data.list.map((g: { groupName: string }) => g.groupName)).toEqual(['list-05'])
    const disabled = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { status: 2, pageNum: 1, pageSize: 10 },
    })
    expect(disabled.body.data.total).toBe(4)
    const wildcard = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { groupName: '%', pageNum: 1, pageSize: 10 },
    })
    expect(wildcard.body.data.total).toBe(0)
    const empty = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { groupName: '', status: null, pageNum: 1, pageSize: 10 },
    })
    expect(empty.body.data.total).toBe(12)
  })

  it('refuses bad paging', async () => {
    const res = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { pageNum: 0, pageSize: 10 },
    })
    expect(res.status).toBe(400)
    const bad = await t.call('POST', '/api/user_groups/list', {
      token: t.adminToken,
      body: { pageNum: 'x', pageSize: 10 },
    })
    expect(bad.status).toBe(400)
  })

  it('is authorized by usergroup', async () => {
    const body = { pageNum: 1, pageSize: 10 }
    expect((await t.call('POST', '/api/user_groups/list', { body })).status).toBe(401)
    expect(
      (await t.call('POST', '/api/user_groups/list', { token: (await t.userWithCodes([])).token, body }))
        .status,
    ).toBe(403)
    expect(
      (
        await t.call('POST', '/api/user_groups/list', {
          token: (await t.userWithCodes(['usergroup'])).token,
          body,
        })
      ).status,
    ).toBe(200)
  })
})

describe('GET /user_groups/detail', () => {
  it('answers the group with its role and user ids', async () => {
    const r = await makeRole()
    const u = await makeUser()
    const id = await makeGroup({ groupName: '详情组', roleIds: String(r), userIds: String(u) })
    const res = await t.call('GET', '/api/user_groups/detail', {
      token: t.adminToken,
      query: { userGroupsId: id },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      id,
      groupName: '详情组',
      status: 1,
      roleIds: [r],
      userIds: [u],
      createUserVo: { id: adminId, nickName: 'admin' },
    })
  })

  it('answers 404 for an unknown id and 400 without one', async () => {
    const missing = await t.call('GET', '/api/user_groups/detail', {
      token: t.adminToken,
      query: { userGroupsId: 999999 },
    })
    expect(missing.status).toBe(404)
    expect(missing.body.msg).toBe('用户组不存在')
    expect((await t.call('GET', '/api/user_groups/detail', { token: t.adminToken })).status).toBe(400)
    expect(
      (await t.call('GET', '/api/user_groups/detail', { token: t.adminToken, query: { userGroupsId: 'x' } }))
        .status,
    ).toBe(400)
  })

  it('is authorized by usergroup', async () => {
    const id = await makeGroup()
    expect((await t.call('GET', '/api/user_groups/detail', { query: { userGroupsId: id } })).status).toBe(401)
    const denied = await t.userWithCodes(['role'])
    expect(
      (await t.call('GET', '/api/user_groups/detail', { token: denied.token, query: { userGroupsId: id } }))
        .status,
    ).toBe(403)
    const allowed = await t.userWithCodes(['usergroup'])
    expect(
      (await t.call('GET', '/api/user_groups/detail', { token: allowed.token, query: { userGroupsId: id } }))
        .status,
    ).toBe(200)
  })
})

describe('PUT /user_groups/update', () => {
  it('changes name, status and description and records the updater', async () => {
    const id = await makeGroup({ groupName: 'before-update' })
    const editor = await t.userWithCodes(['usergroup', 'usergroup:edit'])
    const res = await t.call('PUT', '/api/user_groups/update', {
      token: editor.token,
      body: { id, groupName: 'after-update', status: 2, description: '新描述' },
    })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.updated)
    expect(await groupRow(id)).toMatchObject({
      groupName: 'after-update',
      status: 2,
      description: '新描述',
      updateUserId: editor.id,
      createUserId: adminId,
    })
    const same = await t.call('PUT', '/api/user_groups/update', {
      token: t.adminToken,
      body: { id, groupName: 'after-update', status: 1, description: null },
    })
    expect(same.status).toBe(200)
    expect((await groupRow(id)).description).toBeNull()
  })

  it('answers the messages, 404 and 409', async () => {
    const id = await makeGroup({ groupName: 'upd-a' })
    await makeGroup({ groupName: 'upd-b' })
    const blank = await t.call('PUT', '/api/user_groups/update', {
      token: t.adminToken,
      body: { id, groupName: ' ', status: 1 },
    })
    expect(blank.body.msg).toBe(MSG.groupNameRequired)
    const noStatus = await t.call('PUT', '/api/user_groups/update', {
      token: t.adminToken,
      body: { id, groupName: 'upd-a' },
    })
    expect(noStatus.status).toBe(400)
    expect(noStatus.body.msg).toBe(MSG.statusRequired)
    const dup = await t.call('PUT', '/api/user_groups/update', {
      token: t.adminToken,
      body: { id, groupName: 'upd-b', status: 1 },
    })
    expect(dup.status).toBe(409)
    expect(dup.body.msg).toBe('用户组名称已存在')
    const missing = await t.call('PUT', '/api/user_groups/update', {
      token: t.adminToken,
      body: { id: 999999, groupName: 'zz', status: 1 },
    })
    expect(missing.status).toBe(404)
    expect((await groupRow(id)).groupName).toBe('upd-a')
  })

  it('is authorized by usergroup:edit', async () => {
    const id = await makeGroup()
    const body = { id, groupName: `authz-upd-${id}`, status: 1 }
    expect((await t.call('PUT', '/api/user_groups/update', { body })).status).toBe(401)
    expect(
      (
        await t.call('PUT', '/api/user_groups/update', {
          token: (await t.userWithCodes(['usergroup'])).token,
          body,
        })
      ).status,
    ).toBe(403)
  })
})

describe('PATCH /user_groups/enable', () => {
  it('sets status 1 for true and 2 for false', async () => {
    const id = await makeGroup({ status: 1 })
    const off = await t.call('PATCH', '/api/user_groups/enable', {
      token: t.adminToken,
      query: { userGroupsId: id, enable: false },
    })
    expect(off.status).toBe(200)
    expect((await groupRow(id)).status).toBe(2)
    const on = await t.call('PATCH', '/api/user_groups/enable', {
      token: t.adminToken,
      query: { userGroupsId: id, enable: 'true' },
    })
    expect(on.status).toBe(200)
    expect((await groupRow(id)).status).toBe(1)
  })

  it('answers 404 and 400', async () => {
    expect(
      (
        await t.call('PATCH', '/api/user_groups/enable', {
          token: t.adminToken,
          query: { userGroupsId: 999999, enable: true },
        })
      ).status,
    ).toBe(404)
    const id = await makeGroup()
    expect(
      (
        await t.call('PATCH', '/api/user_groups/enable', {
          token: t.adminToken,
          query: { userGroupsId: id, enable: 'maybe' },
        })
      ).status,
    ).toBe(400)
    expect(
      (await t.call('PATCH', '/api/user_groups/enable', { token: t.adminToken, query: { userGroupsId: id } }))
        .status,
    ).toBe(400)
  })

  it('is authorized by usergroup:edit', async () => {
    const id = await makeGroup()
    const query = { userGroupsId: id, enable: false }
    expect((await t.call('PATCH', '/api/user_groups/enable', { query })).status).toBe(401)
    expect(
      (
        await t.call('PATCH', '/api/user_groups/enable', {
          token: (await t.userWithCodes(['usergroup'])).token,
          query,
        })
      ).status,
    ).toBe(403)
    expect(
      (
        await t.call('PATCH', '/api/user_groups/enable', {
          token: (await t.userWithCodes(['usergroup', 'usergroup:edit'])).token,
          query,
        })
      ).status,
    ).toBe(200)
  })
})

describe('DELETE /user_groups/delete', () => {
  it('removes the group and its links', async () => {
    const r = await makeRole()
    const u = await makeUser()
    const id = await makeGroup({ roleIds: String(r), userIds: String(u) })
    const res = await t.call('DELETE', '/api/user_groups/delete', {
      token: t.adminToken,
      query: { userGroupsId: id },
    })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.deleted)
    expect(await groupRow(id)).toBeUndefined()
    expect(await groupRoleIds(id)).toEqual([])
    expect(await groupUserIds(id)).toEqual([])
    expect(await t.db.select().from(roles).where(eq(roles.id, r))).toHaveLength(1)
    expect(await t.db.select().from(users).where(eq(users.id, u))).toHaveLength(1)
    expect(
      (
        await t.call('DELETE', '/api/user_groups/delete', {
          token: t.adminToken,
          query: { userGroupsId: id },
        })
      ).status,
    ).toBe(404)
  })

  it('is authorized by usergroup:delete', async () => {
    const id = await makeGroup()
    expect((await t.call('DELETE', '/api/user_groups/delete', { query: { userGroupsId: id } })).status).toBe(
      401,
    )
    expect(
      (
        await t.call('DELETE', '/api/user_groups/delete', {
          token: (await t.userWithCodes(['usergroup', 'usergroup:edit'])).token,
          query: { userGroupsId: id },
        })
      ).status,
    ).toBe(403)
    expect(
      (
        await t.call('DELETE', '/api/user_groups/delete', {
          token: (await t.userWithCodes(['usergroup', 'usergroup:delete'])).token,
          query: { userGroupsId: id },
        })
      ).status,
    ).toBe(200)
  })
})

describe('group links', () => {
  it('links and unlinks roles; twice or not linked is harmless', async () => {
    const id = await makeGroup()
    const [r1, r2, r3] = [await makeRole(), await makeRole(), await makeRole()]
    const link = (roleIds: unknown) =>
      t.call('PUT', '/api/rel/user-groups-rel-role', {
        token: t.adminToken,
        body: { userGroupsId: id, roleIds },
      })
    expect((await link(`${r1},${r2}`)).status).toBe(200)
    expect((await link(`${r2},${r3}`)).status).toBe(200)
    expect(await groupRoleIds(id)).toEqual([r1, r2, r3])
    const unlink = (roleIds: unknown) =>
      t.call('PUT', '/api/rel/user-groups-un-rel-role', {
        token: t.adminToken,
        body: { userGroupsId: id, roleIds },
      })
    expect((await unlink(`${r1}`)).status).toBe(200)
    expect((await unlink([r1])).status).toBe(200)
    expect(await groupRoleIds(id)).toEqual([r2, r3])
    expect((await link('999999')).status).toBe(404)
    expect((await link('')).status).toBe(400)
    expect((await link('a,b')).status).toBe(400)
    expect((await unlink('')).status).toBe(400)
    const noGroup = await t.call('PUT', '/api/rel/user-groups-rel-role', {
      token: t.adminToken,
      body: { userGroupsId: 999999, roleIds: `${r1}` },
    })
    expect(noGroup.status).toBe(404)
    expect(await groupRoleIds(id)).toEqual([r2, r3])
  })

  it('links and unlinks users; twice or not linked is harmless', async () => {
    const id = await makeGroup()
    const [u1, u2] = [await makeUser(), await makeUser()]
    const link = (userIds: unknown) =>
      t.call('PUT', '/api/rel/user-groups-rel-user', {
        token: t.adminToken,
        body: { userGroupsId: id, userIds },
      })
    const unlink = (userIds: unknown) =>
      t.call('PUT', '/api/rel/user-groups-un-rel-user', {
        token: t.adminToken,
        body: { userGroupsId: id, userIds },
      })
    expect((await link(`${u1},${u2}`)).status).toBe(200)
    expect((await link(`${u1}`)).status).toBe(200)
    expect(await groupUserIds(id)).toEqual([u1, u2])
    expect((await unlink(`${u2}`)).status).toBe(200)
    expect((await unlink(`${u2}`)).status).toBe(200)
    expect(await groupUserIds(id)).toEqual([u1])
    expect((await link(`${u2},999999`)).status).toBe(404)
    expect(await groupUserIds(id)).toEqual([u1])
    expect(
      (
        await t.call('PUT', '/api/rel/user-groups-un-rel-user', {
          token: t.adminToken,
          body: { userGroupsId: 999999, userIds: `${u1}` },
        })
      ).status,
    ).toBe(404)
  })

  it('refuses linking the super-admin role for a non-super-admin', async () => {
    const id = await makeGroup()
    const linker = await t.userWithCodes(['usergroup', 'usergroup:link'])
    const res = await t.call('PUT', '/api/rel/user-groups-rel-role', {
      token: linker.token,
      body: { userGroupsId: id, roleIds: String(superRoleId) },
    })
    expect(res.status).toBe(403)
    expect(await groupRoleIds(id)).toEqual([])
  })

  it('is authorized by usergroup:link', async () => {
    const id = await makeGroup()
    const r = await makeRole()
    const u = await makeUser()
    const calls: [string, Record<string, unknown>][] = [
      ['/api/rel/user-groups-rel-role', { userGroupsId: id, roleIds: `${r}` }],
      ['/api/rel/user-groups-un-rel-role', { userGroupsId: id, roleIds: `${r}` }],
      ['/api/rel/user-groups-rel-user', { userGroupsId: id, userIds: `${u}` }],
      ['/api/rel/user-groups-un-rel-user', { userGroupsId: id, userIds: `${u}` }],
    ]
    const denied = await t.userWithCodes(['usergroup', 'usergroup:edit'])
    const allowed = await t.userWithCodes(['usergroup', 'usergroup:link'])
    for (const [url, body] of calls) {
      expect((await t.call('PUT', url, { body })).status).toBe(401)
      expect((await t.call('PUT', url, { token: denied.token, body })).status).toBe(403)
      expect((await t.call('PUT', url, { token: allowed.token, body })).status).toBe(200)
    }
  })
})

describe('GET /rel/groups/userlist and POST /rel/groups/rolelist', () => {
  let groupId: number
  let userIds: number[]
  let roleIds: number[]
  beforeAll(async () => {
    userIds = []
    for (let i = 0; i < 12; i++) userIds.push(await makeUser(`member-${String(i).padStart(2, '0')}`))
    roleIds = []
    for (let i = 0; i < 11; i++) roleIds.push(await makeRole(i === 3 ? '审计角色' : `grole-${i}`))
    groupId = await makeGroup({ userIds: userIds.join(','), roleIds: roleIds.join(',') })
    await makeGroup({ userIds: String(userIds[0]) })
  })

  it('pages the users with pagenum/pagesize and pageNum/pageSize', async () => {
    const p1 = await t.call('GET', '/api/rel/groups/userlist', {
      token: t.adminToken,
      query: { id: groupId, pagenum: 1, pagesize: 10 },
    })
    expect(p1.status).toBe(200)
    expect(p1.body.data.total).toBe(12)
    expect(p1.body.data.list).toHaveLength(10)
    expect(p1.body.data.list[0]).toEqual({
      id: userIds[0],
      nickName: 'member-00',
      realName: '实名member-00',
      status: 1,
      // a permanent membership (DESIGN.md §20)
      expiresAt: null,
    })
    const p2 = await t.call('GET', '/api/rel/groups/userlist', {
      token: t.adminToken,
      query: { id: groupId, pageNum: 2, pageSize: 10 },
    })
    expect(p2.body.data.list.map((u: { id: number }) => u.id)).toEqual(userIds.slice(10))
    const beyond = await t.call('GET', '/api/rel/groups/userlist', {
      token: t.adminToken,
      query: { id: groupId, pagenum: 5, pagesize: 10 },
    })
    expect(beyond.body.data).toEqual({ list: [], total: 12 })
    expect(p1.raw).not.toContain('password')
    const missing = await t.call('GET', '/api/rel/groups/userlist', {
      token: t.adminToken,
      query: { id: 999999, pagenum: 1, pagesize: 10 },
    })
    expect(missing.status).toBe(404)
  })

  it('pages and searches the roles', async () => {
    const p1 = await t.call('POST', '/api/rel/groups/rolelist', {
      token: t.adminToken,
      query: { userGroupId: groupId, pageNum: 2, pageSize: 10 },
    })
    expect(p1.status).toBe(200)
    expect(p1.body.data.total).toBe(11)
    expect(p1.body.data.list).toEqual([{ id: roleIds[10], roleName: 'grole-10', type: 3, status: 1 }])
    const found = await t.call('POST', '/api/rel/groups/rolelist', {
      token: t.adminToken,
      query: { userGroupId: groupId, pageNum: 1, pageSize: 10, roleName: '审计' },
    })
    expect(found.body.data).toEqual({
      list: [{ id: roleIds[3], roleName: '审计角色', type: 3, status: 1 }],
      total: 1,
    })
    const missing = await t.call('POST', '/api/rel/groups/rolelist', {
      token: t.adminToken,
      query: { userGroupId: 999999, pageNum: 1, pageSize: 10 },
    })
    expect(missing.status).toBe(404)
  })

  it('is authorized by usergroup', async () => {
    const denied = (await t.userWithCodes(['role'])).token
    const allowed = (await t.userWithCodes(['usergroup'])).token
    const ul = { id: groupId, pagenum: 1, pagesize: 10 }
    const rl = { userGroupId: groupId, pageNum: 1, pageSize: 10 }
    expect((await t.call('GET', '/api/rel/groups/userlist', { query: ul })).status).toBe(401)
    expect((await t.call('GET', '/api/rel/groups/userlist', { token: denied, query: ul })).status).toBe(403)
    expect((await t.call('GET', '/api/rel/groups/userlist', { token: allowed, query: ul })).status).toBe(200)
    expect((await t.call('POST', '/api/rel/groups/rolelist', { query: rl })).status).toBe(401)
    expect((await t.call('POST', '/api/rel/groups/rolelist', { token: denied, query: rl })).status).toBe(403)
    expect((await t.call('POST', '/api/rel/groups/rolelist', { token: allowed, query: rl })).status).toBe(200)
  })
})

describe('POST /user_groups/namelist', () => {
  it('lists every group simply, by name, and the groups a user is not in', async () => {
    const u = await makeUser()
    const inside = await makeGroup({ groupName: 'nl-inside', userIds: String(u) })
    const outside = await makeGroup({ groupName: 'nl-outside', status: 2 })
    const all = await t.call('POST', '/api/user_groups/namelist', { token: t.adminToken, body: {} })
    expect(all.status).toBe(200)
    const total = (await t.db.select().from(userGroups)).length
    expect(all.body.data).toHaveLength(total)
    expect(all.body.data).toContainEqual({
      id: outside,
      groupName: 'nl-outside',
      status: 2,
      grantable: true,
      denyReason: null,
    })
    const byName = await t.call('POST', '/api/user_groups/namelist', {
      token: t.adminToken,
      body: { groupName: 'nl-' },
    })
    expect(byName.body.data.map((g: { id: number }) => g.id)).toEqual([inside, outside])
    const forUser = await t.call('POST', '/api/user_groups/namelist', {
      token: t.adminToken,
      body: { groupName: 'nl-', userId: u },
    })
    expect(forUser.body.data.map((g: { id: number }) => g.id)).toEqual([outside])
  })

  it('is authorized by user:group', async () => {
    expect((await t.call('POST', '/api/user_groups/namelist', { body: {} })).status).toBe(401)
    expect(
      (
        await t.call('POST', '/api/user_groups/namelist', {
          token: (await t.userWithCodes(['usergroup'])).token,
          body: {},
        })
      ).status,
    ).toBe(403)
    expect(
      (
        await t.call('POST', '/api/user_groups/namelist', {
          token: (await t.userWithCodes(['user', 'user:group'])).token,
          body: {},
        })
      ).status,
    ).toBe(200)
  })
})

describe('authorization through groups', () => {
  it('grants the roles of an enabled group and drops them at once when the group is disabled', async () => {
    const member = await t.userWithCodes([])
    const [role] = await t.db
      .insert(roles)
      .values({ roleName: 'via-group', type: 3, status: 1 })
      .returning({ id: roles.id })
    await t.db.insert(roleAuths).values({ roleId: role.id, authCode: 'usergroup' })
    const body = { pageNum: 1, pageSize: 10 }
    expect((await t.call('POST', '/api/user_groups/list', { token: member.token, body })).status).toBe(403)
    const groupId = await makeGroup({ roleIds: String(role.id), userIds: String(member.id) })
    expect((await t.call('POST', '/api/user_groups/list', { token: member.token, body })).status).toBe(200)
    await t.call('PATCH', '/api/user_groups/enable', {
      token: t.adminToken,
      query: { userGroupsId: groupId, enable: false },
    })
    expect((await t.call('POST', '/api/user_groups/list', { token: member.token, body })).status).toBe(403)
    await t.call('PATCH', '/api/user_groups/enable', {
      token: t.adminToken,
      query: { userGroupsId: groupId, enable: true },
    })
    expect((await t.call('POST', '/api/user_groups/list', { token: member.token, body })).status).toBe(200)
    await t.call('PUT', '/api/rel/user-groups-un-rel-user', {
      token: t.adminToken,
      body: { userGroupsId: groupId, userIds: String(member.id) },
    })
    expect((await t.call('POST', '/api/user_groups/list', { token: member.token, body })).status).toBe(403)
  })
})
