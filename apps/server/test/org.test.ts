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

async function addStation(name = uniq('职位')) {
  const [s] = await t.db
    .insert(stations)
    .values({ stationName: name, type: 1 })
    .returning({ id: stations.id })
  return s.id
}

async function addOrg(parent: number, name = uniq('部门'), extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/org/insert', {
    token: admin(),
    body: { organizationName: name, parent, description: null, ...extra },
  })
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data as number
}

async function positionsOf(orgId: number) {
  return t.db
    .select({ id: positions.id, stationId: positions.stationId })
    .from(positions)
    .where(eq(positions.orgId, orgId))
    .orderBy(positions.stationId)
}

beforeAll(async () => {
  t = await createTestApp()
  rootId = await rootOrgIdOf(t.db)
  adminId = (await userIdByName(t.db, 'admin'))!
})
afterAll(async () => t.close())

describe('GET /org/tree', () => {
  it('answers the tree from the root with complete names joined by "-" at depth 3', async () => {
    const a = await addOrg(rootId, '研发中心')
    const b = await addOrg(a, '平台部')
    const c = await addOrg(b, '基础架构组')
    const c2 = await addOrg(b, '测试组')
    const res = await t.call('GET', '/api/org/tree', { token: admin() })
    expect(res.status).toBe(200)
    expect(Array.isArray(res.body.data)).toBe(true)
    expect(res.body.data).toHaveLength(1)
    const root = res.body.data[0]
    expect(root).toMatchObject({
      id: rootId,
      parent: null,
      organizationName: '总公司',
      organizationCompleteName: '总公司',
    })
    const na = root.children.find((n: any) => n.id === a)
    expect(na).toMatchObject({ parent: rootId, organizationCompleteName: '总公司-研发中心', childCount: 1 })
    const nb = na.children[0]
    expect(nb).toMatchObject({
      id: b,
      parent: a,
      organizationCompleteName: '总公司-研发中心-平台部',
      childCount: 2,
    })
    expect(nb.children.map((n: any) => n.id)).toEqual([c, c2])
    expect(nb.children[0]).toMatchObject({
      organizationName: '基础架构组',
      organizationCompleteName: '总公司-研发中心-平台部-基础架构组',
      description: null,
      childCount: 0,
      children: [],
    })
    expect(root.childCount).toBe(root.children.length)
  })

  it('is refused without a session (401), without the code (403), allowed with org or station (200)', async () => {
    expect((await t.call('GET', '/api/org/tree')).status).toBe(401)
    const none = await t.userWithCodes(['role'])
    const denied = await t.call('GET', '/api/org/tree', { token: none.token })
    expect(denied.status).toBe(403)
    expect(denied.body.msg).toBe(MSG.forbidden)
    for (const code of ['org', 'station']) {
      const u = await t.userWithCodes([code])
      expect((await t.call('GET', '/api/org/tree', { token: u.token })).status).toBe(200)
    }
  })
})

describe('GET /org/detail', () => {
  it('answers the department with its complete name, stationIds and positionSimpleDTOS', async () => {
    const s1 = await addStation('前端工程师')
    const s2 = await addStation('后端工程师')
    const a = await addOrg(rootId, uniq('事业部'))
    const b = await addOrg(a, '技术部', { stationIds: [s2, s1], description: '负责技术' })
    const res = await t.call('GET', '/api/org/detail', { token: admin(), query: { orgId: b } })
    expect(res.status).toBe(200)
    const held = await positionsOf(b)
    expect(res.body.data).toEqual({
      id: b,
      organizationName: '技术部',
      description: '负责技术',
      parent: a,
      organizationCompleteName: `总公司-${(await t.call('GET', '/api/org/detail', { token: admin(), query: { orgId: a } })).body.data.organizationName}-技术部`,
      stationIds: [s1, s2],
      positionSimpleDTOS: [
        { positionId: held[0].id, stationId: s1, stationName: '前端工程师' },
        { positionId: held[1].id, stationId: s2, stationName: '后端工程师' },
      ],
    })
  })

  it('answers 404 for an unknown department and 400 without or with a bad orgId', async () => {
    const missing = await t.call('GET', '/api/org/detail', { token: admin(), query: { orgId: 999999 } })
    expect(missing.status).toBe(404)
    expect(missing.body.msg).toBe('部门不存在')
    expect((await t.call('GET', '/api/org/detail', { token: admin() })).status).toBe(400)
    expect((await t.call('GET', '/api/org/detail', { token: admin(), query: { orgId: 'abc' } })).status).toBe(
      400,
    )
  })

  it('needs the org permission', async () => {
    expect((await t.call('GET', '/api/org/detail', { query: { orgId: rootId } })).status).toBe(401)
    const none = await t.userWithCodes(['station'])
    expect(
      (await t.call('GET', '/api/org/detail', { token: none.token, query: { orgId: rootId } })).status,
    ).toBe(403)
    const u = await t.userWithCodes(['org'])
    expect(
      (await t.call('GET', '/api/org/detail', { token: u.token, query: { orgId: rootId } })).status,
    ).toBe(200)
  })
})

