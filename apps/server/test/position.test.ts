import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import {
  organizations,
  positionRoles,
  positionUsers,
  positions,
  roleAuths,
  roles,
  stations,
  users,
} from '../src/db/schema'
import { hashPassword } from '../src/auth/password'
import { orgCompleteName, orgCompleteNames } from '../src/modules/position/org-paths'
import { createTestApp, type TestApp } from './helpers/app'

let t: TestApp
let root: number
let rootName: string
let seq = 0

async function makeOrg(name: string, parent: number) {
  const [o] = await t.db
    .insert(organizations)
    .values({ organizationName: name, parent })
    .returning({ id: organizations.id })
  return o.id
}
async function makeStation(name: string) {
  const [s] = await t.db
    .insert(stations)
    .values({ stationName: name, type: 1 })
    .returning({ id: stations.id })
  return s.id
}
async function makeRole(name = `prole_${++seq}`, type = 3) {
  const [r] = await t.db.insert(roles).values({ roleName: name, type, status: 1 }).returning({ id: roles.id })
  return r.id
}
async function makeUser(name = `puser_${++seq}`) {
  const [u] = await t.db
    .insert(users)
    .values({ nickName: name, passwordHash: await hashPassword('x'), status: 1 })
    .returning({ id: users.id })
  return u.id
}
async function positionId(orgId: number, stationId: number) {
  const [p] = await t.db
    .select({ id: positions.id })
    .from(positions)
    .where(and(eq(positions.orgId, orgId), eq(positions.stationId, stationId)))
  return p?.id
}
async function batch(orgId: number, stationIds: unknown, token = t.adminToken) {
  return t.call('PUT', '/api/position/batch/insert', { token, body: { orgId, stationIds } })
}

// 总公司 ─ 研发部 ─ 前端组, 后端组 ; 总公司 ─ 市场部
let dev: number, fe: number, be: number, mkt: number
let eng: number, mgr: number, spec: number

beforeAll(async () => {
  t = await createTestApp()
  const [r] = await t.db.select().from(organizations).where(isNull(organizations.parent))
  root = r.id
  rootName = r.organizationName
  dev = await makeOrg('研发部', root)
  mkt = await makeOrg('市场部', root)
  fe = await makeOrg('前端组', dev)
  be = await makeOrg('后端组', dev)
  eng = await makeStation('工程师')
  mgr = await makeStation('经理')
  spec = await makeStation('专员')
})
afterAll(async () => t.close())

describe('org-paths', () => {
  it('computes complete names from the root, joined by -', async () => {
    const names = await orgCompleteNames(t.db, [fe, mkt, root, 999999])
    expect(names.get(fe)).toBe(`${rootName}-研发部-前端组`)
    expect(names.get(mkt)).toBe(`${rootName}-市场部`)
    expect(names.get(root)).toBe(rootName)
    expect(names.has(999999)).toBe(false)
    expect(await orgCompleteName(t.db, be)).toBe(`${rootName}-研发部-后端组`)
    expect((await orgCompleteNames(t.db, [])).size).toBe(0)
  })
})

