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
type RoleKey = 'all' | 'own' | 'tree' | 'customB' | 'dormantAll'
type Roles = Record<RoleKey, number> & { dormantGroup: number }
type Call = [method: string, url: string, opts: CallOptions]

const NICK: Record<UserKey, string> = {
  inside: 'inside_user',
  outside: 'outside_user',
  straddler: 'straddler',
  unplaced: 'unplaced_user',
  adminId: 'admin',
}

const userOf = (c: ScopedCompany, key: UserKey) => c[key]

/** One call the administrator might make, on a user, a position, a department and a role drawn at random. */
const CALLS: ((c: ScopedCompany, u: UserKey, p: PosKey, o: OrgKey, r: number, roles: Roles) => Call)[] = [
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
  // the grant paths of reach (DESIGN.md §13): links, enabling, creating, a role's scope
  (c, u, _p, _o, r) => ['PUT', '/api/rel/user-rel-role', { body: { id: userOf(c, u), roleIds: String(r) } }],
  (c, _u, p, _o, r) => [
    'PUT',
    '/api/rel/position-rel-role',
    { body: { positionId: c[p], roleIds: String(r) } },
  ],
  (c, _u, _p, _o, r) => [
    'PUT',
    '/api/rel/user-groups-rel-role',
    { body: { userGroupsId: c.group, roleIds: String(r) } },
  ],
  (_c, _u, _p, _o, _r, roles) => [
    'PATCH',
    '/api/user_groups/enable',
    { query: { userGroupsId: roles.dormantGroup, enable: true } },
  ],
  (c, _u, p) => ['PATCH', '/api/position/enable', { query: { positionId: c[p], enable: true } }],
  (_c, _u, _p, _o, _r, roles) => [
    'PUT',
    '/api/role/update',
    { body: { id: roles.dormantAll, roleName: '停用全部', status: 1 } },
  ],
  (c, _u, _p, o, r) => [
    'PUT',
    '/api/role/update',
    { body: { id: r, roleName: `范围${r}`, status: 1, dataScope: 2, scopeOrgIds: [c[o]] } },
  ],
  (_c, _u, _p, _o, r) => [
    'PUT',
    '/api/role/update',
    { body: { id: r, roleName: `范围${r}`, status: 1, dataScope: 1 } },
  ],
  (c, u, _p, _o, r) => [
    'POST',
    '/api/user_groups/insert',
    {
      body: {
        groupName: `新组${Date.now()}`,
        status: 1,
        description: '',
        roleIds: String(r),
        userIds: String(userOf(c, u)),
      },
    },
  ],
  (_c, _u, _p, _o, r) => ['DELETE', '/api/role/delete', { query: { id: r } }],
]

/**
 * Roles of the user permission in each scope, named `范围<id>` (the calls above rename them so), a
 * disabled 全部数据 role held by the user inside, and a disabled group carrying it: made by the super
 * admin, for the administrator to hand out, switch on or change.
 */
async function seedRoles(t: TestApp, c: ScopedCompany): Promise<Roles> {
  const call = async (method: string, url: string, body: unknown) => {
    const res = await t.call(method, url, { token: t.adminToken, body })
    expect(res.status, `${url}: ${res.body.msg}`).toBe(200)
    return res.body.data as number
  }
  const make = async (dataScope: number, scopeOrgIds: number[] = []) => {
    const id = await call('POST', '/api/role/insert', {
      roleName: `新角色${dataScope}${scopeOrgIds.join('')}`,
      authCodes: ['access', 'user'],
      dataScope,
      scopeOrgIds,
    })
    await call('PUT', '/api/role/update', { id, roleName: `范围${id}`, status: 1 })
    return id
  }
  const roles = {
    all: await make(1),
    own: await make(3),
    tree: await make(4),
    customB: await make(2, [c.orgB]),
    dormantAll: await make(1),
  }
  await call('PUT', '/api/role/update', { id: roles.dormantAll, roleName: '停用全部', status: 2 })
  await call('PUT', '/api/rel/user-rel-role', { id: c.inside, roleIds: String(roles.dormantAll) })
  const dormantGroup = await call('POST', '/api/user_groups/insert', {
    groupName: '停用组',
    status: 2,
    description: '',
    roleIds: String(roles.all),
    userIds: String(c.inside),
  })
  return { ...roles, dormantGroup }
}