describe('POST /org/insert', () => {
  it('creates the department and the positions of stationIds (array or comma-joined)', async () => {
    const s1 = await addStation()
    const s2 = await addStation()
    const res = await t.call('POST', '/api/org/insert', {
      token: admin(),
      body: { organizationName: '  财务部 ', description: '管钱', parent: rootId, stationIds: `${s1},${s2}` },
    })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.created)
    const id = res.body.data
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id))
    expect(row).toMatchObject({
      organizationName: '财务部',
      description: '管钱',
      parent: rootId,
      createUserId: adminId,
      updateUserId: adminId,
    })
    expect((await positionsOf(id)).map((p) => p.stationId)).toEqual([s1, s2])

    const second = await addOrg(id, uniq('会计组'), { stationIds: [s2] })
    expect((await positionsOf(second)).map((p) => p.stationId)).toEqual([s2])
    const bare = await addOrg(id, uniq('出纳组'))
    expect(await positionsOf(bare)).toEqual([])
  })

  it('answers the department name rules with their exact messages', async () => {
    const cases: [unknown, string][] = [
      [undefined, MSG.orgNameRequired],
      ['', MSG.orgNameRequired],
      ['   ', MSG.orgNameRequired],
      ['研发-一部', MSG.orgNameNoHyphen],
      ['-', MSG.orgNameNoHyphen],
    ]
    for (const [organizationName, msg] of cases) {
      const res = await t.call('POST', '/api/org/insert', {
        token: admin(),
        body: { organizationName, parent: rootId },
      })
      expect(res.status, String(organizationName)).toBe(400)
      expect(res.body.msg).toBe(msg)
    }
    const long = await t.call('POST', '/api/org/insert', {
      token: admin(),
      body: { organizationName: 'x'.repeat(65), parent: rootId },
    })
    expect(long.status).toBe(400)
  })

  it('refuses a missing or unknown parent and malformed or unknown stationIds, creating nothing', async () => {
    const before = (await t.db.select({ id: organizations.id }).from(organizations)).length
    const noParent = await t.call('POST', '/api/org/insert', {
      token: admin(),
      body: { organizationName: '无父' },
    })
    expect(noParent.status).toBe(400)
    expect(noParent.body.msg).toBe('请选择上级部门')
    const unknownParent = await t.call('POST', '/api/org/insert', {
      token: admin(),
      body: { organizationName: '无父', parent: 999999 },
    })
    expect(unknownParent.status).toBe(404)
    expect(unknownParent.body.msg).toBe('上级部门不存在')
    const s = await addStation()
    const unknownStation = await t.call('POST', '/api/org/insert', {
      token: admin(),
      body: { organizationName: '孤儿', parent: rootId, stationIds: [s, 999999] },
    })
    expect(unknownStation.status).toBe(404)
    expect(unknownStation.body.msg).toContain('职位不存在')
    const malformed = await t.call('POST', '/api/org/insert', {
      token: admin(),
      body: { organizationName: '孤儿', parent: rootId, stationIds: 'a,b' },
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.msg).toBe('职位ID列表格式不正确')
    expect((await t.db.select({ id: organizations.id }).from(organizations)).length).toBe(before)
    expect(await t.db.select().from(positions).where(eq(positions.stationId, s))).toEqual([])
  })

  it('refuses a duplicate name among siblings (409) but allows it elsewhere in the tree', async () => {
    const a = await addOrg(rootId, uniq('分公司'))
    const b = await addOrg(rootId, uniq('分公司'))
    await addOrg(a, '行政部')
    const dup = await t.call('POST', '/api/org/insert', {
      token: admin(),
      body: { organizationName: '行政部', parent: a },
    })
    expect(dup.status).toBe(409)
    expect(dup.body.msg).toBe('同级部门名称已存在')
    await addOrg(b, '行政部')
    expect(
      await t.db.select().from(organizations).where(eq(organizations.organizationName, '行政部')),
    ).toHaveLength(2)
  })

  it('needs org:add', async () => {
    const body = { organizationName: uniq('权限测试'), parent: rootId }
    expect((await t.call('POST', '/api/org/insert', { body })).status).toBe(401)
    const viewer = await t.userWithCodes(['org'])
    expect((await t.call('POST', '/api/org/insert', { token: viewer.token, body })).status).toBe(403)
    const adder = await t.userWithCodes(['org:add'])
    expect((await t.call('POST', '/api/org/insert', { token: adder.token, body })).status).toBe(200)
    const [row] = await t.db
      .select()
      .from(organizations)
      .where(eq(organizations.organizationName, body.organizationName))
    expect(row.createUserId).toBe(adder.id)
  })
})

