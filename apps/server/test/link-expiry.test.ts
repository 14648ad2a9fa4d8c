import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { and, eq, sql } from 'drizzle-orm'
import { DATA_SCOPE, LINK_EXPIRY_MSG } from '@amg/contract'
import {
  operationLogs,
  positions,
  positionUsers,
  roleAuths,
  roles,
  stations,
  userGroupRoles,
  userGroups,
  userGroupUsers,
  userRoles,
} from '../src/db/schema'
import { events } from '../src/db/webhook-schema'
import { queryRows } from '../src/db/connection'
import { rolesReached } from '../src/auth/reach'
import { sweepExpiredLinks } from '../src/modules/links/sweeper'
import { createTestApp, rootOrgIdOf, type TestApp } from './helpers/app'
import { startSecondInstance } from './helpers/second-instance'
import { sleep } from './helpers/pg-faults'

/**
 * DESIGN.md §20, expiring links: `expiresAt` on a user's links to roles, groups and positions; the
 * decision ignores an expired link from that instant on every instance; linking again never shortens;
 * the sweeper removes expired links with a log row and a `grant.expired` event.
 */

let t: TestApp
let n = 0
const uniq = (p: string) => `${p}_${++n}_${Math.random().toString(36).slice(2, 6)}`
beforeAll(async () => {
  // the sweeper is run by hand here, so what it finds is what a test left
  t = await createTestApp({ linkSweepSeconds: 0 })
})
afterAll(async () => t?.close())

const put = (url: string, body: unknown, token = t.adminToken) => t.call('PUT', url, { token, body })
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString()

async function addRole(codes: string[] = [], dataScope: number = DATA_SCOPE.all) {
  const [r] = await t.db
    .insert(roles)
    .values({ roleName: uniq('lx_role'), type: 3, status: 1, dataScope })
    .returning()
  if (codes.length) await t.db.insert(roleAuths).values(codes.map((authCode) => ({ roleId: r.id, authCode })))
  return r.id
}
async function addGroup(roleIds: number[] = []) {
  const [g] = await t.db
    .insert(userGroups)
    .values({ groupName: uniq('lx_group'), status: 1 })
    .returning()
  if (roleIds.length)
    await t.db.insert(userGroupRoles).values(roleIds.map((roleId) => ({ groupId: g.id, roleId })))
  return g.id
}
async function addPosition(orgId: number) {
  const [s] = await t.db
    .insert(stations)
    .values({ stationName: uniq('lx_station') })
    .returning()
  const [p] = await t.db.insert(positions).values({ orgId, stationId: s.id, status: 1 }).returning()
  return p.id
}
const expiryOf = async (userId: number, roleId: number): Promise<Date | null | 'none'> => {
  const [row] = await t.db
    .select()
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, roleId)))
  return row ? row.expiresAt : 'none'
}

