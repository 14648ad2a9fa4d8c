import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { organizations, positionRoles, positionUsers, positions, roles, stations } from '../src/db/schema'
import { createTestApp, userIdByName, type TestApp, rootOrgIdOf } from './helpers/app'

let t: TestApp
let rootId: number
let adminId: number
let seq = 0

const admin = () => t.adminToken
const uniq = (prefix: string) => `${prefix}${++seq}`

async function addOrg(name = uniq('部门'), parent = rootId) {
  const [o] = await t.db
    .insert(organizations)
    .values({ organizationName: name, parent })
    .returning({ id: organizations.id })
  return o.id
}

async function addStation(body: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/station/insert', {
    token: admin(),
    body: { stationName: uniq('职位'), type: 1, ...body },
  })
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data as number
}

async function orgsOf(stationId: number) {
  return t.db
    .select({ id: positions.id, orgId: positions.orgId })
    .from(positions)
    .where(eq(positions.stationId, stationId))
    .orderBy(positions.orgId)
}

async function stationCount() {
  return (await t.db.select({ id: stations.id }).from(stations)).length
}

beforeAll(async () => {
  t = await createTestApp()
  rootId = await rootOrgIdOf(t.db)
  adminId = (await userIdByName(t.db, 'admin'))!
})
afterAll(async () => t.close())

describe('POST /station/insert', () => {
  it('creates the job title with the operator and the positions of orgIds (array or comma-joined)', async () => {
    const [o1, o2] = [await addOrg(), await addOrg()]
    const res = await t.call('POST', '/api/station/insert', {
      token: admin(),
      body: { stationName: ' 产品经理 ', type: 1, orgIds: `${o2},${o1}` },
    })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.created)
    const id = res.body.data
    const [row] = await t.db.select().from(stations).where(eq(stations.id, id))
    expect(row).toMatchObject({
      stationName: '产品经理',
      type: 1,
      createUserId: adminId,
      updateUserId: adminId,
    })
    expect((await orgsOf(id)).map((p) => p.orgId)).toEqual([o1, o2])
    const single = await addStation({ orgIds: [o1] })
    expect((await orgsOf(single)).map((p) => p.orgId)).toEqual([o1])
    const none = await addStation()
    expect(await orgsOf(none)).toEqual([])
  })

  it('answers the station rules with their exact messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 1 }, MSG.stationNameRequired],
      [{ stationName: '', type: 1 }, MSG.stationNameRequired],
      [{ stationName: '   ', type: 1 }, MSG.stationNameRequired],
      [{ stationName: 'x'.repeat(65), type: 1 }, MSG.stationNameRequired],
      [{ stationName: '规则' }, MSG.stationTypeRequired],
      [{ stationName: '规则', type: null }, MSG.stationTypeRequired],
      [{ stationName: '规则', type: 'abc' }, MSG.stationTypeRequired],
      [{ stationName: '规则', type: 7 }, MSG.stationTypeRequired],
    ]
    const before = await stationCount()
    for (const [body, msg] of cases) {
      const res = await t.call('POST', '/api/station/insert', { token: admin(), body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.msg).toBe(msg)
    }
    expect(await stationCount()).toBe(before)
  })

  it('refuses a duplicate name (409) and unknown or malformed orgIds, creating nothing', async () => {
    const name = uniq('唯一职位')
    await addStation({ stationName: name })
    const dup = await t.call('POST', '/api/station/insert', {
      token: admin(),
      body: { stationName: name, type: 1 },
    })
    expect(dup.status).toBe(409)
    expect(dup.body.msg).toBe('职位名称已存在')
    const before = await stationCount()
    const o1 = await addOrg()
    const unknown = await t.call('POST', '/api/station/insert', {
      token: admin(),
      body: { stationName: uniq('孤职'), type: 1, orgIds: [o1, 999999] },
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body.msg).toContain('部门不存在')
    const malformed = await t.call('POST', '/api/station/insert', {
      token: admin(),
      body: { stationName: uniq('孤职'), type: 1, orgIds: '1,x' },
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.msg).toBe('部门ID列表格式不正确')
    expect(await stationCount()).toBe(before)
    expect(await t.db.select().from(positions).where(eq(positions.orgId, o1))).toEqual([])
  })

  it('needs station:add', async () => {
    const body = { stationName: uniq('权限职位'), type: 1 }
    expect((await t.call('POST', '/api/station/insert', { body })).status).toBe(401)
    const viewer = await t.userWithCodes(['station'])
    const denied = await t.call('POST', '/api/station/insert', { token: viewer.token, body })
    expect(denied.status).toBe(403)
    const adder = await t.userWithCodes(['station:add'])
    expect((await t.call('POST', '/api/station/insert', { token: adder.token, body })).status).toBe(200)
    const [row] = await t.db.select().from(stations).where(eq(stations.stationName, body.stationName))
    expect(row.createUserId).toBe(adder.id)
  })
})

