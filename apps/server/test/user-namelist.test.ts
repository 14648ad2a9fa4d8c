import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asc, isNull } from 'drizzle-orm'
import {
  organizations,
  positionUsers,
  positions,
  stations,
  userGroupUsers,
  userGroups,
  users,
} from '../src/db/schema'
import { hashPassword } from '../src/auth/password'
import { createTestApp, type TestApp } from './helpers/app'

/** POST /user/namelist: the candidates of the group and position "link users" pickers. */

let t: TestApp
let groupId: number
let positionId: number
/** ten users named nl_00 … nl_09, in id order */
let named: number[]

const namelist = (body: Record<string, unknown>, token: string | null = t.adminToken) =>
  t.call<{
    list: { id: number; nickName: string; realName: string | null; status: number }[]
    total: number
  }>('POST', '/api/user/namelist', { token, body })

beforeAll(async () => {
  t = await createTestApp()
  const hash = await hashPassword('x')
  const rows = await t.db
    .insert(users)
    .values(
      Array.from({ length: 10 }, (_, i) => ({
        nickName: `nl_${String(i).padStart(2, '0')}`,
        realName: i === 0 ? '名单甲' : null,
        passwordHash: hash,
        status: i === 9 ? 2 : 1,
      })),
    )
    .returning({ id: users.id })
  named = rows.map((r) => r.id).sort((a, b) => a - b)
  const [group] = await t.db
    .insert(userGroups)
    .values({ groupName: 'nl_group', status: 1 })
    .returning({ id: userGroups.id })
  groupId = group.id
  const [root] = await t.db.select().from(organizations).where(isNull(organizations.parent))
  const [station] = await t.db
    .insert(stations)
    .values({ stationName: 'nl_station', type: 1 })
    .returning({ id: stations.id })
  const [position] = await t.db
    .insert(positions)
    .values({ orgId: root.id, stationId: station.id, status: 1, type: 1 })
    .returning({ id: positions.id })
  positionId = position.id
  // nl_01 and nl_02 are in the group; nl_03 holds the position
  await t.db.insert(userGroupUsers).values([named[1], named[2]].map((userId) => ({ groupId, userId })))
  await t.db.insert(positionUsers).values({ positionId, userId: named[3] })
})
afterAll(async () => t.close())

describe('POST /api/user/namelist', () => {
  it('lists users by id with id, nickName, realName and status only', async () => {
    const res = await namelist({ nickName: 'nl_', pageSize: 100 })
    expect(res.status).toBe(200)
    expect(res.body.data.total).toBe(10)
    expect(res.body.data.list.map((u) => u.id)).toEqual(named)
    expect(res.body.data.list[0]).toEqual({ id: named[0], nickName: 'nl_00', realName: '名单甲', status: 1 })
    expect(res.body.data.list[9].status).toBe(2)
    expect(res.raw).not.toMatch(/password|createTime/i)
  })

  it('leaves out the users already in the group', async () => {
    const res = await namelist({ nickName: 'nl_', userGroupId: groupId, pageSize: 100 })
    expect(res.body.data.total).toBe(8)
    const ids = res.body.data.list.map((u) => u.id)
    expect(ids).not.toContain(named[1])
    expect(ids).not.toContain(named[2])
    expect(ids).toContain(named[3])
  })

  it('leaves out the users already holding the position', async () => {
    const res = await namelist({ nickName: 'nl_', positionId, pageSize: 100 })
    expect(res.body.data.total).toBe(9)
    expect(res.body.data.list.map((u) => u.id)).not.toContain(named[3])
  })

  it('the whole candidate set, also without a name, never holds a linked user', async () => {
    const all = await t.db.select({ id: users.id }).from(users).orderBy(asc(users.id))
    const res = await namelist({ userGroupId: groupId, pageSize: 1000 })
    expect(res.body.data.total).toBe(all.length - 2)
    expect(res.body.data.list.map((u) => u.id)).toEqual(
      all.map((u) => u.id).filter((id) => id !== named[1] && id !== named[2]),
    )
  })

  it('pages: total counts every candidate, pages follow the id order, past the end is empty', async () => {
    const body = { nickName: 'nl_', userGroupId: groupId, pageSize: 3 }
    const pages = await Promise.all([1, 2, 3, 4].map((pageNum) => namelist({ ...body, pageNum })))
    pages.forEach((p) => expect(p.body.data.total).toBe(8))
    expect(pages.map((p) => p.body.data.list.length)).toEqual([3, 3, 2, 0])
    const expected = named.filter((id) => id !== named[1] && id !== named[2])
    expect(pages.flatMap((p) => p.body.data.list.map((u) => u.id))).toEqual(expected)
    // pageNum and pageSize default to 1 and 10
    const first = await namelist({ nickName: 'nl_' })
    expect(first.body.data.list.map((u) => u.id)).toEqual(named)
  })

  it('filters by nickName substring, case-insensitively, with wildcards taken literally', async () => {
    const res = await namelist({ nickName: '  NL_0  ', pageSize: 100 })
    expect(res.body.data.total).toBe(10)
    const one = await namelist({ nickName: 'nl_07' })
    expect(one.body.data.list.map((u) => u.nickName)).toEqual(['nl_07'])
    // '%' is taken literally: unescaped, 'nl%07' would match nl_07
    expect((await namelist({ nickName: 'nl%07' })).body.data.total).toBe(0)
    expect((await namelist({ nickName: '', pageSize: 1 })).body.data.total).toBeGreaterThan(10)
    expect((await namelist({ nickName: null, pageSize: 1 })).body.data.total).toBeGreaterThan(10)
  })

  it('an unknown group or position leaves nobody out', async () => {
    const res = await namelist({ nickName: 'nl_', userGroupId: 999999, positionId: 999998 })
    expect(res.body.data.total).toBe(10)
  })

  it('refuses bad input with 400', async () => {
    for (const body of [
      { pageNum: 0 },
      { pageSize: 1001 },
      { userGroupId: -1 },
      { positionId: 'x' },
      { nickName: 'x'.repeat(65) },
    ]) {
      const res = await namelist(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
  })

  it('needs a session (401) and usergroup:link or position:link (403 without)', async () => {
    expect((await namelist({}, null)).status).toBe(401)
    const outsider = await t.userWithCodes(['user', 'usergroup'], 'ns_outsider')
    expect((await namelist({}, outsider.token)).status).toBe(403)
    const groupLinker = await t.userWithCodes(['usergroup', 'usergroup:link'], 'ns_group_linker')
    expect((await namelist({ userGroupId: groupId }, groupLinker.token)).status).toBe(200)
    const positionLinker = await t.userWithCodes(['position', 'position:link'], 'ns_position_linker')
    expect((await namelist({ positionId }, positionLinker.token)).status).toBe(200)
  })
})
