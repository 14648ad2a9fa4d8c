import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, isNull } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import {
  auths,
  organizations,
  positionRoles,
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
import { Authorizer } from '../src/auth/authorizer'
import { openDatabase } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * DESIGN.md §6: a user may call POST /user/list only with a permission (code `user`) reached through
 * an enabled role — directly, through an enabled group, or through an enabled position.
 */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const listUsers = (token: string) =>
  t.call('POST', '/api/user/list', { token, body: { pageNum: 1, pageSize: 10 } })

async function roleWith(codes: string[], name: string) {
  const [role] = await t.db
    .insert(roles)
    .values({ roleName: name, type: 3, status: 1 })
    .returning({ id: roles.id })
  if (codes.length)
    await t.db.insert(roleAuths).values(codes.map((authCode) => ({ roleId: role.id, authCode })))
  return role.id
}

describe('authorization hook', () => {
  it('answers 401 without a session', async () => {
    const res = await t.call('POST', '/api/user/list', { body: {} })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ code: 401, msg: MSG.unauthorized, data: null })
  })

  it('answers 403 without the permission, and lets the super admin pass', async () => {
    const { token } = await t.userWithCodes([])
    const res = await listUsers(token)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ code: 403, msg: MSG.forbidden, data: null })
    expect((await listUsers(t.adminToken)).status).toBe(200)
  })

  it('grants through a direct role, and a disabled role grants nothing', async () => {
    const { token, roleId } = await t.userWithCodes(['user'])
    expect((await listUsers(token)).status).toBe(200)
    await t.db.update(roles).set({ status: 2 }).where(eq(roles.id, roleId))
    await t.app.ctx.authz.invalidate()
    expect((await listUsers(token)).status).toBe(403)
  })

  it('grants through an enabled group only', async () => {
    const { id: userId, token } = await t.userWithCodes([])
    const roleId = await roleWith(['user'], 'via-group')
    const [group] = await t.db.insert(userGroups).values({ groupName: 'g-authz', status: 1 }).returning()
    await t.db.insert(userGroupRoles).values({ groupId: group.id, roleId })
    await t.db.insert(userGroupUsers).values({ groupId: group.id, userId })
    await t.app.ctx.authz.invalidate()
    expect((await listUsers(token)).status).toBe(200)
    await t.db.update(userGroups).set({ status: 2 }).where(eq(userGroups.id, group.id))
    await t.app.ctx.authz.invalidate()
    expect((await listUsers(token)).status).toBe(403)
  })

  it('grants through an enabled position only', async () => {
    const { id: userId, token } = await t.userWithCodes([])
    const roleId = await roleWith(['user'], 'via-position')
    const [root] = await t.db.select().from(organizations).where(isNull(organizations.parent))
    const [station] = await t.db.insert(stations).values({ stationName: 'authz-station' }).returning()
    const [position] = await t.db
      .insert(positions)
      .values({ orgId: root.id, stationId: station.id })
      .returning()
    await t.db.insert(positionRoles).values({ positionId: position.id, roleId })
    await t.db.insert(positionUsers).values({ positionId: position.id, userId })
    await t.app.ctx.authz.invalidate()
    expect((await listUsers(token)).status).toBe(200)
    await t.db.update(positions).set({ status: 2 }).where(eq(positions.id, position.id))
    await t.app.ctx.authz.invalidate()
    expect((await listUsers(token)).status).toBe(403)
  })

  it('a disabled ancestor node disables its whole subtree', async () => {
    const { token } = await t.userWithCodes(['user'])
    expect((await listUsers(token)).status).toBe(200)
    await t.db.update(auths).set({ status: 2 }).where(eq(auths.code, 'access'))
    await t.app.ctx.authz.invalidate()
    try {
      expect((await listUsers(token)).status).toBe(403)
      const current = await t.call('GET', '/api/user/current', { token })
      expect(current.body.data.authCodes).not.toContain('user')
      expect(current.body.data.auths).not.toContain('/usermanage')
      expect((await listUsers(t.adminToken)).status).toBe(200)
    } finally {
      await t.db.update(auths).set({ status: 1 }).where(eq(auths.code, 'access'))
      await t.app.ctx.authz.invalidate()
    }
  })

  it('a change made through the API takes effect on the very next request', async () => {
    const { id: userId, token } = await t.userWithCodes([])
    const roleId = await roleWith(['user'], 'granted-later')
    expect((await listUsers(token)).status).toBe(403) // now cached as "no permission"
    const link = await t.call('PUT', '/api/rel/user-rel-role', {
      token: t.adminToken,
      body: { id: userId, roleIds: String(roleId) },
    })
    expect(link.status).toBe(200)
    expect((await listUsers(token)).status).toBe(200)
    const unlink = await t.call('PUT', '/api/rel/user-un-rel-role', {
      token: t.adminToken,
      body: { roleId, userId },
    })
    expect(unlink.status).toBe(200)
    expect((await listUsers(token)).status).toBe(403)
    const rows = await t.db.select().from(userRoles).where(eq(userRoles.userId, userId))
    expect(rows.map((r) => r.roleId)).not.toContain(roleId)
  })
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('several instances on PostgreSQL', () => {
  it('hear of a change through LISTEN/NOTIFY', async () => {
    const other = await openDatabase({ databaseUrl: t.databaseUrl! })
    try {
      const otherAuthz = new Authorizer(other.db, other)
      const { id: userId } = await t.userWithCodes([])
      const roleId = await roleWith(['user'], 'notify-role')
      expect(await otherAuthz.can(userId, 'POST', '/user/list')).toBe(false)
      const eventually = async (want: boolean) => {
        const deadline = Date.now() + 5000
        let answer = !want
        while (answer !== want && Date.now() < deadline) {
          answer = await otherAuthz.can(userId, 'POST', '/user/list')
          if (answer !== want) await new Promise((r) => setTimeout(r, 50))
        }
        return answer
      }
      // A write through the API notifies every instance ...
      const link = await t.call('PUT', '/api/rel/user-rel-role', {
        token: t.adminToken,
        body: { id: userId, roleIds: String(roleId) },
      })
      expect(link.status).toBe(200)
      expect(await eventually(true)).toBe(true)
      // ... and so does a row written behind the server's back: the database's triggers tell them.
      await t.db.delete(userRoles).where(eq(userRoles.userId, userId))
      expect(await eventually(false)).toBe(false)
    } finally {
      await other.close()
    }
  })
})