describe('PUT /position/batch/insert', () => {
  it('creates the missing pairs and skips existing ones', async () => {
    const first = await batch(fe, `${eng},${mgr}`)
    expect(first.status).toBe(200)
    expect(first.body.data).toHaveLength(2)
    const again = await batch(fe, [eng, mgr, spec])
    expect(again.status).toBe(200)
    expect(again.body.data).toEqual([await positionId(fe, spec)])
    const rows = await t.db
      .select()
      .from(positions)
      .where(eq(positions.orgId, fe))
      .orderBy(asc(positions.stationId))
    expect(rows.map((p) => [p.stationId, p.status, p.type])).toEqual([
      [eng, 1, 1],
      [mgr, 1, 1],
      [spec, 1, 1],
    ])
    expect((await batch(be, `${eng}`)).status).toBe(200)
    expect((await batch(dev, `${mgr}`)).status).toBe(200)
    expect((await batch(mkt, `${spec},${mgr}`)).status).toBe(200)
    expect((await batch(root, `${mgr}`)).status).toBe(200)
  })

  it('refuses unknown ids and empty or malformed lists, creating nothing', async () => {
    const before = (await t.db.select().from(positions)).length
    const noOrg = await batch(999999, `${eng}`)
    expect(noOrg.status).toBe(404)
    expect(noOrg.body.msg).toBe('部门不存在')
    const noStation = await batch(mkt, `${eng},999999`)
    expect(noStation.status).toBe(404)
    expect(noStation.body.msg).toContain('职位不存在')
    expect((await batch(mkt, '')).status).toBe(400)
    expect((await batch(mkt, 'x')).status).toBe(400)
    const noOrgId = await t.call('PUT', '/api/position/batch/insert', {
      token: t.adminToken,
      body: { stationIds: `${eng}` },
    })
    expect(noOrgId.status).toBe(400)
    expect((await t.db.select().from(positions)).length).toBe(before)
  })

  it('is authorized by org:edit', async () => {
    expect(
      (await t.call('PUT', '/api/position/batch/insert', { body: { orgId: mkt, stationIds: `${eng}` } }))
        .status,
    ).toBe(401)
    expect((await batch(mkt, `${eng}`, (await t.userWithCodes(['position'])).token)).status).toBe(403)
    expect((await batch(mkt, `${eng}`, (await t.userWithCodes(['org', 'org:edit'])).token)).status).toBe(200)
    await t.db.delete(positions).where(and(eq(positions.orgId, mkt), eq(positions.stationId, eng)))
  })
})

describe('POST /position/list', () => {
  const list = (body: Record<string, unknown>, token = t.adminToken) =>
    t.call('POST', '/api/position/list', { token, body })

  it('lists every position with its department path, one department adjacent', async () => {
    const res = await list({ pageNum: 1, pageSize: 100 })
    expect(res.status).toBe(200)
    const all = await t.db.select().from(positions)
    expect(res.body.data.total).toBe(all.length)
    expect(res.body.data.list).toHaveLength(all.length)
    const row = res.body.data.list.find(
      (p: { orgId: number; stationId: number }) => p.orgId === fe && p.stationId === eng,
    )
    expect(row).toEqual({
      id: await positionId(fe, eng),
      orgId: fe,
      stationId: eng,
      organizationCompleteName: `${rootName}-研发部-前端组`,
      stationName: '工程师',
      status: 1,
      type: 1,
    })
    // equal department names are adjacent: each name appears in one run
    const names: string[] = res.body.data.list.map(
      (p: { organizationCompleteName: string }) => p.organizationCompleteName,
    )
    const runs = names.filter((n, i) => i === 0 || names[i - 1] !== n)
    expect(new Set(runs).size).toBe(runs.length)
    expect(runs[0]).toBe(rootName)
  })

  it('filters by a department including its sub-departments, and by job title', async () => {
    const byDev = await list({ orgId: dev, pageNum: 1, pageSize: 100 })
    const orgIds = new Set(byDev.body.data.list.map((p: { orgId: number }) => p.orgId))
    expect(orgIds).toEqual(new Set([dev, fe, be]))
    expect(byDev.body.data.total).toBe(5) // dev:mgr, fe:eng,mgr,spec, be:eng
    const leaf = await list({ orgId: fe, pageNum: 1, pageSize: 100 })
    expect(leaf.body.data.total).toBe(3)
    const byStation = await list({ stationId: mgr, pageNum: 1, pageSize: 100 })
    expect(byStation.body.data.list.map((p: { orgId: number }) => p.orgId).sort()).toEqual(
      [root, dev, mkt, fe].sort(),
    )
    const both = await list({ orgId: dev, stationId: eng, pageNum: 1, pageSize: 100 })
    expect(both.body.data.total).toBe(2)
    const none = await list({ orgId: 999999, pageNum: 1, pageSize: 10 })
    expect(none.body.data).toEqual({ list: [], total: 0 })
    const nulls = await list({ orgId: null, stationId: null, pageNum: 1, pageSize: 10 })
    expect(nulls.status).toBe(200)
  })

  it('pages at the edges', async () => {
    const total = (await t.db.select().from(positions)).length // 8
    const p1 = await list({ pageNum: 1, pageSize: 3 })
    const p3 = await list({ pageNum: 3, pageSize: 3 })
    expect(p1.body.data.total).toBe(total)
    expect(p1.body.data.list).toHaveLength(3)
    expect(p3.body.data.list).toHaveLength(total - 6)
    expect((await list({ pageNum: 4, pageSize: 3 })).body.data).toEqual({ list: [], total })
    const ids = [
      ...p1.body.data.list,
      ...(await list({ pageNum: 2, pageSize: 3 })).body.data.list,
      ...p3.body.data.list,
    ].map((p: { id: number }) => p.id)
    expect(new Set(ids).size).toBe(total)
    expect((await list({ pageNum: 0, pageSize: 3 })).status).toBe(400)
    expect((await list({ pageNum: 1, pageSize: 3, orgId: 'x' })).status).toBe(400)
  })

  it('is authorized by position', async () => {
    expect((await t.call('POST', '/api/position/list', { body: { pageNum: 1, pageSize: 10 } })).status).toBe(
      401,
    )
    expect((await list({ pageNum: 1, pageSize: 10 }, (await t.userWithCodes(['org'])).token)).status).toBe(
      403,
    )
    expect(
      (await list({ pageNum: 1, pageSize: 10 }, (await t.userWithCodes(['position'])).token)).status,
    ).toBe(200)
  })
})

