import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sql } from 'drizzle-orm'
import { coversPattern, coversUrlPattern, type UrlPattern } from '@amg/contract'
import { queryRows, type Db } from '../src/db/connection'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { seedCompany, STRONG_CODES, WEAK_CODES, type Company } from './helpers/company'
import { seedDormant, type DormantWorld } from './helpers/dormant'

/**
 * DESIGN.md §6a, "Stored power counts whatever its status", as a property: random sequences of role
 * edits, links of every kind, status changes (roles, groups, positions, nodes) and node moves by a
 * limited administrator. After each step, no user's live power and no user's stored power (what they
 * would hold were every node, role, group and position enabled) has grown beyond what it was or what
 * the caller held live. Both are computed here from the tables, not through the server's own code.
 */
interface World {
  c: Company
  w: DormantWorld
}
type Action = (x: World) => [method: string, url: string, opts: CallOptions]

const pick = <T>(...options: ((x: World) => T)[]) => fc.constantFrom(...options)
const userOf = pick(
  (x) => x.c.strongUser,
  (x) => x.c.weakUser,
  (x) => x.c.plainUser,
  (x) => x.c.limited.id,
)
const roleOf = pick(
  (x) => x.c.strongRole,
  (x) => x.c.weakRole,
  (x) => x.c.superRoleId,
  (x) => x.c.limited.roleId,
  (x) => x.w.dormantRole,
)
const groupOf = pick(
  (x) => x.c.strongGroup,
  (x) => x.c.weakGroup,
  (x) => x.c.superGroup,
  (x) => x.w.dormantGroup,
)
const positionOf = pick(
  (x) => x.c.strongPosition,
  (x) => x.c.weakPosition,
  (x) => x.c.superPosition,
)
/** codes a role edit may hold: held, lacked, disabled and under a disabled ancestor */
const codesOf = fc.subarray(['user:edit', 'monitor', ...WEAK_CODES, ...STRONG_CODES, 'off', 'under'], {
  maxLength: 5,
})
const codeIn = (x: World, code: string) =>
  code === 'off' ? x.w.offNode : code === 'under' ? x.w.underOff : code
const nodeOf = fc.constantFrom('off', 'offParent', 'under', 'file:upload', 'file', 'user:edit', 'org')
const status = fc.constantFrom(1, 2)
const on = fc.boolean()

const link =
  (url: string, body: (x: World, a: number, b: number) => Record<string, unknown>) =>
  (a: fc.Arbitrary<(x: World) => number>, b: fc.Arbitrary<(x: World) => number>) =>
    fc.tuple(a, b).map(([fa, fb]): Action => (x) => ['PUT', url, { body: body(x, fa(x), fb(x)) }])