describe('expiresAt in the link calls and lists', () => {
  it('is taken by the user, group and position link calls and shown in every link list', async () => {
    const user = await t.userWithCodes([])
    const role = await addRole()
    const group = await addGroup()
    const position = await addPosition(await rootOrgIdOf(t.db))
    const until = inSeconds(3600)
    expect(
      (await put('/api/rel/user-rel-role', { id: user.id, roleIds: `${role}`, expiresAt: until })).status,
    ).toBe(200)
    expect(
      (
        await put('/api/rel/user-groups-rel-user', {
          userGroupsId: group,
          userIds: `${user.id}`,
          expiresAt: until,
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await put('/api/rel/position-rel-user', {
          positionId: position,
          userIds: `${user.id}`,
          expiresAt: until,
        })
      ).status,
    ).toBe(200)

    const q = { userId: user.id, pageNum: 1, pageSize: 50 }
    const roleTab = await t.call('POST', '/api/rel/user/rolelist', { token: t.adminToken, query: q })
    const rows = roleTab.body.data.list as { id: number; expiresAt: string | null }[]
    expect(rows.find((r) => r.id === role)!.expiresAt).toBe(until)
    // the user's own permanent role says so
    expect(rows.find((r) => r.id === user.roleId)!.expiresAt).toBeNull()
    const groupTab = await t.call('POST', '/api/rel/user/grouplist', { token: t.adminToken, query: q })
    expect(groupTab.body.data.list).toEqual([expect.objectContaining({ id: group, expiresAt: until })])
    const positionTab = await t.call('POST', '/api/rel/user/positionlist', { token: t.adminToken, query: q })
    expect(positionTab.body.data.list).toEqual([expect.objectContaining({ id: position, expiresAt: until })])
    const members = await t.call('GET', '/api/rel/groups/userlist', {
      token: t.adminToken,
      query: { id: group },
    })
    expect(members.body.data.list).toEqual([expect.objectContaining({ id: user.id, expiresAt: until })])
    const holders = await t.call('GET', '/api/rel/position/userlist', {
      token: t.adminToken,
      query: { id: position },
    })
    expect(holders.body.data.list).toEqual([expect.objectContaining({ id: user.id, expiresAt: until })])

    // the user's group and position links through their own calls
    const group2 = await addGroup()
    expect(
      (await put('/api/rel/user-rel-groups', { id: user.id, groupIds: `${group2}`, expiresAt: until }))
        .status,
    ).toBe(200)
    const [gm] = await t.db.select().from(userGroupUsers).where(eq(userGroupUsers.groupId, group2))
    expect(gm.expiresAt?.toISOString()).toBe(until)
  })

  it('refuses a malformed or past expiresAt with a Chinese message, changing nothing', async () => {
    const user = await t.userWithCodes([])
    const role = await addRole()
    const group = await addGroup()
    const position = await addPosition(await rootOrgIdOf(t.db))
    for (const [bad, msg] of [
      ['tomorrow', LINK_EXPIRY_MSG.invalid],
      ['2030-13-45T00:00:00Z', LINK_EXPIRY_MSG.invalid],
      ['2030-01-01', LINK_EXPIRY_MSG.invalid],
      [new Date(Date.now() - 60_000).toISOString(), LINK_EXPIRY_MSG.past],
    ] as const) {
      for (const [url, body] of [
        ['/api/rel/user-rel-role', { id: user.id, roleIds: `${role}` }],
        ['/api/rel/user-rel-groups', { id: user.id, groupIds: `${group}` }],
        ['/api/rel/user-rel-position', { id: user.id, positionIds: `${position}` }],
        ['/api/rel/user-groups-rel-user', { userGroupsId: group, userIds: `${user.id}` }],
        ['/api/rel/position-rel-user', { positionId: position, userIds: `${user.id}` }],
      ] as const) {
        const res = await put(url, { ...body, expiresAt: bad })
        expect([url, bad, res.status, res.body.msg]).toEqual([url, bad, 400, msg])
      }
    }
    expect(await expiryOf(user.id, role)).toBe('none')
    expect(await t.db.select().from(userGroupUsers).where(eq(userGroupUsers.groupId, group))).toEqual([])
    expect(await t.db.select().from(positionUsers).where(eq(positionUsers.positionId, position))).toEqual([])
  })

  it('linking again extends or makes permanent, never shortens', async () => {
    const user = await t.userWithCodes([])
    const role = await addRole()
    const link = (expiresAt?: string | null) =>
      put('/api/rel/user-rel-role', {
        id: user.id,
        roleIds: `${role}`,
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      })
    const hour = inSeconds(3600)
    expect((await link(hour)).status).toBe(200)
    expect(((await expiryOf(user.id, role)) as Date).toISOString()).toBe(hour)
    // a shorter expiry does not shorten
    expect((await link(inSeconds(600))).status).toBe(200)
    expect(((await expiryOf(user.id, role)) as Date).toISOString()).toBe(hour)
    // a later one extends
    const twoHours = inSeconds(7200)
    expect((await link(twoHours)).status).toBe(200)
    expect(((await expiryOf(user.id, role)) as Date).toISOString()).toBe(twoHours)
    // null makes it permanent, and an expiry never shortens a permanent link (absent: permanent too)
    expect((await link(null)).status).toBe(200)
    expect(await expiryOf(user.id, role)).toBeNull()
    expect((await link(hour)).status).toBe(200)
    expect(await expiryOf(user.id, role)).toBeNull()
    const role2 = await addRole()
    await put('/api/rel/user-rel-role', { id: user.id, roleIds: `${role2}`, expiresAt: hour })
    expect((await put('/api/rel/user-rel-role', { id: user.id, roleIds: `${role2}` })).status).toBe(200)
    expect(await expiryOf(user.id, role2)).toBeNull()
  })

  it('the power check still holds: an expiry gives no one a role they may not give', async () => {
    // may link roles to users, but holds no station power: linking the station role is refused
    const linker = await t.userWithCodes(['user', 'user:role'])
    const target = await t.userWithCodes([])
    const stationRole = await addRole(['station'])
    const res = await put(
      '/api/rel/user-rel-role',
      { id: target.id, roleIds: `${stationRole}`, expiresAt: inSeconds(60) },
      linker.token,
    )
    expect(res.status).toBe(403)
    expect(await expiryOf(target.id, stationRole)).toBe('none')
  })
})

describe('the decision ignores an expired link at once', () => {
  const canList = async (token: string, app = t.app) =>
    (
      await app.inject({
        method: 'POST',
        url: '/api/station/list',
        headers: { 'x-auth-token': token },
        payload: {},
      })
    ).statusCode === 200

  it('an overlapping permanent link survives a time-bound one running out', async () => {
    const user = await t.userWithCodes([])
    const role = await addRole(['station'])
    // the same role through a group, permanently, and directly for a moment
    const group = await addGroup([role])
    await put('/api/rel/user-groups-rel-user', { userGroupsId: group, userIds: `${user.id}` })
    await put('/api/rel/user-rel-role', { id: user.id, roleIds: `${role}`, expiresAt: inSeconds(1) })
    expect(await canList(user.token)).toBe(true)
    await sleep(1300)
    expect(await canList(user.token)).toBe(true)
    // and the other way round: the group membership expiring, the direct link permanent
    const other = await t.userWithCodes([])
    await put('/api/rel/user-groups-rel-user', {
      userGroupsId: group,
      userIds: `${other.id}`,
      expiresAt: inSeconds(1),
    })
    await put('/api/rel/user-rel-role', { id: other.id, roleIds: `${role}` })
    await sleep(1300)
    expect(await canList(other.token)).toBe(true)
  })

  it('reach and data scope ignore expired links', async () => {
    const user = await t.userWithCodes([])
    const root = await rootOrgIdOf(t.db)
    const ownOrg = await addRole(['station'], DATA_SCOPE.ownOrg)
    const viaGroup = await addRole(['station'])
    const group = await addGroup([viaGroup])
    const position = await addPosition(root)
    const until = inSeconds(3600)
    await put('/api/rel/user-rel-role', { id: user.id, roleIds: `${ownOrg}`, expiresAt: until })
    await put('/api/rel/user-rel-groups', { id: user.id, groupIds: `${group}`, expiresAt: until })
    await put('/api/rel/user-rel-position', { id: user.id, positionIds: `${position}`, expiresAt: until })
    const reached = async (carriers: 'enabled' | 'every') =>
      (
        await queryRows<{ role_id: number }>(
          t.db,
          sql`select distinct role_id from (${rolesReached({ users: sql`= ${user.id}`, carriers })}) r order by role_id`,
        )
      ).map((r) => Number(r.role_id))
    expect(await reached('every')).toEqual(expect.arrayContaining([ownOrg, viaGroup]))
    const scope = await t.app.ctx.authz.scopeOf(user.id, 'POST', '/station/list')
    expect(scope).toEqual(expect.objectContaining({ all: true }))
    // every link runs out (set in the past directly: the sweeper has not run)
    for (const table of [userRoles, userGroupUsers, positionUsers])
      await t.db
        .update(table)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(table.userId, user.id))
    await t.app.ctx.authz.invalidate()
    expect(await reached('every')).toEqual([])
    expect(await reached('enabled')).toEqual([])
    expect(await t.app.ctx.authz.scopeOf(user.id, 'POST', '/station/list')).toBeNull()
    const access = await t.app.ctx.authz.resolve(user.id)
    expect(access.ownOrgIds).toEqual([])
    expect(access.roles).toEqual([])
  })

  it('a link expiring in 2 s stops deciding within 1 s of expiry, on two instances', async () => {
    // on PGlite one instance; on PostgreSQL a second one on the same database
    const second = inject('pgTemplate') ? await startSecondInstance(t) : undefined
    try {
      const user = await t.userWithCodes([])
      const role = await addRole(['station'])
      const expiresAt = Date.now() + 2000
      const res = await put('/api/rel/user-rel-role', {
        id: user.id,
        roleIds: `${role}`,
        expiresAt: new Date(expiresAt).toISOString(),
      })
      expect(res.status).toBe(200)
      const apps = [t.app, ...(second ? [second.app] : [])]
      // warm: each instance holds the access (and its expiry) in memory
      for (const app of apps) expect(await canList(user.token, app)).toBe(true)
      for (const app of apps) expect(app.ctx.authz.isCached(user.id)).toBe(true)
      const refusedAt = await Promise.all(
        apps.map(async (app) => {
          while (await canList(user.token, app)) {
            expect(Date.now()).toBeLessThan(expiresAt + 1000)
            await sleep(20)
          }
          return Date.now()
        }),
      )
      for (const at of refusedAt) {
        // allowed until the instant, refused within a second of it
        expect(at).toBeGreaterThanOrEqual(expiresAt)
        expect(at - expiresAt).toBeLessThan(1000)
      }
      // the link is still there (no sweep ran): the decision alone ignored it
      expect(await expiryOf(user.id, role)).not.toBe('none')
    } finally {
      await second?.close()
    }
  })
})

describe('the sweeper', () => {
  it('removes expired links only, logs 到期移除 and emits grant.expired', async () => {
    // what the tests above left expired goes first
    await sweepExpiredLinks(t.db)
    const user = await t.userWithCodes([])
    const role = await addRole()
    const group = await addGroup()
    const position = await addPosition(await rootOrgIdOf(t.db))
    const kept = await addRole()
    await put('/api/rel/user-rel-role', { id: user.id, roleIds: `${role}`, expiresAt: inSeconds(1) })
    await put('/api/rel/user-rel-role', { id: user.id, roleIds: `${kept}`, expiresAt: inSeconds(3600) })
    await put('/api/rel/user-rel-groups', { id: user.id, groupIds: `${group}`, expiresAt: inSeconds(1) })
    await put('/api/rel/user-rel-position', {
      id: user.id,
      positionIds: `${position}`,
      expiresAt: inSeconds(1),
    })
    await sleep(1200)
    const [lastEvent] = await queryRows<{ id: number }>(
      t.db,
      sql`select coalesce(max(id), 0) as id from events`,
    )
    expect(await sweepExpiredLinks(t.db)).toBe(3)
    // nothing left to sweep: a second run (another instance) finds nothing
    expect(await sweepExpiredLinks(t.db)).toBe(0)
    expect(await expiryOf(user.id, role)).toBe('none')
    expect(await expiryOf(user.id, kept)).not.toBe('none')
    expect(await t.db.select().from(userGroupUsers).where(eq(userGroupUsers.groupId, group))).toEqual([])
    expect(await t.db.select().from(positionUsers).where(eq(positionUsers.positionId, position))).toEqual([])
    // the user's own permanent role stays
    expect(await expiryOf(user.id, user.roleId)).toBeNull()

    const [log] = await t.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.summary, LINK_EXPIRY_MSG.sweptAction))
      .orderBy(sql`id desc`)
      .limit(1)
    expect(log).toEqual(expect.objectContaining({ result: 'success', msg: '移除 3 条已到期的关联' }))
    const emitted = await t.db
      .select()
      .from(events)
      .where(sql`${events.id} > ${Number(lastEvent.id)}`)
      .orderBy(events.id)
    const expired = emitted.filter((e) => e.type === 'grant.expired').map((e) => e.payload)
    expect(expired).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ link: 'user-role', userId: user.id, roleId: role }),
        expect.objectContaining({ link: 'group-user', userId: user.id, groupId: group }),
        expect.objectContaining({ link: 'position-user', userId: user.id, positionId: position }),
      ]),
    )
    expect(expired).toHaveLength(3)
    expect(emitted.some((e) => e.type === 'user.access.changed')).toBe(true)
  })

  it('two sweeps at once remove and log each link once', async () => {
    const user = await t.userWithCodes([])
    const roleIds = [await addRole(), await addRole(), await addRole()]
    await put('/api/rel/user-rel-role', { id: user.id, roleIds: roleIds.join(','), expiresAt: inSeconds(1) })
    await sleep(1200)
    const second = inject('pgTemplate') ? await startSecondInstance(t) : undefined
    try {
      const counts = await Promise.all([
        sweepExpiredLinks(t.db),
        sweepExpiredLinks(second?.database.db ?? t.db),
      ])
      expect(counts[0] + counts[1]).toBe(3)
    } finally {
      await second?.close()
    }
  })
})