describe('POST /position/list/for/org', () => {
  const forOrg = (body: Record<string, unknown>, token = t.adminToken) =>
    t.call('POST', '/api/position/list/for/org', { token, body })

  it('lists exactly that department, searchable by job title', async () => {
    const res = await forOrg({ orgId: fe, pageNum: 1, pageSize: 10 })
    expect(res.status).toBe(200)
    expect(res.body.data.total).toBe(3)
    expect(res.body.data.list[0]).toEqual({
      id: await positionId(fe, eng),
      stationId: eng,
      stationName: '工程师',
      status: 1,
    })
    const parent = await forOrg({ orgId: dev, pageNum: 1, pageSize: 10 })
    expect(parent.body.data.list.map((p: { stationId: number }) => p.stationId)).toEqual([mgr])
    const search = await forOrg({ orgId: fe, stationName: '经', pageNum: 1, pageSize: 10 })
    expect(search.body.data).toEqual({
      list: [{ id: await positionId(fe, mgr), stationId: mgr, stationName: '经理', status: 1 }],
      total: 1,
    })
    const page2 = await forOrg({ orgId: fe, pageNum: 2, pageSize: 2 })
    expect(page2.body.data.list).toHaveLength(1)
    expect(page2.body.data.total).toBe(3)
  })

  it('answers 404 for an unknown department and 400 without one', async () => {
    expect((await forOrg({ orgId: 999999, pageNum: 1, pageSize: 10 })).status).toBe(404)
    expect((await forOrg({ pageNum: 1, pageSize: 10 })).status).toBe(400)
  })

  it('is authorized by org', async () => {
    expect((await t.call('POST', '/api/position/list/for/org', { body: { orgId: fe } })).status).toBe(401)
    expect((await forOrg({ orgId: fe }, (await t.userWithCodes(['position'])).token)).status).toBe(403)
    expect((await forOrg({ orgId: fe }, (await t.userWithCodes(['org'])).token)).status).toBe(200)
  })
})