describe('GET /station/detail', () => {
  it('answers the job title with operators, orgIds and stationPositionVOS', async () => {
    const [o1, o2] = [await addOrg(), await addOrg()]
    const id = await addStation({ stationName: '架构师', orgIds: [o2, o1] })
    const res = await t.call('GET', '/api/station/detail', { token: admin(), query: { stationId: id } })
    expect(res.status).toBe(200)
    const [row] = await t.db.select().from(stations).where(eq(stations.id, id))
    const held = await orgsOf(id)
    expect(res.body.data).toEqual({
      id,
      stationName: '架构师',
      type: 1,
      createTime: row.createTime.toISOString(),
      updateTime: row.updateTime.toISOString(),
      createUserVo: { id: adminId, nickName: 'admin' },
      updateUserVo: { id: adminId, nickName: 'admin' },
      orgIds: [o1, o2],
      stationPositionVOS: held.map((p) => ({ positionId: p.id, orgId: p.orgId, stationId: id })),
    })
  })

  it('answers 404 for an unknown job title and 400 without stationId', async () => {
    const missing = await t.call('GET', '/api/station/detail', {
      token: admin(),
      query: { stationId: 999999 },
    })
    expect(missing.status).toBe(404)
    expect(missing.body.msg).toBe('职位不存在')
    expect((await t.call('GET', '/api/station/detail', { token: admin() })).status).toBe(400)
  })

  it('needs the station permission', async () => {
    const id = await addStation()
    expect((await t.call('GET', '/api/station/detail', { query: { stationId: id } })).status).toBe(401)
    const other = await t.userWithCodes(['org'])
    expect(
      (await t.call('GET', '/api/station/detail', { token: other.token, query: { stationId: id } })).status,
    ).toBe(403)
    const viewer = await t.userWithCodes(['station'])
    expect(
      (await t.call('GET', '/api/station/detail', { token: viewer.token, query: { stationId: id } })).status,
    ).toBe(200)
  })
})

