import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { coversPattern, coversUrlPattern, type UrlPattern } from '@amg/contract'
import { users } from '../src/db/schema'
import { countActiveSuperAdmins } from '../src/auth/super-admin-guard'
import type { EffectiveAccess } from '../src/auth/authorizer'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { LIMITED_CODES, seedCompany, STRONG_CODES, type Company } from './helpers/company'

/**
 * The no-escalation invariant (DESIGN.md §6a), driven by random sequences of write calls from a
 * limited administrator: after each call, no user holds power they did not hold before and that
 * the caller lacks, and an active super admin remains. Bounded to a few hundred calls; the API
 * suite runs it on PGlite and again on PostgreSQL.
 */
type Action = (c: Company) => [method: string, url: string, opts: CallOptions]

const ALL_CODES = [...LIMITED_CODES, ...STRONG_CODES]

const userOf = fc.constantFrom<(c: Company) => number>(
  (c) => c.strongUser,
  (c) => c.weakUser,
  (c) => c.plainUser,
  (c) => c.limited.id,
  (c) => c.adminId,
)
const roleOf = fc.constantFrom<(c: Company) => number>(
  (c) => c.strongRole,
  (c) => c.weakRole,
  (c) => c.superRoleId,
  (c) => c.limited.roleId,
)
const groupOf = fc.constantFrom<(c: Company) => number>(
  (c) => c.strongGroup,
  (c) => c.weakGroup,
  (c) => c.superGroup,
)
const positionOf = fc.constantFrom<(c: Company) => number>(
  (c) => c.strongPosition,
  (c) => c.weakPosition,
  (c) => c.superPosition,
)
const codes = fc.subarray(ALL_CODES, { maxLength: 6 })
const status = fc.constantFrom(1, 2)

const action: fc.Arbitrary<Action> = fc.oneof(
  fc
    .tuple(userOf, roleOf)
    .map(([u, r]): Action => (c) => [
      'PUT',
      '/api/rel/user-rel-role',
      { body: { id: u(c), roleIds: String(r(c)) } },
    ]),
  fc
    .tuple(userOf, roleOf)
    .map(([u, r]): Action => (c) => [
      'PUT',
      '/api/rel/user-un-rel-role',
      { body: { userId: u(c), roleId: r(c) } },
    ]),
  fc
    .tuple(userOf, groupOf)
    .map(([u, g]): Action => (c) => [
      'PUT',
      '/api/rel/user-rel-groups',
      { body: { id: u(c), greoupIds: String(g(c)) } },
    ]),
  fc
    .tuple(userOf, groupOf)
    .map(([u, g]): Action => (c) => [
      'PUT',
      '/api/rel/user-un-rel-groups',
      { body: { userId: u(c), groupId: g(c) } },
    ]),
  fc
    .tuple(userOf, positionOf)
    .map(([u, p]): Action => (c) => [
      'PUT',
      '/api/rel/user-rel-position',
      { body: { id: u(c), positionIds: String(p(c)) } },
    ]),
  fc
    .tuple(userOf, positionOf)
    .map(([u, p]): Action => (c) => [
      'PUT',
      '/api/rel/user-un-rel-position',
      { body: { userId: u(c), positionId: p(c) } },
    ]),
  fc
    .tuple(groupOf, userOf)
    .map(([g, u]): Action => (c) => [
      'PUT',
      '/api/rel/user-groups-rel-user',
      { body: { userGroupsId: g(c), userIds: String(u(c)) } },
    ]),
  fc
    .tuple(groupOf, roleOf)
    .map(([g, r]): Action => (c) => [
      'PUT',
      '/api/rel/user-groups-rel-role',
      { body: { userGroupsId: g(c), roleIds: String(r(c)) } },
    ]),
  fc
    .tuple(groupOf, roleOf)
    .map(([g, r]): Action => (c) => [
      'PUT',
      '/api/rel/user-groups-un-rel-role',
      { body: { userGroupsId: g(c), roleIds: String(r(c)) } },
    ]),
  fc
    .tuple(positionOf, userOf)
    .map(([p, u]): Action => (c) => [
      'PUT',
      '/api/rel/position-rel-user',
      { body: { positionId: p(c), userIds: String(u(c)) } },
    ]),
  fc
    .tuple(positionOf, roleOf)
    .map(([p, r]): Action => (c) => [
      'PUT',
      '/api/rel/position-rel-role',
      { body: { positionId: p(c), roleIds: String(r(c)) } },
    ]),
  fc
    .tuple(positionOf, roleOf)
    .map(([p, r]): Action => (c) => [
      'PUT',
      '/api/rel/position-un-rel-role',
      { body: { positionId: p(c), roleIds: String(r(c)) } },
    ]),
  fc
    .tuple(groupOf, fc.boolean())
    .map(([g, on]): Action => (c) => [
      'PATCH',
      '/api/user_groups/enable',
      { query: { userGroupsId: g(c), enable: on } },
    ]),
  fc
    .tuple(positionOf, fc.boolean())
    .map(([p, on]): Action => (c) => [
      'PATCH',
      '/api/position/enable',
      { query: { positionId: p(c), enable: on } },
    ]),
  fc
    .tuple(roleOf, codes, status)
    .map(([r, authCodes, s]): Action => (c) => [
      'PUT',
      '/api/role/update',
      { body: { id: r(c), roleName: `角色${r(c)}`, status: s, authCodes } },
    ]),
  fc
    .tuple(roleOf, codes, status)
    .map(([r, authCodes, s]): Action => (c) => [
      'PUT',
      '/api/role/admin/update',
      { body: { id: r(c), roleName: `角色${r(c)}`, status: s, type: 1, authCodes } },
    ]),
  codes.map((authCodes): Action => () => [
    'POST',
    '/api/role/insert',
    { body: { roleName: `新${authCodes.join('')}`, authCodes } },
  ]),
  fc
    .tuple(userOf, status)
    .map(([u, s]): Action => (c) => [
      'PUT',
      '/api/user/update',
      { body: { id: u(c), nickName: `user${u(c)}`, status: s, password: 'Changed@Pass2026' } },
    ]),
  fc
    .tuple(
      fc.constantFrom('file', 'file:upload', 'user:edit', 'org'),
      status,
      fc.constantFrom('/**', '/file-manage/download', '/user/list'),
    )
    .map(([code, s, uri]): Action => () => [
      'PUT',
      '/api/auth/update',
      {
        body: {
          code,
          chName: code,
          enName: 'x',
          parentCode: code.includes(':') ? code.split(':')[0] : 'organization',
          seq: 1,
          status: s,
          type: 3,
          frontEndAccessList: '',
          urlPatternInfos: [{ method: '*', uri }],
        },
      },
    ]),
)

