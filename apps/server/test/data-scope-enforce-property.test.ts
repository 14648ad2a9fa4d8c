import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sql } from 'drizzle-orm'
import { queryRows } from '../src/db/connection'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'

/**
 * DESIGN.md §13: whatever a department administrator (scope: A and below) tries, no row about a user
 * outside their scope changes: the user row itself, and their positions, groups and roles. The users
 * outside are the one in B, the one straddling A1 and B, the one with no position and the super admin.
 */
type UserKey = 'inside' | 'outside' | 'straddler' | 'unplaced' | 'adminId'
type PosKey = 'posA' | 'posA1' | 'posA2' | 'posB'
type OrgKey = 'root' | 'orgA' | 'orgA1' | 'orgA2' | 'orgB'
type Call = [method: string, url: string, opts: CallOptions]

const NICK: Record<UserKey, string> = {
  inside: 'inside_user',
  outside: 'outside_user',
  straddler: 'straddler',
  unplaced: 'unplaced_user',
  adminId: 'admin',
}

const userOf = (c: ScopedCompany, key: UserKey) => c[key]

/** One call the administrator might make, on a user, a position and a department drawn at random. */
const CALLS: ((c: ScopedCompany, u: UserKey, p: PosKey, o: OrgKey) => Call)[] = [
  (c, u) => [
    'PUT',
    '/api/user/update',
    { body: { id: userOf(c, u), nickName: NICK[u], status: 1, realName: '随机' } },
  ],
  (c, u) => ['PUT', '/api/user/update', { body: { id: userOf(c, u), nickName: NICK[u], status: 2 } }],
  (c, u) => [
    'PUT',
    '/api/user/update',
    { body: { id: userOf(c, u), nickName: NICK[u], status: 1, password: 'Scope!Passw0rd#2026' } },
  ],
  (c, u) => ['DELETE', '/api/user/delete', { query: { userId: userOf(c, u) } }],
  (c, u) => [
    'PUT',
    '/api/rel/user-rel-role',
    { body: { id: userOf(c, u), roleIds: String(c.scoped.roleId) } },
  ],
  (c, u) => ['PUT', '/api/rel/user-un-rel-role', { body: { userId: userOf(c, u), roleId: c.scoped.roleId } }],
  (c, u) => ['PUT', '/api/rel/user-rel-groups', { body: { id: userOf(c, u), groupIds: String(c.group) } }],
  (c, u) => ['PUT', '/api/rel/user-un-rel-groups', { body: { userId: userOf(c, u), groupId: c.group } }],
  (c, u, p) => [
    'PUT',
    '/api/rel/user-rel-position',
    { body: { id: userOf(c, u), positionIds: String(c[p]) } },
  ],
  (c, u, p) => ['PUT', '/api/rel/user-un-rel-position', { body: { userId: userOf(c, u), positionId: c[p] } }],
  (c, u) => [
    'PUT',
    '/api/rel/user-groups-rel-user',
    { body: { userGroupsId: c.group, userIds: String(userOf(c, u)) } },
  ],
  (c, u) => [
    'PUT',
    '/api/rel/user-groups-un-rel-user',
    { body: { userGroupsId: c.group, userIds: String(userOf(c, u)) } },
  ],
  (c, u, p) => [
    'PUT',
    '/api/rel/position-rel-user',
    { body: { positionId: c[p], userIds: String(userOf(c, u)) } },
  ],
  (c, u, p) => [
    'PUT',
    '/api/rel/position-un-rel-user',
    { body: { positionId: c[p], userIds: String(userOf(c, u)) } },
  ],
  (c, _u, p) => ['DELETE', '/api/position/delete', { query: { positionIds: String(c[p]) } }],
  (c, _u, p) => ['PATCH', '/api/position/enable', { query: { positionId: c[p], enable: false } }],
  (c, _u, _p, o) => ['DELETE', '/api/org/delete', { query: { orgId: c[o] } }],
  (c, _u, _p, o) => [
    'POST',
    '/api/org/insert',
    { body: { organizationName: `新部门${Date.now()}`, parent: c[o] } },
  ],
  (c, _u, p) => ['POST', '/api/user/insert', { body: { nickName: `n${Date.now()}`, positionIds: [c[p]] } }],
  (c) => ['DELETE', '/api/user_groups/delete', { query: { userGroupsId: c.group } }],
]

const action = fc.tuple(
  fc.integer({ min: 0, max: CALLS.length - 1 }),
  fc.constantFrom<UserKey>('inside', 'outside', 'straddler', 'unplaced', 'adminId'),
  fc.constantFrom<PosKey>('posA', 'posA1', 'posA2', 'posB'),
  fc.constantFrom<OrgKey>('root', 'orgA', 'orgA1', 'orgA2', 'orgB'),
)

/** Every row about these users, as text. */
async function rowsAbout(t: TestApp, userIds: number[]) {
  const list = sql.join(
    userIds.map((id) => sql`${id}`),
    sql`, `,
  )
  const rows = await queryRows<{ row: string }>(
    t.db,
    sql`select 'users ' || u::text as row from users u where id in (${list})
        union all select 'position_users ' || x::text from position_users x where user_id in (${list})
        union all select 'user_group_users ' || x::text from user_group_users x where user_id in (${list})
        union all select 'user_roles ' || x::text from user_roles x where user_id in (${list})
        order by 1`,
  )
  return rows.map((r) => r.row)
}

describe('data scope holds, whatever a department administrator tries', () => {
  it('random sequences of calls never change a row about a user outside the scope', async () => {
    let calls = 0
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 15 }), async (sequence) => {
        const t = await createTestApp()
        try {
          const c = await seedScopedCompany(t)
          const outside = [c.outside, c.straddler, c.unplaced, c.adminId]
          const before = await rowsAbout(t, outside)
          for (const [i, u, p, o] of sequence) {
            const [method, url, opts] = CALLS[i](c, u, p, o)
            const res = await t.call(method, url, { ...opts, token: c.scoped.token })
            calls++
            expect(res.status, `${method} ${url}: ${res.body.msg}`).toBeLessThan(500)
          }
          expect(await rowsAbout(t, outside)).toEqual(before)
        } finally {
          await t.close()
        }
      }),
      { numRuns: 10 },
    )
    expect(calls).toBeGreaterThanOrEqual(50)
  }, 300_000)
})