const action: fc.Arbitrary<Action> = fc.oneof(
  // links, every kind, both ways
  link('/api/rel/user-rel-role', (_x, u, r) => ({ id: u, roleIds: String(r) }))(userOf, roleOf),
  link('/api/rel/user-un-rel-role', (_x, u, r) => ({ userId: u, roleId: r }))(userOf, roleOf),
  link('/api/rel/user-rel-groups', (_x, u, g) => ({ id: u, greoupIds: String(g) }))(userOf, groupOf),
  link('/api/rel/user-un-rel-groups', (_x, u, g) => ({ userId: u, groupId: g }))(userOf, groupOf),
  link('/api/rel/user-rel-position', (_x, u, p) => ({ id: u, positionIds: String(p) }))(userOf, positionOf),
  link('/api/rel/user-un-rel-position', (_x, u, p) => ({ userId: u, positionId: p }))(userOf, positionOf),
  link('/api/rel/user-groups-rel-user', (_x, g, u) => ({ userGroupsId: g, userIds: String(u) }))(
    groupOf,
    userOf,
  ),
  link('/api/rel/user-groups-un-rel-user', (_x, g, u) => ({ userGroupsId: g, userIds: String(u) }))(
    groupOf,
    userOf,
  ),
  link('/api/rel/user-groups-rel-role', (_x, g, r) => ({ userGroupsId: g, roleIds: String(r) }))(
    groupOf,
    roleOf,
  ),
  link('/api/rel/user-groups-un-rel-role', (_x, g, r) => ({ userGroupsId: g, roleIds: String(r) }))(
    groupOf,
    roleOf,
  ),
  link('/api/rel/position-rel-user', (_x, p, u) => ({ positionId: p, userIds: String(u) }))(
    positionOf,
    userOf,
  ),
  link('/api/rel/position-un-rel-user', (_x, p, u) => ({ positionId: p, userIds: String(u) }))(
    positionOf,
    userOf,
  ),
  link('/api/rel/position-rel-role', (_x, p, r) => ({ positionId: p, roleIds: String(r) }))(
    positionOf,
    roleOf,
  ),
  link('/api/rel/position-un-rel-role', (_x, p, r) => ({ positionId: p, roleIds: String(r) }))(
    positionOf,
    roleOf,
  ),
  // a role's contents and status
  fc
    .tuple(roleOf, codesOf, status)
    .map(([r, codes, s]): Action => (x) => [
      'PUT',
      '/api/role/update',
      { body: { id: r(x), roleName: `角色${r(x)}`, status: s, authCodes: codes.map((c) => codeIn(x, c)) } },
    ]),
  fc
    .tuple(roleOf, status)
    .map(([r, s]): Action => (x) => [
      'PUT',
      '/api/role/update',
      { body: { id: r(x), roleName: `角色${r(x)}`, status: s } },
    ]),
  codesOf.map((codes): Action => (x) => [
    'POST',
    '/api/role/insert',
    { body: { roleName: `新${codes.join('')}`, authCodes: codes.map((c) => codeIn(x, c)) } },
  ]),
  // groups and positions switched on and off
  fc
    .tuple(groupOf, on)
    .map(([g, enable]): Action => (x) => [
      'PATCH',
      '/api/user_groups/enable',
      { query: { userGroupsId: g(x), enable } },
    ]),
  fc
    .tuple(positionOf, on)
    .map(([p, enable]): Action => (x) => [
      'PATCH',
      '/api/position/enable',
      { query: { positionId: p(x), enable } },
    ]),
  // nodes switched on and off, and moved out from under (or back under) the disabled ancestor
  fc
    .tuple(nodeOf, status)
    .map(([n, s]): Action => (x) => ['PUT', '/api/auth/update', { body: nodeForm(x, n, { status: s }) }]),
  fc
    .constantFrom('user', 'offParent')
    .map((parent): Action => (x) => [
      'PUT',
      '/api/auth/update',
      { body: nodeForm(x, 'under', { parentCode: parent === 'offParent' ? x.w.offParent : parent }) },
    ]),
)

/** The stored forms of the nodes the sequence edits, read once per run (name, patterns, type). */
let forms = new Map<string, Record<string, unknown>>()
function nodeForm(x: World, name: string, over: Record<string, unknown>) {
  const code =
    name === 'off'
      ? x.w.offNode
      : name === 'under'
        ? x.w.underOff
        : name === 'offParent'
          ? x.w.offParent
          : name
  return { ...forms.get(code), ...over }
}

async function readForms(t: TestApp, x: World) {
  forms = new Map()
  for (const code of ['file:upload', 'file', 'user:edit', 'org', x.w.offNode, x.w.offParent, x.w.underOff]) {
    const n = (await t.call('GET', '/api/auth/detail', { token: t.adminToken, query: { authCode: code } }))
      .body.data
    forms.set(code, {
      code,
      chName: n.chName,
      enName: n.enName,
      parentCode: n.parentCode,
      seq: n.seq,
      status: n.status,
      type: n.type,
      frontEndAccessList: n.frontEndAccessList,
      urlPatternInfos: n.urlPatternInfos,
    })
  }
}

// ---------------------------------------------------------------------------------------------
// The oracle: every user's live and stored power, straight from the tables
// ---------------------------------------------------------------------------------------------

interface Power {
  superAdmin: boolean
  frontEnd: string[]
  backEnd: UrlPattern[]
}
interface Powers {
  live: Map<number, Power>
  stored: Map<number, Power>
}

const rows = <T>(db: Db, query: ReturnType<typeof sql>) => queryRows<T>(db, query)

