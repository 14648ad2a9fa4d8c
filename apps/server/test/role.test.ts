import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asc, eq } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import {
  organizations,
  positionRoles,
  positions,
  roleAuths,
  roles,
  stations,
  userGroupRoles,
  userGroups,
  userRoles,
} from '../src/db/schema'
import { ROLE_MSG, ROLE_REFUSAL } from '../src/modules/role'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'

let t: TestApp
let superRoleId: number
let adminId: number
beforeAll(async () => {
  t = await createTestApp()
  ;[{ id: superRoleId }] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.type, 1))
  adminId = (await userIdByName(t.db, 'admin'))!
})
afterAll(async () => t.close())

const admin = (
  method: string,
  url: string,
  opts: { body?: unknown; query?: Record<string, string | number> } = {},
) => t.call(method, url, { token: t.adminToken, ...opts })

let seq = 0
const uniqueName = (prefix = '角色') => `${prefix}${++seq}_${Date.now() % 100000}`

async function newRole(body: Record<string, unknown> = {}, path = '/api/role/insert'): Promise<number> {
  const res = await admin('POST', path, {
    body: { roleName: uniqueName(), description: 'd', authCodes: [], ...body },
  })
  expect(res.status).toBe(200)
  return res.body.data
}

async function roleRow(id: number) {
  const [r] = await t.db.select().from(roles).where(eq(roles.id, id))
  return r
}

async function codesOf(id: number) {
  const rows = await t.db
    .select()
    .from(roleAuths)
    .where(eq(roleAuths.roleId, id))
    .orderBy(asc(roleAuths.authCode))
  return rows.map((r) => r.authCode)
}

describe('POST /role/insert', () => {
  it('creates an enabled ordinary role with its permission codes and operators', async () => {
    const res = await admin('POST', '/api/role/insert', {
      body: { roleName: '  审计员 ', description: '只读', authCodes: ['user', 'role', 'user'] },
    })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.created)
    const id = res.body.data
    expect(await roleRow(id)).toMatchObject({
      roleName: '审计员',
      description: '只读',
      type: 3,
      status: 1,
      createUserId: adminId,
      updateUserId: adminId,
    })
    expect(await codesOf(id)).toEqual(['role', 'user'])
  })

  it('refuses a blank or missing name, a duplicate name and unknown codes, creating nothing', async () => {
    const before = (await t.db.select().from(roles)).length
    for (const roleName of [undefined, '', '   ', null]) {
      const res = await admin('POST', '/api/role/insert', { body: { roleName, authCodes: [] } })
      expect(res.status).toBe(400)
      expect(res.body.msg).toBe(MSG.roleNameRequired)
    }
    const dup = await admin('POST', '/api/role/insert', { body: { roleName: '审计员', authCodes: [] } })
    expect(dup.status).toBe(409)
    expect(dup.body.msg).toBe(ROLE_MSG.nameExists)
    const unknown = await admin('POST', '/api/role/insert', {
      body: { roleName: uniqueName(), authCodes: ['user', 'x1', 'x2'] },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.msg).toContain('x1')
    expect(unknown.body.msg).toContain('x2')
    const long = await admin('POST', '/api/role/insert', { body: { roleName: 'x'.repeat(65) } })
    expect(long.status).toBe(400)
    expect((await t.db.select().from(roles)).length).toBe(before)
  })
})