type Held = Pick<EffectiveAccess, 'superAdmin' | 'auths' | 'backEnd'>

async function powers(t: TestApp): Promise<Map<number, Held>> {
  await t.app.ctx.authz.invalidate()
  const ids = (await t.db.select({ id: users.id }).from(users)).map((u) => u.id)
  const answer = new Map<number, Held>()
  for (const id of ids) answer.set(id, await t.app.ctx.authz.resolve(id))
  return answer
}

const coversFront = (held: readonly string[], p: string) => held.some((q) => coversPattern(q, p))
const coversBack = (held: readonly UrlPattern[], p: UrlPattern) => held.some((q) => coversUrlPattern(q, p))

/** Power `after` has that neither `before` nor the caller held: the escalations, as text. */
function gained(before: Held | undefined, after: Held, caller: Held): string[] {
  if (caller.superAdmin || before?.superAdmin) return []
  if (after.superAdmin) return ['super admin']
  const prior = before ?? { superAdmin: false, auths: [], backEnd: [] }
  return [
    ...after.auths.filter((p) => !coversFront(prior.auths, p) && !coversFront(caller.auths, p)),
    ...after.backEnd
      .filter((p) => !coversBack(prior.backEnd, p) && !coversBack(caller.backEnd, p))
      .map((p) => `${p.method} ${p.uri}`),
  ]
}

describe('no escalation, whatever a limited administrator tries', () => {
  it('random sequences of write calls never give power the caller lacks, and a super admin remains', async () => {
    let calls = 0
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 10, maxLength: 25 }), async (sequence) => {
        const t = await createTestApp()
        try {
          const c = await seedCompany(t)
          for (const act of sequence) {
            const before = await powers(t)
            const caller = before.get(c.limited.id)!
            const [method, url, opts] = act(c)
            const res = await t.call(method, url, { ...opts, token: c.limited.token })
            calls++
            expect(res.status, `${method} ${url}: ${res.body.msg}`).toBeLessThan(500)
            const after = await powers(t)
            for (const [userId, held] of after) {
              expect(
                gained(before.get(userId), held, caller),
                `user ${userId} after ${method} ${url}`,
              ).toEqual([])
            }
            expect(await countActiveSuperAdmins(t.db)).toBeGreaterThan(0)
          }
        } finally {
          await t.close()
        }
      }),
      { numRuns: 12 },
    )
    expect(calls).toBeGreaterThanOrEqual(120)
  }, 300_000)
})