describe('PATCH /position/enable', () => {
  it('sets status 1 for true and 2 for false', async () => {
    const id = await positionId(mkt, spec)
    const enable = (value: unknown) =>
      t.call('PATCH', '/api/position/enable', {
        token: t.adminToken,
        query: { positionId: id, enable: value as boolean },
      })
    expect((await enable(false)).status).toBe(200)
    expect((await t.db.select().from(positions).where(eq(positions.id, id)))[0].status).toBe(2)
    expect((await enable('true')).status).toBe(200)
    expect((await t.db.select().from(positions).where(eq(positions.id, id)))[0].status).toBe(1)
    expect((await enable('nope')).status).toBe(400)
    const missing = await t.call('PATCH', '/api/position/enable', {
      token: t.adminToken,
      query: { positionId: 999999, enable: true },
    })
    expect(missing.status).toBe(404)
    expect(missing.body.msg).toBe('岗位不存在')
  })

  it('is authorized by position:enable', async () => {
    const query = { positionId: await positionId(mkt, spec), enable: true }
    expect((await t.call('PATCH', '/api/position/enable', { query })).status).toBe(401)
    expect(
      (
        await t.call('PATCH', '/api/position/enable', {
          token: (await t.userWithCodes(['position'])).token,
          query,
        })
      ).status,
    ).toBe(403)
    expect(
      (
        await t.call('PATCH', '/api/position/enable', {
          token: (await t.userWithCodes(['position', 'position:enable'])).token,
          query,
        })
      ).status,
    ).toBe(200)
  })
})

describe('position links', () => {
  it('links and unlinks roles and users; twice or not linked is harmless', async () => {
    const id = await positionId(fe, eng)
    const [r1, r2] = [await makeRole(), await makeRole()]
    const [u1, u2] = [await makeUser(), await makeUser()]
    const put = (url: string, body: Record<string, unknown>) =>
      t.call('PUT', `/api/rel/${url}`, { token: t.adminToken, body })
    expect((await put('position-rel-role', { positionId: id, roleIds: `${r1},${r2}` })).status).toBe(200)
    expect((await put('position-rel-role', { positionId: id, roleIds: [r1] })).status).toBe(200)
    expect((await put('position-rel-user', { positionId: id, userIds: `${u1},${u2}` })).status).toBe(200)
    expect((await put('position-rel-user', { positionId: id, userIds: `${u2}` })).status).toBe(200)
    const linkedRoles = async () =>
      (await t.db.select().from(positionRoles).where(eq(positionRoles.positionId, id)))
        .map((r) => r.roleId)
        .sort()
    const linkedUsers = async () =>
      (await t.db.select().from(positionUsers).where(eq(positionUsers.positionId, id)))
        .map((r) => r.userId)
        .sort()
    expect(await linkedRoles()).toEqual([r1, r2].sort())
    expect(await linkedUsers()).toEqual([u1, u2].sort())
    expect((await put('position-un-rel-role', { positionId: id, roleIds: `${r1}` })).status).toBe(200)
    expect((await put('position-un-rel-role', { positionId: id, roleIds: `${r1}` })).status).toBe(200)
    expect((await put('position-un-rel-user', { positionId: id, userIds: `${u1}` })).status).toBe(200)
    expect((await put('position-un-rel-user', { positionId: id, userIds: `${u1}` })).status).toBe(200)
    expect(await linkedRoles()).toEqual([r2])
    expect(await linkedUsers()).toEqual([u2])
    // unknown, empty and malformed ids change nothing
    expect((await put('position-rel-role', { positionId: id, roleIds: `${r1},999999` })).status).toBe(404)
    expect((await put('position-rel-user', { positionId: id, userIds: `${u1},999999` })).status).toBe(404)
    expect((await put('position-rel-role', { positionId: 999999, roleIds: `${r1}` })).status).toBe(404)
    expect((await put('position-un-rel-user', { positionId: 999999, userIds: `${u1}` })).status).toBe(404)
    expect((await put('position-rel-user', { positionId: id, userIds: '' })).status).toBe(400)
    expect((await put('position-rel-user', { positionId: id, userIds: '1;2' })).status).toBe(400)
    expect((await put('position-rel-user', { positionId: id })).status).toBe(400)
    expect(await linkedRoles()).toEqual([r2])
    expect(await linkedUsers()).toEqual([u2])
  })

  it('lets only a super admin link the super-admin role', async () => {
    const id = await positionId(fe, eng)
    const [superRole] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.type, 1))
    const linker = await t.userWithCodes(['position', 'position:link'])
    const res = await t.call('PUT', '/api/rel/position-rel-role', {
      token: linker.token,
      body: { positionId: id, roleIds: `${superRole.id}` },
    })
    expect(res.status).toBe(403)
    expect(
      await t.db.select().from(positionRoles).where(eq(positionRoles.roleId, superRole.id)),
    ).toHaveLength(0)
  })

  it('is authorized by position:link', async () => {
    const id = await positionId(be, eng)
    const r = await makeRole()
    const u = await makeUser()
    const calls: [string, Record<string, unknown>][] = [
      ['/api/rel/position-rel-role', { positionId: id, roleIds: `${r}` }],
      ['/api/rel/position-un-rel-role', { positionId: id, roleIds: `${r}` }],
      ['/api/rel/position-rel-user', { positionId: id, userIds: `${u}` }],
      ['/api/rel/position-un-rel-user', { positionId: id, userIds: `${u}` }],
    ]
    const denied = await t.userWithCodes(['position', 'position:enable'])
    const allowed = await t.userWithCodes(['position', 'position:link'])
    for (const [url, body] of calls) {
      expect((await t.call('PUT', url, { body })).status).toBe(401)
      expect((await t.call('PUT', url, { token: denied.token, body })).status).toBe(403)
      expect((await t.call('PUT', url, { token: allowed.token, body })).status).toBe(200)
    }
  })
})