describe('GET /role/detail', () => {
  it('answers the role with its codes and operators', async () => {
    const id = await newRole({ authCodes: ['role:add', 'role'] })
    const res = await admin('GET', '/api/role/detail', { query: { id } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      id,
      type: 3,
      status: 1,
      description: 'd',
      authCodes: ['role', 'role:add'],
      createUserVo: { id: adminId, nickName: 'admin' },
      updateUserVo: { id: adminId, nickName: 'admin' },
    })
    expect(typeof res.body.data.createTime).toBe('string')
    const seeded = await admin('GET', '/api/role/detail', { query: { id: superRoleId } })
    expect(seeded.body.data).toMatchObject({ type: 1, createUserVo: null, updateUserVo: null })
    expect(seeded.body.data.authCodes).toContain('auth:delete')
  })

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const res = await admin('GET', '/api/role/detail', { query: { id: 999999 } })
    expect(res.status).toBe(404)
    expect(res.body.msg).toBe(ROLE_MSG.notFound)
    expect((await admin('GET', '/api/role/detail', { query: { id: 'abc' } })).status).toBe(400)
    expect((await admin('GET', '/api/role/detail')).status).toBe(400)
  })
})

describe('PUT /role/update', () => {
  it('changes an ordinary role and replaces its codes', async () => {
    const id = await newRole({ authCodes: ['user', 'role'] })
    const other = await t.userWithCodes([])
    const name = uniqueName('改')
    const res = await t.call('PUT', '/api/role/update', {
      token: t.adminToken,
      body: { id, roleName: name, description: '', status: 2, authCodes: ['auth', 'auth:add'] },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ msg: MSG.updated, data: null })
    expect(await roleRow(id)).toMatchObject({ roleName: name, description: null, status: 2, type: 3 })
    expect(await codesOf(id)).toEqual(['auth', 'auth:add'])
    // keeping its own name is not a duplicate
    const same = await admin('PUT', '/api/role/update', {
      body: { id, roleName: name, status: 1, authCodes: [] },
    })
    expect(same.status).toBe(200)
    expect(await codesOf(id)).toEqual([])
    expect(other.id).toBeGreaterThan(0)
  })

  it('refuses built-in and super-admin roles', async () => {
    const builtIn = await newRole({ type: 2 }, '/api/role/admin/insert')
    for (const id of [builtIn, superRoleId]) {
      const res = await admin('PUT', '/api/role/update', {
        body: { id, roleName: uniqueName(), status: 1, authCodes: [] },
      })
      expect(res.status).toBe(409)
      expect(res.body.msg).toBe(ROLE_REFUSAL.update.onlyOrdinary)
    }
    expect((await roleRow(superRoleId)).roleName).toBe('超级管理员')
  })

  it('validates the form and refuses unknown ids, duplicate names and unknown codes', async () => {
    const id = await newRole({ authCodes: ['user'] })
    const taken = await newRole()
    const takenName = (await roleRow(taken)).roleName
    const cases: [Record<string, unknown>, number, string][] = [
      [{ roleName: ' ' }, 400, MSG.roleNameRequired],
      [{ status: undefined }, 400, MSG.statusRequired],
      [{ status: 5 }, 400, MSG.statusRequired],
      [{ roleName: takenName }, 409, ROLE_MSG.nameExists],
      [{ authCodes: ['nope'] }, 400, '权限不存在：nope'],
      [{ id: 999999 }, 404, ROLE_MSG.notFound],
    ]
    for (const [over, status, msg] of cases) {
      const res = await admin('PUT', '/api/role/update', {
        body: { id, roleName: uniqueName(), status: 1, authCodes: [], ...over },
      })
      expect(res.status, JSON.stringify(over)).toBe(status)
      expect(res.body.msg).toBe(msg)
    }
    expect(await codesOf(id)).toEqual(['user'])
  })
})

describe('DELETE /role/delete', () => {
  it('deletes an ordinary role with its grants and links', async () => {
    const id = await newRole({ authCodes: ['user'] })
    const u = await t.userWithCodes([])
    await t.db.insert(userRoles).values({ userId: u.id, roleId: id })
    const res = await admin('DELETE', '/api/role/delete', { query: { id } })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.deleted)
    expect(await roleRow(id)).toBeUndefined()
    expect(await codesOf(id)).toEqual([])
    expect(await t.db.select().from(userRoles).where(eq(userRoles.roleId, id))).toEqual([])
  })

  it('refuses built-in and super-admin roles and unknown ids', async () => {
    const builtIn = await newRole({}, '/api/role/admin/insert')
    for (const id of [builtIn, superRoleId]) {
      const res = await admin('DELETE', '/api/role/delete', { query: { id } })
      expect(res.status).toBe(409)
      expect(res.body.msg).toBe(ROLE_REFUSAL.delete.onlyOrdinary)
      expect(await roleRow(id)).toBeDefined()
    }
    expect((await admin('DELETE', '/api/role/delete', { query: { id: 999999 } })).status).toBe(404)
  })
})