async function powers(db: Db): Promise<Powers> {
  const [nodes, roleRows, grants, userIds, direct, viaGroup, viaPosition] = await Promise.all([
    rows<{ code: string; parent_code: string | null; status: number; fe: string[]; be: UrlPattern[] }>(
      db,
      sql`select code, parent_code, status, front_end_access as fe, url_pattern_infos as be from auths`,
    ),
    rows<{ id: number; type: number; status: number }>(db, sql`select id, type, status from roles`),
    rows<{ role_id: number; auth_code: string }>(db, sql`select role_id, auth_code from role_auths`),
    rows<{ id: number }>(db, sql`select id from users`),
    rows<{ user_id: number; role_id: number }>(db, sql`select user_id, role_id from user_roles`),
    rows<{ user_id: number; role_id: number; status: number }>(
      db,
      sql`select gu.user_id, gr.role_id, g.status from user_group_users gu
        join user_groups g on g.id = gu.group_id join user_group_roles gr on gr.group_id = g.id`,
    ),
    rows<{ user_id: number; role_id: number; status: number }>(
      db,
      sql`select pu.user_id, pr.role_id, p.status from position_users pu
        join positions p on p.id = pu.position_id join position_roles pr on pr.position_id = p.id`,
    ),
  ])
  const byCode = new Map(nodes.map((n) => [n.code, n]))
  const live = (code: string, seen = new Set<string>()): boolean => {
    const n = byCode.get(code)
    if (!n || Number(n.status) !== 1 || seen.has(code)) return false
    seen.add(code)
    return n.parent_code === null || live(n.parent_code, seen)
  }
  const roleById = new Map(roleRows.map((r) => [Number(r.id), r]))
  const codesOfRole = new Map<number, string[]>()
  for (const g of grants)
    codesOfRole.set(Number(g.role_id), [...(codesOfRole.get(Number(g.role_id)) ?? []), g.auth_code])

  const power = (roleIds: Iterable<number>, onlyLive: boolean): Power => {
    const answer: Power = { superAdmin: false, frontEnd: [], backEnd: [] }
    for (const id of roleIds) {
      const role = roleById.get(id)
      if (!role || (onlyLive && Number(role.status) !== 1)) continue
      if (Number(role.type) === 1) answer.superAdmin = true
      for (const code of codesOfRole.get(id) ?? []) {
        const n = byCode.get(code)
        if (!n || (onlyLive && !live(code))) continue
        answer.frontEnd.push(...(n.fe ?? []))
        answer.backEnd.push(...(n.be ?? []))
      }
    }
    return answer
  }
  const result: Powers = { live: new Map(), stored: new Map() }
  for (const { id } of userIds) {
    const user = Number(id)
    const all = new Set<number>()
    const enabled = new Set<number>()
    // a direct link is always "enabled"; a group's or position's counts live only while it is enabled
    const links = [...direct.map((d) => ({ ...d, status: 1 })), ...viaGroup, ...viaPosition]
    for (const link of links)
      if (Number(link.user_id) === user) {
        all.add(Number(link.role_id))
        if (Number(link.status) === 1) enabled.add(Number(link.role_id))
      }
    result.stored.set(user, power(all, false))
    result.live.set(user, power(enabled, true))
  }
  return result
}

const coversFront = (held: readonly string[], p: string) => held.some((q) => coversPattern(q, p))
const coversBack = (held: readonly UrlPattern[], p: UrlPattern) => held.some((q) => coversUrlPattern(q, p))

/** What `after` holds that neither `before` nor the caller covers: the escalations, as text. */
function grown(before: Power | undefined, after: Power, caller: Power): string[] {
  if (caller.superAdmin || before?.superAdmin) return []
  if (after.superAdmin) return ['super admin']
  const prior = before ?? { superAdmin: false, frontEnd: [], backEnd: [] }
  return [
    ...after.frontEnd.filter((p) => !coversFront(prior.frontEnd, p) && !coversFront(caller.frontEnd, p)),
    ...after.backEnd
      .filter((p) => !coversBack(prior.backEnd, p) && !coversBack(caller.backEnd, p))
      .map((p) => `${p.method} ${p.uri}`),
  ]
}

describe('stored power, whatever a limited administrator tries', () => {
  it('no step grows anyone’s live or stored power beyond what the caller holds live', async () => {
    const outcomes = { allowed: 0, refused: 0 }
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 12, maxLength: 25 }), async (sequence) => {
        const t = await createTestApp()
        try {
          const x: World = { c: await seedCompany(t), w: await seedDormant(t) }
          await readForms(t, x)
          let before = await powers(t.db)
          for (const act of sequence) {
            const caller = before.live.get(x.c.limited.id)!
            const [method, url, opts] = act(x)
            const res = await t.call(method, url, { ...opts, token: x.c.limited.token })
            expect(res.status, `${method} ${url}: ${res.body.msg}`).toBeLessThan(500)
            if (res.status === 200) outcomes.allowed++
            if (res.status === 403) outcomes.refused++
            const after = await powers(t.db)
            for (const kind of ['stored', 'live'] as const)
              for (const [userId, held] of after[kind])
                expect(
                  grown(before[kind].get(userId), held, caller),
                  `${kind} power of user ${userId} after ${method} ${url} ${JSON.stringify(opts)}`,
                ).toEqual([])
            before = after
          }
        } finally {
          await t.close()
        }
      }),
      { numRuns: 5 },
    )
    // the property is not vacuous: the administrator both did things and was refused things
    expect(outcomes.allowed).toBeGreaterThan(10)
    expect(outcomes.refused).toBeGreaterThan(10)
  }, 300_000)
})