describe('POST /rel/position/rolelist and GET /rel/position/userlist', () => {
  let id: number
  let roleIds: number[]
  let userIds: number[]
  beforeAll(async () => {
    id = await positionId(dev, mgr)
    roleIds = []
    for (let i = 0; i < 11; i++) roleIds.push(await makeRole(i === 2 ? '岗位审计' : `pr-${i}`))
    userIds = []
    for (let i = 0; i < 11; i++) userIds.push(await makeUser(`pu-${i}`))
    await t.call('PUT', '/api/rel/position-rel-role', {
      token: t.adminToken,
      body: { positionId: id, roleIds: roleIds.join(',') },
    })
    await t.call('PUT', '/api/rel/position-rel-user', {
      token: t.adminToken,
      body: { positionId: id, userIds: userIds.join(',') },
    })
  })

  it('pages and searches the roles', async () => {
    const p2 = await t.call('POST', '/api/rel/position/rolelist', {
      token: t.adminToken,
      query: { positionId: id, pageNum: 2, pageSize: 10 },
    })
    expect(p2.status).toBe(200)
    expect(p2.body.data).toEqual({
      list: [{ id: roleIds[10], roleName: 'pr-10', type: 3, status: 1 }],
      total: 11,
    })
    const found = await t.call('POST', '/api/rel/position/rolelist', {
      token: t.adminToken,
      query: { positionId: id, pageNum: 1, pageSize: 10, roleName: '审计' },
    })
    expect(found.body.data.list.map((r: { id: number }) => r.id)).toEqual([roleIds[2]])
    expect(
      (
        await t.call('POST', '/api/rel/position/rolelist', {
          token: t.adminToken,
          query: { positionId: 999999 },
        })
      ).status,
    ).toBe(404)
  })

  it('pages the users with pagenum/pagesize and pageNum/pageSize', async () => {
    const p1 = await t.call('GET', '/api/rel/position/userlist', {
      token: t.adminToken,
      query: { id, pagenum: 1, pagesize: 10 },
    })
    expect(p1.status).toBe(200)
    expect(p1.body.data.total).toBe(11)
    expect(p1.body.data.list).toHaveLength(10)
    expect(p1.body.data.list[0]).toEqual({
      id: userIds[0],
      nickName: 'pu-0',
      realName: null,
      status: 1,
      expiresAt: null,
    })
    const p2 = await t.call('GET', '/api/rel/position/userlist', {
      token: t.adminToken,
      query: { id, pageNum: 2, pageSize: 10 },
    })
    expect(p2.body.data.list.map((u: { id: number }) => u.id)).toEqual([userIds[10]])
    expect(
      (await t.call('GET', '/api/rel/position/userlist', { token: t.adminToken, query: { id: 999999 } }))
        .status,
    ).toBe(404)
    expect(p1.raw).not.toContain('password')
  })

  it('is authorized by position', async () => {
    const denied = (await t.userWithCodes(['org'])).token
    const allowed = (await t.userWithCodes(['position'])).token
    const rq = { positionId: id, pageNum: 1, pageSize: 10 }
    const uq = { id, pagenum: 1, pagesize: 10 }
    expect((await t.call('POST', '/api/rel/position/rolelist', { query: rq })).status).toBe(401)
    expect((await t.call('POST', '/api/rel/position/rolelist', { token: denied, query: rq })).status).toBe(
      403,
    )
    expect((await t.call('POST', '/api/rel/position/rolelist', { token: allowed, query: rq })).status).toBe(
      200,
    )
    expect((await t.call('GET', '/api/rel/position/userlist', { query: uq })).status).toBe(401)
    expect((await t.call('GET', '/api/rel/position/userlist', { token: denied, query: uq })).status).toBe(403)
    expect((await t.call('GET', '/api/rel/position/userlist', { token: allowed, query: uq })).status).toBe(
      200,
    )
  })
})