describe('PUT /station/update', () => {
  it('renames and keeps the positions in step with orgIds: removed pairs go with their links', async () => {
    const [o1, o2, o3] = [await addOrg(), await addOrg(), await addOrg()]
    const id = await addStation({ orgIds: [o1, o2] })
    const before = await orgsOf(id)
    const p1 = before.find((p) => p.orgId === o1)!.id
    const p2 = before.find((p) => p.orgId === o2)!.id
    const [role] = await t.db
      .insert(roles)
      .values({ roleName: uniq('岗角色'), type: 3 })
      .returning({ id: roles.id })
    await t.db.insert(positionUsers).values({ positionId: p1, userId: adminId })
    await t.db.insert(positionRoles).values({ positionId: p1, roleId: role.id })

    const editor = await t.userWithCodes(['station:edit'])
    const res = await t.call('PUT', '/api/station/update', {
      token: editor.token,
      body: { id, stationName: '改过的职位', type: 1, orgIds: `${o2},${o3}` },
    })
    expect(res.status, res.body.msg).toBe(200)
    expect(res.body.msg).toBe(MSG.updated)
    const [row] = await t.db.select().from(stations).where(eq(stations.id, id))
    expect(row).toMatchObject({
      stationName: '改过的职位',
      type: 1,
      createUserId: adminId,
      updateUserId: editor.id,
    })
    const after = await orgsOf(id)
    expect(after.map((p) => p.orgId)).toEqual([o2, o3])
    expect(after.find((p) => p.orgId === o2)!.id).toBe(p2)
    expect(await t.db.select().from(positions).where(eq(positions.id, p1))).toEqual([])
    expect(await t.db.select().from(positionUsers).where(eq(positionUsers.positionId, p1))).toEqual([])
    expect(await t.db.select().from(positionRoles).where(eq(positionRoles.positionId, p1))).toEqual([])

    const detail = await t.call('GET', '/api/station/detail', { token: admin(), query: { stationId: id } })
    expect(detail.body.data.updateUserVo).toEqual({ id: editor.id, nickName: expect.any(String) })

    // without orgIds the positions stay; an empty list removes them all
    await t.call('PUT', '/api/station/update', {
      token: admin(),
      body: { id, stationName: '改过的职位', type: 1 },
    })
    expect((await orgsOf(id)).map((p) => p.orgId)).toEqual([o2, o3])
    const emptied = await t.call('PUT', '/api/station/update', {
      token: admin(),
      body: { id, stationName: '改过的职位', type: 1, orgIds: '' },
    })
    expect(emptied.status).toBe(200)
    expect(await orgsOf(id)).toEqual([])
  })

  it('answers the rules, 404, 409, and refuses unknown orgIds changing nothing', async () => {
    const o1 = await addOrg()
    const taken = uniq('已占用')
    await addStation({ stationName: taken })
    const name = uniq('原职位')
    const id = await addStation({ stationName: name, orgIds: [o1] })
    const blank = await t.call('PUT', '/api/station/update', {
      token: admin(),
      body: { id, stationName: ' ', type: 1 },
    })
    expect(blank.status).toBe(400)
    expect(blank.body.msg).toBe(MSG.stationNameRequired)
    const noType = await t.call('PUT', '/api/station/update', {
      token: admin(),
      body: { id, stationName: name },
    })
    expect(noType.status).toBe(400)
    expect(noType.body.msg).toBe(MSG.stationTypeRequired)
    const missing = await t.call('PUT', '/api/station/update', {
      token: admin(),
      body: { id: 999999, stationName: uniq('无'), type: 1 },
    })
    expect(missing.status).toBe(404)
    const dup = await t.call('PUT', '/api/station/update', {
      token: admin(),
      body: { id, stationName: taken, type: 1 },
    })
    expect(dup.status).toBe(409)
    expect(dup.body.msg).toBe('职位名称已存在')
    const unknown = await t.call('PUT', '/api/station/update', {
      token: admin(),
      body: { id, stationName: uniq('新名'), type: 1, orgIds: [999999] },
    })
    expect(unknown.status).toBe(404)
    const [row] = await t.db.select().from(stations).where(eq(stations.id, id))
    expect(row.stationName).toBe(name)
    expect((await orgsOf(id)).map((p) => p.orgId)).toEqual([o1])
    // keeping its own name is fine
    expect(
      (
        await t.call('PUT', '/api/station/update', {
          token: admin(),
          body: { id, stationName: name, type: 1 },
        })
      ).status,
    ).toBe(200)
  })

  it('needs station:edit', async () => {
    const id = await addStation()
    const body = { id, stationName: uniq('权限改'), type: 1 }
    expect((await t.call('PUT', '/api/station/update', { body })).status).toBe(401)
    const adder = await t.userWithCodes(['station', 'station:add'])
    expect((await t.call('PUT', '/api/station/update', { token: adder.token, body })).status).toBe(403)
    const editor = await t.userWithCodes(['station:edit'])
    expect((await t.call('PUT', '/api/station/update', { token: editor.token, body })).status).toBe(200)
  })
})