/** What a user's scope for the user list reaches: everything, or departments (仅本人 as their own departments). */
async function reachOf(t: TestApp, userId: number): Promise<'all' | Set<number>> {
  const scope = await t.app.ctx.authz.scopeOf(userId, 'POST', '/user/list')
  if (!scope) return new Set()
  if (scope.all) return 'all'
  const orgs = new Set(scope.orgIds)
  if (scope.self) {
    const own = await queryRows<{ org_id: number }>(
      t.db,
      sql`select p.org_id from position_users pu join positions p on p.id = pu.position_id
        where pu.user_id = ${userId} and p.status = 1`,
    )
    if (own.length === 0) return 'all' // 仅本人 without a department is reached only by 全部数据
    for (const r of own) orgs.add(Number(r.org_id))
  }
  return orgs
}

/** Every user's reach for the user list, by id. */
async function reaches(t: TestApp) {
  const ids = await queryRows<{ id: number }>(t.db, sql`select id from users order by id`)
  const out = new Map<number, 'all' | Set<number>>()
  for (const { id } of ids) out.set(Number(id), await reachOf(t, Number(id)))
  return out
}

/**
 * Whatever reach anyone gained is within the administrator's own (as it was before the calls):
 * departments beyond it appear in no one's scope where they were not before. A department created
 * meanwhile lies below the administrator's roots (the department rule, tested apart) and joins every
 * 本部门及以下 scope above it, so only departments of the start are weighed.
 */
function gainedBeyond(
  admin: 'all' | Set<number>,
  before: Map<number, 'all' | Set<number>>,
  after: Map<number, 'all' | Set<number>>,
  existing: Set<number>,
): string[] {
  if (admin === 'all') return []
  const beyond: string[] = []
  for (const [id, now] of after) {
    const was = before.get(id) ?? new Set<number>()
    if (now === 'all') {
      if (was !== 'all') beyond.push(`user ${id}: 全部数据`)
      continue
    }
    for (const org of now)
      if (existing.has(org) && !admin.has(org) && (was === 'all' ? false : !was.has(org)))
        beyond.push(`user ${id}: org ${org}`)
  }
  return beyond
}

const action = fc.tuple(
  fc.integer({ min: 0, max: CALLS.length - 1 }),
  fc.constantFrom<UserKey>('inside', 'outside', 'straddler', 'unplaced', 'adminId'),
  fc.constantFrom<PosKey>('posA', 'posA1', 'posA2', 'posB'),
  fc.constantFrom<OrgKey>('root', 'orgA', 'orgA1', 'orgA2', 'orgB'),
  fc.constantFrom<RoleKey>('all', 'own', 'tree', 'customB', 'dormantAll'),
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
  it('random sequences of calls never change a row about a user outside the scope, nor give anyone reach beyond the administrator’s', async () => {
    let calls = 0
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 9, maxLength: 14 }), async (sequence) => {
        const t = await createTestApp()
        try {
          const c = await seedScopedCompany(t)
          const roles = await seedRoles(t, c)
          const outside = [c.outside, c.straddler, c.unplaced, c.adminId]
          const before = await rowsAbout(t, outside)
          const adminReach = await reachOf(t, c.scoped.id)
          const reachBefore = await reaches(t)
          const existing = new Set(
            (await queryRows<{ id: number }>(t.db, sql`select id from organizations`)).map((r) =>
              Number(r.id),
            ),
          )
          for (const [i, u, p, o, r] of sequence) {
            const [method, url, opts] = CALLS[i](c, u, p, o, roles[r], roles)
            const res = await t.call(method, url, { ...opts, token: c.scoped.token })
            calls++
            expect(res.status, `${method} ${url}: ${res.body.msg}`).toBeLessThan(500)
            expect(
              gainedBeyond(adminReach, reachBefore, await reaches(t), existing),
              `${method} ${url}`,
            ).toEqual([])
          }
          expect(await rowsAbout(t, outside)).toEqual(before)
        } finally {
          await t.close()
        }
      }),
      { numRuns: 6 },
    )
    expect(calls).toBeGreaterThanOrEqual(50)
  }, 600_000)
})