describe('PUT /org/update', () => {
  it('renames and redescribes, recording the updater', async () => {
    const id = await addOrg(rootId, uniq('旧名'))
    const u = await t.userWithCodes(['org:edit'])
    const res = await t.call('PUT', '/api/org/update', {
      token: u.token,
      body: { id, organizationName: '新名', description: '新描述' },
    })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.updated)
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id))
    expect(row).toMatchObject({
      organizationName: '新名',
      description: '新描述',
      parent: rootId,
      updateUserId: u.id,
    })
    expect(row.updateTime.getTime()).toBeGreaterThanOrEqual(row.createTime.getTime())
    // parent null means "not moved"; a null description clears it (and stays null, not "")
    const again = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id, organizationName: '新名', description: null, parent: null },
    })
    expect(again.status, again.body.msg).toBe(200)
    const [row2] = await t.db.select().from(organizations).where(eq(organizations.id, id))
    expect(row2).toMatchObject({ description: null, parent: rootId, updateUserId: adminId })
  })

  it('keeps the positions in step with positionSimpleDTOS: removed ones go with their links, new ones appear', async () => {
    const [s1, s2, s3] = [await addStation(), await addStation(), await addStation()]
    const id = await addOrg(rootId, uniq('同步部'), { stationIds: [s1, s2] })
    const before = await positionsOf(id)
    const p1 = before.find((p) => p.stationId === s1)!.id
    const p2 = before.find((p) => p.stationId === s2)!.id
    const [role] = await t.db
      .insert(roles)
      .values({ roleName: uniq('岗位角色'), type: 3 })
      .returning({ id: roles.id })
    await t.db.insert(positionUsers).values({ positionId: p1, userId: adminId })
    await t.db.insert(positionRoles).values({ positionId: p1, roleId: role.id })

    const res = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: {
        id,
        organizationName: '同步部',
        description: null,
        positionSimpleDTOS: [
          { stationId: s2, stationName: 'x' },
          { stationId: s3, stationName: 'y' },
        ],
      },
    })
    expect(res.status, res.body.msg).toBe(200)
    const after = await positionsOf(id)
    expect(after.map((p) => p.stationId)).toEqual([s2, s3])
    expect(after.find((p) => p.stationId === s2)!.id).toBe(p2)
    expect(await t.db.select().from(positionUsers).where(eq(positionUsers.positionId, p1))).toEqual([])
    expect(await t.db.select().from(positionRoles).where(eq(positionRoles.positionId, p1))).toEqual([])

    // without positionSimpleDTOS the positions stay as they are; an empty list removes them all
    await t.call('PUT', '/api/org/update', { token: admin(), body: { id, organizationName: '同步部2' } })
    expect((await positionsOf(id)).map((p) => p.stationId)).toEqual([s2, s3])
    await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id, organizationName: '同步部2', positionSimpleDTOS: [] },
    })
    expect(await positionsOf(id)).toEqual([])
  })

  it('refuses unknown stations in positionSimpleDTOS and changes nothing', async () => {
    const s1 = await addStation()
    const id = await addOrg(rootId, uniq('不变部'), { stationIds: [s1] })
    const res = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id, organizationName: '已改名', positionSimpleDTOS: [{ stationId: 999999 }] },
    })
    expect(res.status, res.body.msg).toBe(404)
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id))
    expect(row.organizationName).not.toBe('已改名')
    expect((await positionsOf(id)).map((p) => p.stationId)).toEqual([s1])
  })

  it('answers the name rules, 404 for an unknown id and 409 for a sibling name', async () => {
    const a = await addOrg(rootId, uniq('甲'))
    const b = await addOrg(rootId, uniq('乙'))
    const [bRow] = await t.db.select().from(organizations).where(eq(organizations.id, b))
    const blank = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: a, organizationName: ' ' },
    })
    expect(blank.status).toBe(400)
    expect(blank.body.msg).toBe(MSG.orgNameRequired)
    const hyphen = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: a, organizationName: 'a-b' },
    })
    expect(hyphen.status).toBe(400)
    expect(hyphen.body.msg).toBe(MSG.orgNameNoHyphen)
    const missing = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: 999999, organizationName: '无' },
    })
    expect(missing.status).toBe(404)
    const dup = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: a, organizationName: bRow.organizationName },
    })
    expect(dup.status).toBe(409)
    expect(dup.body.msg).toBe('同级部门名称已存在')
    // keeping its own name is not a duplicate
    const same = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: b, organizationName: bRow.organizationName },
    })
    expect(same.status).toBe(200)
  })

  it('renames the root but never moves it; moves others but not into their own subtree', async () => {
    const renamed = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: rootId, organizationName: '集团' },
    })
    expect(renamed.status).toBe(200)
    const a = await addOrg(rootId, uniq('移动源'))
    const a1 = await addOrg(a, '子部')
    const other = await addOrg(rootId, uniq('移动目标'))
    const moveRoot = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: rootId, organizationName: '集团', parent: a },
    })
    expect(moveRoot.status).toBe(409)
    expect(moveRoot.body.msg).toBe('根部门不能移动')
    const intoChild = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: {
        id: a,
        organizationName: (await t.db.select().from(organizations).where(eq(organizations.id, a)))[0]
          .organizationName,
        parent: a1,
      },
    })
    expect(intoChild.status).toBe(400)
    const toUnknown = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: a1, organizationName: '子部', parent: 999999 },
    })
    expect(toUnknown.status).toBe(404)
    const moved = await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: a1, organizationName: '子部', parent: other },
    })
    expect(moved.status).toBe(200)
    const detail = await t.call('GET', '/api/org/detail', { token: admin(), query: { orgId: a1 } })
    expect(detail.body.data.parent).toBe(other)
    expect(detail.body.data.organizationCompleteName).toMatch(/^集团-移动目标\d+-子部$/)
    await t.call('PUT', '/api/org/update', {
      token: admin(),
      body: { id: rootId, organizationName: '总公司' },
    })
  })

  it('needs org:edit', async () => {
    const id = await addOrg(rootId, uniq('权限部'))
    const body = { id, organizationName: uniq('权限部') }
    expect((await t.call('PUT', '/api/org/update', { body })).status).toBe(401)
    const adder = await t.userWithCodes(['org', 'org:add'])
    expect((await t.call('PUT', '/api/org/update', { token: adder.token, body })).status).toBe(403)
    const editor = await t.userWithCodes(['org:edit'])
    expect((await t.call('PUT', '/api/org/update', { token: editor.token, body })).status).toBe(200)
  })
})