describe('DELETE /station/delete', () => {
  it('deletes the job title with its positions and their links, leaving departments', async () => {
    const o1 = await addOrg()
    const id = await addStation({ orgIds: [o1] })
    const [p] = await orgsOf(id)
    await t.db.insert(positionUsers).values({ positionId: p.id, userId: adminId })
    const res = await t.call('DELETE', '/api/station/delete', { token: admin(), query: { stationId: id } })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.deleted)
    expect(await t.db.select().from(stations).where(eq(stations.id, id))).toEqual([])
    expect(await t.db.select().from(positions).where(eq(positions.id, p.id))).toEqual([])
    expect(await t.db.select().from(positionUsers).where(eq(positionUsers.positionId, p.id))).toEqual([])
    expect(await t.db.select().from(organizations).where(eq(organizations.id, o1))).toHaveLength(1)
  })

  it('answers 404 for an unknown job title and 400 without stationId', async () => {
    const res = await t.call('DELETE', '/api/station/delete', {
      token: admin(),
      query: { stationId: 999999 },
    })
    expect(res.status).toBe(404)
    expect(res.body.msg).toBe('职位不存在')
    expect((await t.call('DELETE', '/api/station/delete', { token: admin() })).status).toBe(400)
  })

  it('needs station:delete', async () => {
    const id = await addStation()
    expect((await t.call('DELETE', '/api/station/delete', { query: { stationId: id } })).status).toBe(401)
    const editor = await t.userWithCodes(['station', 'station:edit'])
    expect(
      (await t.call('DELETE', '/api/station/delete', { token: editor.token, query: { stationId: id } }))
        .status,
    ).toBe(403)
    const deleter = await t.userWithCodes(['station:delete'])
    expect(
      (await t.call('DELETE', '/api/station/delete', { token: deleter.token, query: { stationId: id } }))
        .status,
    ).toBe(200)
  })
})

describe('POST /station/list/simple', () => {
  it('lists all job titles, filtered by a name substring', async () => {
    const a = await addStation({ stationName: uniq('简单_甲') })
    const b = await addStation({ stationName: uniq('简单%乙') })
    const all = await t.call('POST', '/api/station/list/simple', { token: admin(), body: {} })
    expect(all.status).toBe(200)
    const rows = await t.db.select({ id: stations.id }).from(stations)
    expect(all.body.data).toHaveLength(rows.length)
    expect(all.body.data.find((s: any) => s.id === a)).toEqual({
      id: a,
      stationName: expect.stringMatching(/^简单_甲/),
      type: 1,
    })
    const filtered = await t.call('POST', '/api/station/list/simple', {
      token: admin(),
      body: { stationName: '简单' },
    })
    expect(filtered.body.data.map((s: any) => s.id)).toEqual([a, b])
    // wildcards in the filter are taken literally
    const literal = await t.call('POST', '/api/station/list/simple', {
      token: admin(),
      body: { stationName: '%' },
    })
    expect(literal.body.data.map((s: any) => s.id)).toEqual([b])
    const underscore = await t.call('POST', '/api/station/list/simple', {
      token: admin(),
      body: { stationName: '_' },
    })
    expect(underscore.body.data.map((s: any) => s.id)).toEqual([a])
  })

  it('with orgId answers the job titles NOT yet linked to it (linked=true: the ones that are)', async () => {
    const org = await addOrg()
    const linked = await addStation({ stationName: uniq('已关联'), orgIds: [org] })
    const free = await addStation({ stationName: uniq('未关联') })
    const res = await t.call('POST', '/api/station/list/simple', { token: admin(), body: { orgId: org } })
    expect(res.status).toBe(200)
    const ids = res.body.data.map((s: any) => s.id)
    expect(ids).toContain(free)
    expect(ids).not.toContain(linked)
    expect(ids).toHaveLength((await stationCount()) - 1)
    const onlyLinked = await t.call('POST', '/api/station/list/simple', {
      token: admin(),
      body: { orgId: org, linked: true },
    })
    expect(onlyLinked.body.data.map((s: any) => s.id)).toEqual([linked])
    const missing = await t.call('POST', '/api/station/list/simple', {
      token: admin(),
      body: { orgId: 999999 },
    })
    expect(missing.status).toBe(404)
    expect(missing.body.msg).toBe('部门不存在')
    const nullOrg = await t.call('POST', '/api/station/list/simple', {
      token: admin(),
      body: { orgId: null, stationName: null },
    })
    expect(nullOrg.status).toBe(200)
    expect(nullOrg.body.data).toHaveLength(await stationCount())
  })

  it('is granted to org, position and user:position holders but not to others', async () => {
    expect((await t.call('POST', '/api/station/list/simple', { body: {} })).status).toBe(401)
    const none = await t.userWithCodes(['role'])
    expect((await t.call('POST', '/api/station/list/simple', { token: none.token, body: {} })).status).toBe(
      403,
    )
    for (const code of ['org', 'position', 'user:position']) {
      const u = await t.userWithCodes([code])
      expect(
        (await t.call('POST', '/api/station/list/simple', { token: u.token, body: {} })).status,
        code,
      ).toBe(200)
    }
  })
})