describe('POST /position/namelist', () => {
  it('lists positions simply, by department subtree and job title, and those a user does not hold', async () => {
    const all = await t.call('POST', '/api/position/namelist', { token: t.adminToken, body: {} })
    expect(all.status).toBe(200)
    expect(all.body.data).toHaveLength((await t.db.select().from(positions)).length)
    const feEng = await positionId(fe, eng)
    expect(all.body.data).toContainEqual(
      expect.objectContaining({
        id: feEng,
        orgId: fe,
        stationId: eng,
        organizationCompleteName: `${rootName}-研发部-前端组`,
        stationName: '工程师',
        status: 1,
      }),
    )
    const byDevEng = await t.call('POST', '/api/position/namelist', {
      token: t.adminToken,
      body: { orgId: dev, stationId: eng },
    })
    expect(byDevEng.body.data.map((p: { id: number }) => p.id).sort()).toEqual(
      [feEng, await positionId(be, eng)].sort(),
    )
    const u = await makeUser()
    await t.call('PUT', '/api/rel/position-rel-user', {
      token: t.adminToken,
      body: { positionId: feEng, userIds: `${u}` },
    })
    const forUser = await t.call('POST', '/api/position/namelist', {
      token: t.adminToken,
      body: { orgId: dev, stationId: eng, userId: u },
    })
    expect(forUser.body.data.map((p: { id: number }) => p.id)).toEqual([await positionId(be, eng)])
  })

  it('is authorized by user:position', async () => {
    expect((await t.call('POST', '/api/position/namelist', { body: {} })).status).toBe(401)
    expect(
      (
        await t.call('POST', '/api/position/namelist', {
          token: (await t.userWithCodes(['position'])).token,
          body: {},
        })
      ).status,
    ).toBe(403)
    expect(
      (
        await t.call('POST', '/api/position/namelist', {
          token: (await t.userWithCodes(['user', 'user:position'])).token,
          body: {},
        })
      ).status,
    ).toBe(200)
  })
})