describe('DELETE /org/delete', () => {
  it('deletes the department with its positions and their links', async () => {
    const s1 = await addStation()
    const id = await addOrg(rootId, uniq('待删部'), { stationIds: [s1] })
    const [p] = await positionsOf(id)
    const [role] = await t.db
      .insert(roles)
      .values({ roleName: uniq('删角色'), type: 3 })
      .returning({ id: roles.id })
    await t.db.insert(positionUsers).values({ positionId: p.id, userId: adminId })
    await t.db.insert(positionRoles).values({ positionId: p.id, roleId: role.id })
    const res = await t.call('DELETE', '/api/org/delete', { token: admin(), query: { orgId: id } })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(MSG.deleted)
    expect(await t.db.select().from(organizations).where(eq(organizations.id, id))).toEqual([])
    expect(await t.db.select().from(positions).where(eq(positions.id, p.id))).toEqual([])
    expect(await t.db.select().from(positionUsers).where(eq(positionUsers.positionId, p.id))).toEqual([])
    expect(await t.db.select().from(positionRoles).where(eq(positionRoles.positionId, p.id))).toEqual([])
    // the job title itself stays
    expect(await t.db.select().from(stations).where(eq(stations.id, s1))).toHaveLength(1)
  })

  it('refuses a department with sub-departments and the root (409), unknown ids (404)', async () => {
    const a = await addOrg(rootId, uniq('有子部'))
    const child = await addOrg(a, '子')
    const busy = await t.call('DELETE', '/api/org/delete', { token: admin(), query: { orgId: a } })
    expect(busy.status).toBe(409)
    expect(busy.body.msg).toBe('该部门下还有子部门，不能删除')
    expect(await t.db.select().from(organizations).where(eq(organizations.id, a))).toHaveLength(1)
    const root = await t.call('DELETE', '/api/org/delete', { token: admin(), query: { orgId: rootId } })
    expect(root.status).toBe(409)
    expect(root.body.msg).toBe('根部门不能删除')
    const missing = await t.call('DELETE', '/api/org/delete', { token: admin(), query: { orgId: 999999 } })
    expect(missing.status).toBe(404)
    expect((await t.call('DELETE', '/api/org/delete', { token: admin() })).status).toBe(400)
    // once the child is gone the parent can go
    expect(
      (await t.call('DELETE', '/api/org/delete', { token: admin(), query: { orgId: child } })).status,
    ).toBe(200)
    expect((await t.call('DELETE', '/api/org/delete', { token: admin(), query: { orgId: a } })).status).toBe(
      200,
    )
  })

  it('needs org:delete', async () => {
    const id = await addOrg(rootId, uniq('权限删'))
    expect((await t.call('DELETE', '/api/org/delete', { query: { orgId: id } })).status).toBe(401)
    const editor = await t.userWithCodes(['org', 'org:edit'])
    expect(
      (await t.call('DELETE', '/api/org/delete', { token: editor.token, query: { orgId: id } })).status,
    ).toBe(403)
    const deleter = await t.userWithCodes(['org:delete'])
    expect(
      (await t.call('DELETE', '/api/org/delete', { token: deleter.token, query: { orgId: id } })).status,
    ).toBe(200)
  })
})