describe('/role/admin/*', () => {
  it('inserts a built-in role with type 2 and status 1 by default, or a super-admin role', async () => {
    const id = await newRole({ authCodes: ['org'] }, '/api/role/admin/insert')
    expect(await roleRow(id)).toMatchObject({ type: 2, status: 1, createUserId: adminId })
    expect(await codesOf(id)).toEqual(['org'])
    const superId = await newRole({ type: 1, status: 2 }, '/api/role/admin/insert')
    expect(await roleRow(superId)).toMatchObject({ type: 1, status: 2 })
  })

  it('refuses a wrong type, a wrong status, a blank or duplicate name', async () => {
    for (const type of [3, 0, null, 'x']) {
      const res = await admin('POST', '/api/role/admin/insert', { body: { roleName: uniqueName(), type } })
      expect(res.status).toBe(400)
      expect(res.body.msg).toBe(MSG.roleTypeRequired)
    }
    const status = await admin('POST', '/api/role/admin/insert', {
      body: { roleName: uniqueName(), status: 9 },
    })
    expect(status.body.msg).toBe(MSG.statusRequired)
    const blank = await admin('POST', '/api/role/admin/insert', { body: { roleName: '' } })
    expect(blank.body.msg).toBe(MSG.roleNameRequired)
    const dup = await admin('POST', '/api/role/admin/insert', { body: { roleName: '超级管理员' } })
    expect(dup.status).toBe(409)
    expect(dup.body.msg).toBe(ROLE_MSG.nameExists)
  })

  it('updates a built-in role, including its type', async () => {
    const id = await newRole({ authCodes: ['org'] }, '/api/role/admin/insert')
    const name = uniqueName('内置')
    const res = await admin('PUT', '/api/role/admin/update', {
      body: { id, roleName: name, description: '新', status: 2, type: 2, authCodes: ['station', 'org'] },
    })
    expect(res.status).toBe(200)
    expect(await roleRow(id)).toMatchObject({ roleName: name, description: '新', status: 2, type: 2 })
    expect(await codesOf(id)).toEqual(['org', 'station'])
    const missingType = await admin('PUT', '/api/role/admin/update', {
      body: { id, roleName: name, status: 1 },
    })
    expect(missingType.status).toBe(400)
    expect(missingType.body.msg).toBe(MSG.roleTypeRequired)
    const promote = await admin('PUT', '/api/role/admin/update', {
      body: { id, roleName: name, status: 1, type: 1 },
    })
    expect(promote.status).toBe(200)
    expect((await roleRow(id)).type).toBe(1)
    expect(await codesOf(id)).toEqual(['org', 'station'])
  })

  it('never edits or deletes a super-admin role, and leaves ordinary roles to /role', async () => {
    const ordinary = await newRole()
    const cases: [number, string, string][] = [
      [superRoleId, ROLE_REFUSAL.update.superAdmin, ROLE_REFUSAL.delete.superAdmin],
      [ordinary, ROLE_REFUSAL.update.ordinary, ROLE_REFUSAL.delete.ordinary],
    ]
    for (const [id, updateMsg, deleteMsg] of cases) {
      const up = await admin('PUT', '/api/role/admin/update', {
        body: { id, roleName: uniqueName(), status: 2, type: 2 },
      })
      expect(up.status).toBe(409)
      expect(up.body.msg).toBe(updateMsg)
      const del = await admin('DELETE', '/api/role/admin/delete', { query: { id } })
      expect(del.status).toBe(409)
      expect(del.body.msg).toBe(deleteMsg)
      expect(await roleRow(id)).toBeDefined()
    }
    expect(await roleRow(superRoleId)).toMatchObject({ roleName: '超级管理员', status: 1, type: 1 })
  })

  it('deletes a built-in role with its links; 404 for an unknown one', async () => {
    const id = await newRole({ authCodes: ['org'] }, '/api/role/admin/insert')
    const [g] = await t.db
      .insert(userGroups)
      .values({ groupName: uniqueName('组') })
      .returning()
    await t.db.insert(userGroupRoles).values({ groupId: g.id, roleId: id })
    const res = await admin('DELETE', '/api/role/admin/delete', { query: { id } })
    expect(res.status).toBe(200)
    expect(await roleRow(id)).toBeUndefined()
    expect(await t.db.select().from(userGroupRoles).where(eq(userGroupRoles.roleId, id))).toEqual([])
    expect((await admin('DELETE', '/api/role/admin/delete', { query: { id: 999999 } })).status).toBe(404)
  })
})