describe('POST /station/list', () => {
  it('pages with a correct total and the operator columns', async () => {
    const prefix = uniq('分页')
    const ids: number[] = []
    for (let i = 0; i < 7; i++) ids.push(await addStation({ stationName: `${prefix}_${i}` }))
    const page1 = await t.call('POST', '/api/station/list', {
      token: admin(),
      body: { stationName: prefix, pageNum: 1, pageSize: 3 },
    })
    expect(page1.status).toBe(200)
    expect(page1.body.data.total).toBe(7)
    expect(page1.body.data.list).toHaveLength(3)
    // newest first
    expect(page1.body.data.list[0].id).toBe(ids[6])
    const [row] = await t.db.select().from(stations).where(eq(stations.id, ids[6]))
    expect(page1.body.data.list[0]).toEqual({
      id: ids[6],
      stationName: `${prefix}_6`,
      type: 1,
      createTime: row.createTime.toISOString(),
      updateTime: row.updateTime.toISOString(),
      createUserVo: { id: adminId, nickName: 'admin' },
      updateUserVo: { id: adminId, nickName: 'admin' },
    })
    const page3 = await t.call('POST', '/api/station/list', {
      token: admin(),
      body: { stationName: prefix, pageNum: 3, pageSize: 3 },
    })
    expect(page3.body.data).toMatchObject({ total: 7 })
    expect(page3.body.data.list.map((s: any) => s.id)).toEqual([ids[0]])
    const beyond = await t.call('POST', '/api/station/list', {
      token: admin(),
      body: { stationName: prefix, pageNum: 4, pageSize: 3 },
    })
    expect(beyond.body.data).toEqual({ list: [], total: 7 })
    const exact = await t.call('POST', '/api/station/list', {
      token: admin(),
      body: { stationName: prefix, pageNum: 1, pageSize: 7 },
    })
    expect(exact.body.data.list).toHaveLength(7)
    const all = await t.call('POST', '/api/station/list', {
      token: admin(),
      body: { pageNum: 1, pageSize: 1000 },
    })
    expect(all.body.data.total).toBe(await stationCount())
  })

  it('filters by type, shows a null operator when unknown, and refuses bad paging', async () => {
    const [bare] = await t.db
      .insert(stations)
      .values({ stationName: uniq('无人创建'), type: 1 })
      .returning({ id: stations.id })
    const res = await t.call('POST', '/api/station/list', {
      token: admin(),
      body: { stationName: '无人创建', type: 1, pageNum: 1, pageSize: 10 },
    })
    expect(res.body.data.list).toHaveLength(1)
    expect(res.body.data.list[0]).toMatchObject({ id: bare.id, createUserVo: null, updateUserVo: null })
    const otherType = await t.call('POST', '/api/station/list', {
      token: admin(),
      body: { type: 2, pageNum: 1, pageSize: 10 },
    })
    expect(otherType.body.data).toEqual({ list: [], total: 0 })
    expect(
      (await t.call('POST', '/api/station/list', { token: admin(), body: { pageNum: 0, pageSize: 10 } }))
        .status,
    ).toBe(400)
    expect(
      (await t.call('POST', '/api/station/list', { token: admin(), body: { pageNum: 1, pageSize: 0 } }))
        .status,
    ).toBe(400)
    const defaults = await t.call('POST', '/api/station/list', { token: admin(), body: {} })
    expect(defaults.status).toBe(200)
    expect(defaults.body.data.list.length).toBeLessThanOrEqual(10)
  })

  it('needs the station permission', async () => {
    const body = { pageNum: 1, pageSize: 10 }
    expect((await t.call('POST', '/api/station/list', { body })).status).toBe(401)
    const other = await t.userWithCodes(['org'])
    expect((await t.call('POST', '/api/station/list', { token: other.token, body })).status).toBe(403)
    const viewer = await t.userWithCodes(['station'])
    expect((await t.call('POST', '/api/station/list', { token: viewer.token, body })).status).toBe(200)
  })
})