describe('a large tree', () => {
  it('answers 10,000 departments quickly with correct complete names', async () => {
    const level1 = await t.db
      .insert(organizations)
      .values(Array.from({ length: 100 }, (_, i) => ({ organizationName: `大部${i}`, parent: rootId })))
      .returning({ id: organizations.id })
    const rows = level1.flatMap((p, i) =>
      Array.from({ length: 99 }, (_, j) => ({ organizationName: `小组${i}_${j}`, parent: p.id })),
    )
    for (let i = 0; i < rows.length; i += 2000)
      await t.db.insert(organizations).values(rows.slice(i, i + 2000))
    const total = (await t.db.select({ id: organizations.id }).from(organizations)).length
    expect(total).toBeGreaterThan(10_000)

    const started = Date.now()
    const res = await t.call('GET', '/api/org/tree', { token: admin() })
    const elapsed = Date.now() - started
    expect(res.status).toBe(200)
    expect(elapsed).toBeLessThan(3000)
    let count = 0
    const walk = (n: any) => {
      count++
      n.children.forEach(walk)
    }
    res.body.data.forEach(walk)
    expect(count).toBe(total)
    const big = res.body.data[0].children.find((n: any) => n.organizationName === '大部42')
    expect(big.childCount).toBe(99)
    expect(big.children[5].organizationCompleteName).toBe('总公司-大部42-小组42_5')
  })
})