describe('POST /role/listall', () => {
  const prefix = `页测${Date.now() % 1000}_`
  beforeAll(async () => {
    for (let i = 1; i <= 12; i++) await newRole({ roleName: `${prefix}${String(i).padStart(2, '0')}` })
    await newRole({ roleName: `${prefix}内置`, status: 2 }, '/api/role/admin/insert')
  })

  it('pages with the right total at the edges', async () => {
    const page = (pageNum: number, pageSize: number) =>
      admin('POST', '/api/role/listall', { body: { pageNum, pageSize, roleName: prefix, types: [3] } })
    const sizes: number[] = []
    for (const n of [1, 2, 3, 4]) {
      const res = await page(n, 5)
      expect(res.status).toBe(200)
      expect(res.body.data.total).toBe(12)
      sizes.push(res.body.data.list.length)
    }
    expect(sizes).toEqual([5, 5, 2, 0])
    const all = await page(1, 12)
    expect(all.body.data.list.map((r: any) => r.roleName)).toEqual(
      Array.from({ length: 12 }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`),
    )
    expect(all.body.data.list[0]).toMatchObject({
      type: 3,
      status: 1,
      description: 'd',
      createUserVo: { id: adminId, nickName: 'admin' },
      updateUserVo: { id: adminId, nickName: 'admin' },
    })
    expect(Object.keys(all.body.data.list[0]).sort()).toEqual(
      [
        'createTime',
        'createUserVo',
        'dataScope',
        'description',
        'id',
        'roleName',
        'scopeOrgIds',
        'status',
        'type',
        'updateTime',
        'updateUserVo',
        // DESIGN.md §20
        'requestable',
        'requestApprovals',
        'approverRoleIds',
      ].sort(),
    )
  })

  it('filters by name substring, status and types; empty types means every type', async () => {
    const list = async (body: Record<string, unknown>) =>
      (await admin('POST', '/api/role/listall', { body: { pageNum: 1, pageSize: 100, ...body } })).body.data
    expect((await list({ roleName: prefix })).total).toBe(13)
    expect((await list({ roleName: prefix, types: [] })).total).toBe(13)
    expect((await list({ roleName: prefix, types: [1, 2] })).list.map((r: any) => r.roleName)).toEqual([
      `${prefix}内置`,
    ])
    expect((await list({ roleName: prefix, status: 2 })).total).toBe(1)
    expect((await list({ roleName: `${prefix}0` })).total).toBe(9)
    expect((await list({ roleName: '%' })).total).toBe(0)
    const supers = await list({ types: [1] })
    expect(supers.list.map((r: any) => r.id)).toContain(superRoleId)
    expect(supers.list.every((r: any) => r.type === 1)).toBe(true)
    const everything = await list({})
    expect(everything.total).toBe((await t.db.select().from(roles)).length)
  })

  it('is kept between calls, and shows a change on the very next call, through the API or behind its back', async () => {
    const list = async () =>
      (await admin('POST', '/api/role/listall', { body: { pageNum: 1, pageSize: 100, roleName: prefix } }))
        .body.data as { total: number; list: { id: number; roleName: string; status: number }[] }
    const first = await list()
    expect(await list()).toEqual(first)

    // through the API: a new role, a rename, a delete
    const id = await newRole({ roleName: `${prefix}新` })
    expect((await list()).total).toBe(first.total + 1)
    expect(
      (
        await admin('PUT', '/api/role/update', {
          body: { id, roleName: `${prefix}改名`, status: 1, authCodes: [] },
        })
      ).status,
    ).toBe(200)
    expect((await list()).list.map((r) => r.roleName)).toContain(`${prefix}改名`)
    expect((await admin('DELETE', '/api/role/delete', { query: { id } })).status).toBe(200)
    expect(await list()).toEqual(first)

    // behind the API's back, once the database's notification is heard
    await t.db.update(roles).set({ status: 2 }).where(eq(roles.id, first.list[0].id))
    await t.database.heardSoFar()
    expect((await list()).list[0].status).toBe(2)
    await t.db.update(roles).set({ status: 1 }).where(eq(roles.id, first.list[0].id))
    await t.database.heardSoFar()
    expect(await list()).toEqual(first)
  })

  it('refuses a bad page or type', async () => {
    expect((await admin('POST', '/api/role/listall', { body: { pageNum: 0, pageSize: 10 } })).status).toBe(
      400,
    )
    expect(
      (await admin('POST', '/api/role/listall', { body: { pageNum: 1, pageSize: 10, types: [4] } })).status,
    ).toBe(400)
  })
})

describe('POST /role/namelist', () => {
  it('answers a simple list by name and status, ordered by id', async () => {
    const a = await newRole({ roleName: uniqueName('名单') })
    const b = await newRole({ roleName: uniqueName('名单'), status: 2 }, '/api/role/admin/insert')
    const res = await admin('POST', '/api/role/namelist', { body: { roleName: '名单' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { id: a, roleName: (await roleRow(a)).roleName, type: 3, status: 1, grantable: true, denyReason: null },
      { id: b, roleName: (await roleRow(b)).roleName, type: 2, status: 2, grantable: true, denyReason: null },
    ])
    const enabled = await admin('POST', '/api/role/namelist', { body: { roleName: '名单', status: 1 } })
    expect(enabled.body.data.map((r: any) => r.id)).toEqual([a])
    const everything = await admin('POST', '/api/role/namelist', { body: {} })
    expect(everything.body.data.length).toBe(Math.min(200, (await t.db.select().from(roles)).length))
  })

  it('offers only the roles not yet linked to the given user, group or position', async () => {
    const name = uniqueName('候选')
    const linked = await newRole({ roleName: `${name}a` })
    const free = await newRole({ roleName: `${name}b` })
    const u = await t.userWithCodes([])
    await t.db.insert(userRoles).values({ userId: u.id, roleId: linked })
    const [g] = await t.db
      .insert(userGroups)
      .values({ groupName: uniqueName('组') })
      .returning()
    await t.db.insert(userGroupRoles).values({ groupId: g.id, roleId: linked })
    const [org] = await t.db.select().from(organizations).limit(1)
    const [st] = await t.db
      .insert(stations)
      .values({ stationName: uniqueName('职') })
      .returning()
    const [p] = await t.db.insert(positions).values({ orgId: org.id, stationId: st.id }).returning()
    await t.db.insert(positionRoles).values({ positionId: p.id, roleId: linked })
    for (const key of [{ userId: u.id }, { userGroupId: g.id }, { positionId: p.id }]) {
      const res = await admin('POST', '/api/role/namelist', { body: { roleName: name, ...key } })
      expect(res.status).toBe(200)
      expect(
        res.body.data.map((r: any) => r.id),
        JSON.stringify(key),
      ).toEqual([free])
    }
    const unfiltered = await admin('POST', '/api/role/namelist', { body: { roleName: name } })
    expect(unfiltered.body.data.map((r: any) => r.id)).toEqual([linked, free])
  })
})

describe('authorization', () => {
  const calls: [string, string, string, (id: number) => Record<string, unknown>][] = [
    ['POST', '/api/role/listall', 'role', () => ({ body: { pageNum: 1, pageSize: 10 } })],
    ['POST', '/api/role/listall', 'adminrole', () => ({ body: { pageNum: 1, pageSize: 10, types: [1, 2] } })],
    ['GET', '/api/role/detail', 'role', (id) => ({ query: { id } })],
    ['POST', '/api/role/namelist', 'user:role', () => ({ body: {} })],
    ['POST', '/api/role/namelist', 'usergroup:link', () => ({ body: {} })],
    ['POST', '/api/role/namelist', 'position:link', () => ({ body: {} })],
    ['POST', '/api/role/insert', 'role:add', () => ({ body: { roleName: uniqueName() } })],
    ['PUT', '/api/role/update', 'role:edit', (id) => ({ body: { id, roleName: uniqueName(), status: 1 } })],
    ['DELETE', '/api/role/delete', 'role:delete', (id) => ({ query: { id } })],
    ['POST', '/api/role/admin/insert', 'adminrole:add', () => ({ body: { roleName: uniqueName() } })],
    [
      'PUT',
      '/api/role/admin/update',
      'adminrole:edit',
      (id) => ({ body: { id, roleName: uniqueName(), status: 1, type: 2 } }),
    ],
    ['DELETE', '/api/role/admin/delete', 'adminrole:delete', (id) => ({ query: { id } })],
  ]

  it.each(calls)(
    '%s %s: 401 without a session, 403 without the code, 200 with %s',
    async (method, url, code, opts) => {
      const target = await newRole(
        {},
        url.includes('/admin/') ? '/api/role/admin/insert' : '/api/role/insert',
      )
      expect((await t.call(method, url, opts(target))).status).toBe(401)
      const other = await t.userWithCodes(['auth'])
      const denied = await t.call(method, url, { token: other.token, ...opts(target) })
      expect(denied.status).toBe(403)
      expect(denied.body.msg).toBe(MSG.forbidden)
      const allowed = await t.userWithCodes([code])
      const res = await t.call(method, url, { token: allowed.token, ...opts(target) })
      expect(res.status).toBe(200)
    },
  )

  it('a change of a role’s permissions takes effect at the next request, without signing in again', async () => {
    const u = await t.userWithCodes([])
    const [own] = await t.db.select().from(roles).where(eq(roles.id, u.roleId))
    const listall = () =>
      t.call('POST', '/api/role/listall', { token: u.token, body: { pageNum: 1, pageSize: 1 } })
    expect((await listall()).status).toBe(403)
    const grant = await admin('PUT', '/api/role/update', {
      body: { id: own.id, roleName: own.roleName, status: 1, authCodes: ['role'] },
    })
    expect(grant.status).toBe(200)
    expect((await listall()).status).toBe(200)
    const disable = await admin('PUT', '/api/role/update', {
      body: { id: own.id, roleName: own.roleName, status: 2, authCodes: ['role'] },
    })
    expect(disable.status).toBe(200)
    expect((await listall()).status).toBe(403)
    await admin('PUT', '/api/role/update', {
      body: { id: own.id, roleName: own.roleName, status: 1, authCodes: ['role'] },
    })
    expect((await listall()).status).toBe(200)
    expect((await admin('DELETE', '/api/role/delete', { query: { id: own.id } })).status).toBe(200)
    expect((await listall()).status).toBe(403)
  })
})