describe('DELETE /position/delete', () => {
  it('removes the positions and their links in one go', async () => {
    const a = await positionId(mkt, spec)
    const b = await positionId(mkt, mgr)
    const r = await makeRole()
    const u = await makeUser()
    await t.call('PUT', '/api/rel/position-rel-role', {
      token: t.adminToken,
      body: { positionId: a, roleIds: `${r}` },
    })
    await t.call('PUT', '/api/rel/position-rel-user', {
      token: t.adminToken,
      body: { positionId: b, userIds: `${u}` },
    })
    const res = await t.call('DELETE', '/api/position/delete', {
      token: t.adminToken,
      query: { positionIds: `${a},${b}` },
    })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.deleted)
    expect(
      await t.db
        .select()
        .from(positions)
        .where(inArray(positions.id, [a, b])),
    ).toHaveLength(0)
    expect(await t.db.select().from(positionRoles).where(eq(positionRoles.positionId, a))).toHaveLength(0)
    expect(await t.db.select().from(positionUsers).where(eq(positionUsers.positionId, b))).toHaveLength(0)
    expect(await t.db.select().from(roles).where(eq(roles.id, r))).toHaveLength(1)
  })

  it('deletes nothing when one id is unknown, and refuses malformed lists', async () => {
    const a = await positionId(root, mgr)
    const res = await t.call('DELETE', '/api/position/delete', {
      token: t.adminToken,
      query: { positionIds: `${a},999999` },
    })
    expect(res.status).toBe(404)
    expect(await positionId(root, mgr)).toBe(a)
    expect(
      (await t.call('DELETE', '/api/position/delete', { token: t.adminToken, query: { positionIds: 'a,b' } }))
        .status,
    ).toBe(400)
    expect(
      (await t.call('DELETE', '/api/position/delete', { token: t.adminToken, query: { positionIds: '' } }))
        .status,
    ).toBe(400)
    expect((await t.call('DELETE', '/api/position/delete', { token: t.adminToken })).status).toBe(400)
  })

  it('is authorized by position:delete or org:edit', async () => {
    await batch(mkt, `${spec},${mgr}`)
    const a = await positionId(mkt, spec)
    const b = await positionId(mkt, mgr)
    expect((await t.call('DELETE', '/api/position/delete', { query: { positionIds: `${a}` } })).status).toBe(
      401,
    )
    const denied = await t.userWithCodes(['position', 'position:enable'])
    expect(
      (
        await t.call('DELETE', '/api/position/delete', {
          token: denied.token,
          query: { positionIds: `${a}` },
        })
      ).status,
    ).toBe(403)
    const byPosition = await t.userWithCodes(['position', 'position:delete'])
    expect(
      (
        await t.call('DELETE', '/api/position/delete', {
          token: byPosition.token,
          query: { positionIds: `${a}` },
        })
      ).status,
    ).toBe(200)
    const byOrg = await t.userWithCodes(['org', 'org:edit'])
    expect(
      (await t.call('DELETE', '/api/position/delete', { token: byOrg.token, query: { positionIds: `${b}` } }))
        .status,
    ).toBe(200)
  })
})

describe('authorization through positions', () => {
  it('grants the roles of an enabled position and drops them at once when it is disabled', async () => {
    const holder = await t.userWithCodes([])
    const [role] = await t.db
      .insert(roles)
      .values({ roleName: 'via-position', type: 3, status: 1 })
      .returning({ id: roles.id })
    await t.db.insert(roleAuths).values({ roleId: role.id, authCode: 'usergroup' })
    const id = await positionId(be, eng)
    const body = { pageNum: 1, pageSize: 10 }
    const probe = async () =>
      (await t.call('POST', '/api/user_groups/list', { token: holder.token, body })).status
    expect(await probe()).toBe(403)
    await t.call('PUT', '/api/rel/position-rel-role', {
      token: t.adminToken,
      body: { positionId: id, roleIds: `${role.id}` },
    })
    await t.call('PUT', '/api/rel/position-rel-user', {
      token: t.adminToken,
      body: { positionId: id, userIds: `${holder.id}` },
    })
    expect(await probe()).toBe(200)
    await t.call('PATCH', '/api/position/enable', {
      token: t.adminToken,
      query: { positionId: id, enable: false },
    })
    expect(await probe()).toBe(403)
    await t.call('PATCH', '/api/position/enable', {
      token: t.adminToken,
      query: { positionId: id, enable: true },
    })
    expect(await probe()).toBe(200)
    await t.call('PUT', '/api/rel/position-un-rel-role', {
      token: t.adminToken,
      body: { positionId: id, roleIds: `${role.id}` },
    })
    expect(await probe()).toBe(403)
  })
})
