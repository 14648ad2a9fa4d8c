import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { accessSnapshot } from './helpers/snapshot'

/**
 * Ids from outside the caller's scope are refused however they are spelled (DESIGN.md §13; RuoYi
 * #328 is the anti-example). The department administrator (scope A: A, A1, A2) sends the id of a
 * user, department or position outside it in every spelling an attacker would try: padded, signed,
 * zero-led, decimal, hexadecimal, full-width, with separators of another alphabet, mixed into a
 * list with ids inside, as an array, twice in the query string. Whatever the server makes of a
 * spelling, it never answers 200 and never changes a row.
 */

let t: TestApp
let c: ScopedCompany

beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
})
afterAll(() => t.close())

const fullWidth = (s: string) => s.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))

/** Spellings of `id` alone, and of `id` beside an id `ok` the caller may use. */
function spellings(id: number, ok: number): unknown[] {
  const s = String(id)
  return [
    s,
    ` ${s}`,
    `${s} `,
    `\t${s}\n`,
    `0${s}`,
    `00${s}`,
    `+${s}`,
    `${s}.0`,
    `${s}.5`,
    `${s}e0`,
    `0x${id.toString(16)}`,
    fullWidth(s),
    `${s}\u0000`,
    `${s},`,
    `,${s}`,
    `${ok},${s}`,
    `${s},${ok}`,
    `${ok},,${s}`,
    `${ok}，${s}`,
    `${ok};${s}`,
    `${ok} ${s}`,
    `${ok}、${s}`,
    id,
    [id],
    [s],
    [ok, id],
    [String(ok), s],
    [`0${s}`],
    [fullWidth(s)],
  ]
}

/** Forms a single id field may take in a JSON body. */
function scalarSpellings(id: number): unknown[] {
  const s = String(id)
  return [id, s, ` ${s}`, `0${s}`, `+${s}`, `${s}.0`, id + 0.0, fullWidth(s), [id], { id }, `${s},${s}`]
}

async function neverAccepted(method: string, url: string, opts: CallOptions, label: string) {
  const before = await accessSnapshot(t.db)
  const res = await t.call(method, url, { ...opts, token: c.scoped.token })
  expect([400, 403, 404], `${label}: ${res.status} ${res.body.msg}`).toContain(res.status)
  expect(res.status, label).not.toBe(500)
  expect(await accessSnapshot(t.db), label).toEqual(before)
}

describe('an id outside the scope, however spelled', () => {
  it('is refused in the id lists of the link calls', async () => {
    for (const userIds of spellings(c.outside, c.inside)) {
      const label = JSON.stringify(userIds)
      await neverAccepted(
        'PUT',
        '/api/rel/user-groups-rel-user',
        { body: { userGroupsId: c.group, userIds } },
        label,
      )
      await neverAccepted(
        'PUT',
        '/api/rel/position-rel-user',
        { body: { positionId: c.posA2, userIds } },
        label,
      )
      await neverAccepted(
        'PUT',
        '/api/rel/user-groups-un-rel-user',
        { body: { userGroupsId: c.group, userIds } },
        label,
      )
    }
    for (const positionIds of spellings(c.posB, c.posA2)) {
      const label = JSON.stringify(positionIds)
      await neverAccepted('PUT', '/api/rel/user-rel-position', { body: { id: c.inside, positionIds } }, label)
    }
  })

  it('is refused as the user of a single-user call', async () => {
    for (const id of scalarSpellings(c.outside)) {
      const label = JSON.stringify(id)
      await neverAccepted(
        'PUT',
        '/api/user/update',
        { body: { id, nickName: 'outside_user', status: 2 } },
        label,
      )
      await neverAccepted(
        'PUT',
        '/api/rel/user-rel-role',
        { body: { id, roleIds: String(c.scoped.roleId) } },
        label,
      )
      await neverAccepted(
        'PUT',
        '/api/rel/user-un-rel-position',
        { body: { userId: id, positionId: c.posB } },
        label,
      )
    }
  })

  it('is refused in a new user’s positions and a role’s 自定义 departments', async () => {
    for (const positionIds of [
      [c.posB],
      [c.posA1, c.posB],
      [String(c.posB)],
      [`0${c.posB}`],
      [fullWidth(String(c.posB))],
    ])
      await neverAccepted(
        'POST',
        '/api/user/insert',
        { body: { nickName: `alpha_${Math.random().toString(36).slice(2, 8)}`, positionIds } },
        JSON.stringify(positionIds),
      )
    for (const scopeOrgIds of [[c.orgB], [c.orgA1, c.orgB], [String(c.orgB)], [c.root], [`${c.orgB}.0`]])
      await neverAccepted(
        'POST',
        '/api/role/insert',
        {
          body: {
            roleName: `越权自定义${Math.random()}`,
            authCodes: ['access', 'user'],
            dataScope: 2,
            scopeOrgIds,
          },
        },
        JSON.stringify(scopeOrgIds),
      )
    for (const dataScope of [1, '1', 0, 6, -1, 1.5, '全部', null, [1]])
      await neverAccepted(
        'POST',
        '/api/role/insert',
        { body: { roleName: `越权范围${Math.random()}`, authCodes: ['access', 'user'], dataScope } },
        JSON.stringify(dataScope),
      )
  })

  it('is refused in the query string, spelled or repeated beside an id inside', async () => {
    const queries: [string, string][] = []
    for (const [path, name, outside, inside] of [
      ['/api/user/detail', 'userId', c.outside, c.inside],
      ['/api/user/delete', 'userId', c.outside, c.inside],
      ['/api/org/detail', 'orgId', c.orgB, c.orgA1],
      ['/api/org/delete', 'orgId', c.orgB, c.orgA2],
    ] as const) {
      const s = String(outside)
      for (const v of [s, `0${s}`, `+${s}`, `%20${s}`, `${s}.0`, encodeURIComponent(fullWidth(s))])
        queries.push([path, `${name}=${v}`])
      queries.push([path, `${name}=${inside}&${name}=${s}`])
      queries.push([path, `${name}=${s}&${name}=${inside}`])
      queries.push([path, `${name}[]=${s}`])
    }
    for (const [path, query] of queries) {
      const method = path.endsWith('delete') ? 'DELETE' : 'GET'
      const before = await accessSnapshot(t.db)
      const res = await t.call(method, `${path}?${query}`, { token: c.scoped.token })
      expect([400, 403, 404], `${path}?${query}: ${res.status} ${res.body.msg}`).toContain(res.status)
      expect(await accessSnapshot(t.db)).toEqual(before)
    }
  })

  it('the same calls with an id inside the scope still go through (the refusals above are about scope)', async () => {
    const res = await t.call('GET', `/api/user/detail?userId=${c.inside}`, { token: c.scoped.token })
    expect(res.status, res.body.msg).toBe(200)
    const linked = await t.call('PUT', '/api/rel/position-rel-user', {
      token: c.scoped.token,
      body: { positionId: c.posA2, userIds: ` ${c.inside} ` },
    })
    expect([200, 400], linked.body.msg).toContain(linked.status)
    const org = await t.call('GET', `/api/org/detail?orgId=${c.orgA1}`, { token: c.scoped.token })
    expect(org.status, org.body.msg).toBe(200)
  })
})
