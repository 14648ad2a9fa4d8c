import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sql } from 'drizzle-orm'
import { queryRows } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'
import { roleWith } from './helpers/access'

/**
 * DESIGN.md §20 with §6a: whatever sequence of requests, approvals, rejections, eligibility grants
 * and activations runs, nobody ends up with a permission that the person who vouched for it (the
 * approver, or the eligibility's granter) did not hold at that moment, and a refused step changes
 * nobody's permissions. Bounded; the API suite runs it on PGlite and on PostgreSQL.
 */
let t: TestApp
type Person = { id: number; token: string }
let people: Record<'strong' | 'weak' | 'r1' | 'r2', Person>
let roles: number[]

beforeAll(async () => {
  t = await createTestApp()
  people = {
    // strong holds 用户管理 but not 组织管理; weak holds neither
    strong: await t.userWithCodes(['access-request:approve', 'eligibility:add', 'user'], 'p_strong'),
    weak: await t.userWithCodes(['access-request:approve', 'eligibility:add'], 'p_weak'),
    r1: await t.userWithCodes([], 'p_r1'),
    r2: await t.userWithCodes([], 'p_r2'),
  }
  roles = [
    await roleWith(t, 'p_user', ['user']),
    await roleWith(t, 'p_org', ['org']),
    await roleWith(t, 'p_two', ['user'], { requestApprovals: 2 }),
  ]
})
afterAll(async () => t.close())

type Who = keyof typeof people
const who = fc.constantFrom<Who>('strong', 'weak', 'r1', 'r2')
const requester = fc.constantFrom<Who>('r1', 'r2')
const role = fc.nat({ max: 2 })

type Step =
  | { kind: 'ask'; by: Who; role: number }
  | { kind: 'approve' | 'reject'; by: Who; nth: number }
  | { kind: 'grant'; by: Who; to: Who; role: number; approvals: number }
  | { kind: 'activate'; by: Who; nth: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('ask' as const), by: requester, role }),
  fc.record({
    kind: fc.constantFrom('approve' as const, 'reject' as const),
    by: who,
    nth: fc.nat({ max: 5 }),
  }),
  fc.record({
    kind: fc.constant('grant' as const),
    by: who,
    to: requester,
    role,
    approvals: fc.constantFrom(0, 0, 1),
  }),
  fc.record({ kind: fc.constant('activate' as const), by: requester, nth: fc.nat({ max: 5 }) }),
)

/** Every person's effective permission codes now. */
async function codesOfAll(): Promise<Record<Who, Set<string>>> {
  const out = {} as Record<Who, Set<string>>
  for (const [name, p] of Object.entries(people) as [Who, Person][])
    out[name] = new Set((await t.app.ctx.authz.resolve(p.id)).authCodes)
  return out
}

const idsOf = async (table: 'access_requests' | 'eligibilities') =>
  (await queryRows<{ id: number }>(t.db, sql`select id from ${sql.identifier(table)} order by id`)).map((r) =>
    Number(r.id),
  )

async function run(s: Step): Promise<{ status: number; vouchedBy?: Who }> {
  const token = people[s.by].token
  if (s.kind === 'ask') {
    const res = await t.call('POST', '/api/access-request/insert', {
      token,
      body: { roleId: roles[s.role], minutes: 30, reason: '性质测试' },
    })
    return { status: res.status }
  }
  if (s.kind === 'approve' || s.kind === 'reject') {
    const ids = await idsOf('access_requests')
    if (!ids.length) return { status: 0 }
    const id = ids[s.nth % ids.length]
    const res =
      s.kind === 'approve'
        ? await t.call('PUT', '/api/access-request/approve', { token, body: { id } })
        : await t.call('PUT', '/api/access-request/reject', { token, body: { id, comment: '否' } })
    return { status: res.status, vouchedBy: s.by }
  }
  if (s.kind === 'grant') {
    const res = await t.call('POST', '/api/eligibility/insert', {
      token,
      body: {
        userId: people[s.to].id,
        roleId: roles[s.role],
        maxMinutes: 60,
        requireReason: false,
        approvals: s.approvals,
      },
    })
    return { status: res.status }
  }
  const ids = await idsOf('eligibilities')
  if (!ids.length) return { status: 0 }
  const id = ids[s.nth % ids.length]
  const [row] = await queryRows<{ granted_by: number }>(
    t.db,
    sql`select granted_by from eligibilities where id = ${id}`,
  )
  const granter = (Object.entries(people) as [Who, Person][]).find(
    ([, p]) => p.id === Number(row.granted_by),
  )?.[0]
  const res = await t.call('POST', '/api/eligibility/activate', { token, body: { id, minutes: 20 } })
  return { status: res.status, vouchedBy: granter }
}

describe('no escalation through requests and eligibility', () => {
  it('nobody gains a permission the person who vouched did not hold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        await t.db.execute(sql`delete from access_requests`)
        await t.db.execute(sql`delete from eligibilities`)
        await t.db.execute(sql`delete from user_roles where role_id = any(${`{${roles.join(',')}}`}::int[])`)
        await t.app.ctx.authz.invalidate()
        for (const s of steps) {
          const before = await codesOfAll()
          const { status, vouchedBy } = await run(s)
          expect(status).not.toBe(500)
          const after = await codesOfAll()
          for (const name of Object.keys(people) as Who[]) {
            const gained = [...after[name]].filter((c) => !before[name].has(c))
            if (!gained.length) continue
            // only a successful approval or activation gives, and only what its voucher held
            expect(status).toBe(200)
            expect(vouchedBy).toBeDefined()
            for (const code of gained) expect(before[vouchedBy!].has(code)).toBe(true)
          }
        }
      }),
      { numRuns: 12 },
    )
  })
})
