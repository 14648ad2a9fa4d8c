import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { userRoles } from '../src/db/schema'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { seedCompany, type Company } from './helpers/company'

/**
 * DESIGN.md §6: invalidation follows the data, not the HTTP method. A read sent as POST clears no
 * cached decision; a write that changes what decides access clears it, whatever its route, and so
 * does a row changed behind the server's back (the database's triggers count every such change).
 */
let t: TestApp
let c: Company

beforeEach(async () => {
  t = await createTestApp()
  c = await seedCompany(t)
})
afterEach(async () => t.close())

const admin = (method: string, url: string, opts: CallOptions = {}) =>
  t.call(method, url, { ...opts, token: t.adminToken })

/** The weak user signs in and makes one authorized call, so their decision is cached. */
async function warmWeakUser(): Promise<string> {
  const token = await t.login('weak_user')
  expect((await t.call('POST', '/api/user/list', { token, body: {} })).status).toBe(200)
  expect(t.app.ctx.authz.isCached(c.weakUser)).toBe(true)
  return token
}

describe('reads sent as POST', () => {
  it('clear no cached decision', async () => {
    await warmWeakUser()
    const reads: [string, string, CallOptions][] = [
      ['POST', '/api/user_groups/list', { body: {} }],
      ['POST', '/api/rel/groups/rolelist', { query: { userGroupId: c.weakGroup } }],
      ['POST', '/api/user_groups/namelist', { body: {} }],
      ['POST', '/api/position/list', { body: {} }],
      ['POST', '/api/position/list/for/org', { body: { orgId: c.weakOrg } }],
      ['POST', '/api/rel/position/rolelist', { query: { positionId: c.weakPosition } }],
      ['POST', '/api/position/namelist', { body: {} }],
      ['POST', '/api/role/namelist', { body: {} }],
      ['POST', '/api/role/listall', { body: {} }],
      ['POST', '/api/user/list', { body: {} }],
      ['POST', '/api/rel/user/rolelist', { query: { userId: c.weakUser } }],
      ['POST', '/api/auth/tree', { body: {} }],
    ]
    for (const [method, url, opts] of reads) {
      const res = await admin(method, url, opts)
      expect(res.status, `${method} ${url}: ${res.body.msg}`).toBe(200)
      expect(t.app.ctx.authz.isCached(c.weakUser), `${method} ${url} cleared the cache`).toBe(true)
    }
  })
})

describe('writes that change access', () => {
  it('clear the cache on the very next request, whatever the route', async () => {
    const token = await warmWeakUser()
    // deleting the weak position's department takes the weak role's power away from the weak user,
    // who still holds it directly and through the weak group; take those first
    await admin('PUT', '/api/rel/user-un-rel-role', { body: { userId: c.weakUser, roleId: c.weakRole } })
    await admin('PUT', '/api/rel/user-un-rel-groups', { body: { userId: c.weakUser, groupId: c.weakGroup } })
    expect(t.app.ctx.authz.isCached(c.weakUser)).toBe(false)
    expect((await t.call('POST', '/api/user/list', { token, body: {} })).status).toBe(200)
    const res = await admin('DELETE', '/api/org/delete', { query: { orgId: c.weakOrg } })
    expect(res.status).toBe(200)
    expect(t.app.ctx.authz.isCached(c.weakUser)).toBe(false)
    expect((await t.call('POST', '/api/user/list', { token, body: {} })).status).toBe(403)
  })

  it('a change written behind the server’s back clears it through the trigger’s notification', async () => {
    const token = await warmWeakUser()
    await t.db.delete(userRoles).where(eq(userRoles.userId, c.weakUser))
    // PGlite hears its triggers' NOTIFY as the change commits; PostgreSQL a moment later
    await vi.waitFor(() => expect(t.app.ctx.authz.isCached(c.weakUser)).toBe(false), { timeout: 2000 })
    expect((await t.call('POST', '/api/user/list', { token, body: {} })).status).toBe(200) // still via group
  })

  it('a changed count with no notification: cleared at the next write on PostgreSQL, no look on the embedded database', async () => {
    await warmWeakUser()
    // as if the notification were lost: only the counter the triggers keep moves
    await t.db.execute(sql`select nextval('authz_version_seq')`)
    // a GET neither writes nor looks, nor does a read sent as POST
    expect((await admin('GET', '/api/user/detail', { query: { userId: c.weakUser } })).status).toBe(200)
    expect((await admin('POST', '/api/role/listall', { body: {} })).status).toBe(200)
    expect(t.app.ctx.authz.isCached(c.weakUser)).toBe(true)
    expect(
      (await admin('POST', '/api/org/insert', { body: { organizationName: '新部门', parent: c.weakOrg } }))
        .status,
    ).toBe(200)
    // PostgreSQL's notifications come a moment after the commit: the write looks at the counters.
    // The embedded database's come with the commit itself (none can be lost, nor written by anyone
    // else: one process holds it), so a write there needs no look, and a counter moved alone clears
    // nothing; its own access changes are cleared by their notification (the test above).
    expect(t.app.ctx.authz.isCached(c.weakUser)).toBe(t.database.heardAtCommit)
  })

  it('a refused write changes nothing', async () => {
    await warmWeakUser()
    const res = await t.call('PUT', '/api/rel/user-rel-role', {
      token: c.limited.token,
      body: { id: c.weakUser, roleIds: String(c.strongRole) },
    })
    expect(res.status).toBe(403)
    const rows = await t.db.select().from(userRoles).where(eq(userRoles.userId, c.weakUser))
    expect(rows.map((r) => r.roleId)).toEqual([c.weakRole])
  })
})
