import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { SystemOverview } from '@amg/contract'
import { queryRows } from '../src/db/connection'
import { countActiveSuperAdmins } from '../src/auth/super-admin-guard'
import { createTestApp, type TestApp } from './helpers/app'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
}, 60_000)
afterAll(async () => t?.close())

const overview = async (token: string) => {
  const res = await t.call<SystemOverview>('GET', '/api/system/overview', { token })
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data
}

const countOf = async (query: ReturnType<typeof sql>) => {
  const [row] = await queryRows<{ n: number | string }>(t.db, query)
  return Number(row.n)
}

describe('GET /system/overview', () => {
  it('refuses a caller who is not signed in', async () => {
    const res = await t.call('GET', '/api/system/overview')
    expect(res.status).toBe(401)
  })

  it('gives a super admin every count, matching the database', async () => {
    // something to count beyond the seed: a frozen user, a group, a job title
    for (const [url, body] of [
      ['/api/user/insert', { nickName: `冻结者${Date.now()}`, status: 2 }],
      ['/api/user_groups/insert', { groupName: `概览组${Date.now()}`, status: 1 }],
      ['/api/station/insert', { stationName: `概览职位${Date.now()}`, type: 1 }],
    ] as const) {
      const res = await t.call('POST', url, { token: t.adminToken, body })
      expect(res.status, res.body.msg).toBe(200)
    }
    const o = await overview(t.adminToken)
    expect(o.users).toEqual({
      active: await countOf(sql`select count(*) as n from users where status = 1`),
      frozen: await countOf(sql`select count(*) as n from users where status = 2`),
      initialPassword: await countOf(sql`select count(*) as n from users where password_is_initial = 1`),
    })
    expect(o.users!.frozen).toBeGreaterThanOrEqual(1)
    expect(o.roles).toBe(await countOf(sql`select count(*) as n from roles`))
    expect(o.userGroups).toBe(await countOf(sql`select count(*) as n from user_groups`))
    expect(o.userGroups).toBeGreaterThanOrEqual(1)
    expect(o.organizations).toBe(await countOf(sql`select count(*) as n from organizations`))
    expect(o.stations).toBe(await countOf(sql`select count(*) as n from stations`))
    expect(o.stations).toBeGreaterThanOrEqual(1)
    expect(o.positions).toBe(await countOf(sql`select count(*) as n from positions`))
    expect(o.services).toBe(await countOf(sql`select count(*) as n from services`))
    expect(o.superAdmins).toBe(await countActiveSuperAdmins(t.db))
    expect(o.superAdmins).toBe(1)
  })

  it("lists the super admin's own last five operations, newest first", async () => {
    for (let i = 0; i < 6; i++) {
      const res = await t.call('POST', '/api/station/insert', {
        token: t.adminToken,
        body: { stationName: `最近职位${i}_${Date.now()}`, type: 1 },
      })
      expect(res.status, res.body.msg).toBe(200)
    }
    const o = await overview(t.adminToken)
    expect(o.recentOperations).toHaveLength(5)
    expect(o.recentOperations![0]).toMatchObject({ summary: '新建职位', result: expect.any(String) })
    expect(o.recentOperations![0].resourceName).toMatch(/最近职位5_/)
    const times = o.recentOperations!.map((r) => Date.parse(r.time))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
  })

  it('gives a limited user only the counts of the lists they may call', async () => {
    // 职位管理 reads the job title list and the department tree, nothing else
    const limited = await t.userWithCodes(['station'])
    const o = await overview(limited.token)
    expect(o.stations).toBe(await countOf(sql`select count(*) as n from stations`))
    expect(o.organizations).toBe(await countOf(sql`select count(*) as n from organizations`))
    expect(Object.keys(o).sort()).toEqual(['organizations', 'stations'])
  })

  it("shows the operation log's reader only their own operations, and nobody else's", async () => {
    const reader = await t.userWithCodes(['operlog', 'station', 'station:add'])
    const name = `读者职位${Date.now()}`
    const res = await t.call('POST', '/api/station/insert', {
      token: reader.token,
      body: { stationName: name, type: 1 },
    })
    expect(res.status, res.body.msg).toBe(200)
    const o = await overview(reader.token)
    expect(o.recentOperations).toHaveLength(1)
    expect(o.recentOperations![0].summary).toBe('新建职位')
    expect(o.recentOperations![0].resourceName).toContain(name)
    expect(o.users).toBeUndefined()
    expect(o.superAdmins).toBeUndefined()
  })

  it('gives a user with no rights an empty overview', async () => {
    const nobody = await t.userWithCodes([])
    expect(await overview(nobody.token)).toEqual({})
  })
})
