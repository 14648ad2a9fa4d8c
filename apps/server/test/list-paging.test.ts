import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, isNull, sql } from 'drizzle-orm'
import { organizations, positions, stations, userGroups, users } from '../src/db/schema'
import { queryRows } from '../src/db/connection'
import { EXACT_TOTAL_LIMIT } from '@amg/contract'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * The large lists at their edges (DESIGN.md §12): every page of the user and group lists must be what
 * reading the whole list newest first and cutting it would give, whichever end a page is read from;
 * filters match anywhere in the name, case-insensitively, with %, _ and \ taken literally; totals are
 * exact (and unflagged) up to 10,000 matches, estimated and flagged above; and what is kept in memory
 * follows rows written behind the API's back (once their notification is heard: a write through the API
 * is seen on the very next call, see invalidation.test.ts and role.test.ts).
 */

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

type Page = { list: { id: number }[]; total: number; totalIsEstimate?: boolean }

/**
 * A list call. Rows written here behind the API's back reach the lists' caches by notification: on
 * PostgreSQL it arrives a moment after the commit, so each call first waits until this app has heard
 * everything committed so far (on PGlite it is heard as the change commits).
 */
async function post(url: string, body: object): Promise<Page> {
  await t.database.heardSoFar()
  const res = await t.call<Page>('POST', url, { token: t.adminToken, body })
  expect(res.status).toBe(200)
  return res.body.data
}

/** Every page of a list, one past the end included, checked against the expected ids. */
async function expectPages(url: string, filter: object, expected: number[], pageSize: number) {
  const pages = Math.ceil(expected.length / pageSize)
  for (let pageNum = 1; pageNum <= pages + 1; pageNum++) {
    const page = await post(url, { ...filter, pageNum, pageSize })
    expect(page.total, `${url} ${JSON.stringify(filter)} page ${pageNum}`).toBe(expected.length)
    expect(page.totalIsEstimate).toBeUndefined()
    expect(
      page.list.map((r) => r.id),
      `${url} ${JSON.stringify(filter)} page ${pageNum}`,
    ).toEqual(expected.slice((pageNum - 1) * pageSize, pageNum * pageSize))
  }
}

const contains = (text: string | null, part: string) =>
  text !== null && text.toLowerCase().includes(part.toLowerCase())

describe('POST /api/user/list at the edges', () => {
  // names with LIKE's wildcards and escape, mixed case, Chinese; several share a create time (id decides)
  const names = [
    'pg_a%b',
    'pg_a_b',
    'pg_a\\b',
    'PGxAxB',
    'pg_100%',
    'pg张伟',
    'pg张伟明',
    'pg_li',
    'pgzhangli',
    'pgLIU',
    'pg_status2',
    ...Array.from({ length: 14 }, (_, i) => `pg_bulk${i}`),
  ]
  const base = Date.parse('2020-01-01T00:00:00Z')

  /** All users newest first, as the database orders them: the oracle for every page. */
  async function newestFirst() {
    const rows = await queryRows<{ id: number; nick_name: string; status: number }>(
      t.db,
      sql`select id, nick_name, status from users order by create_time desc, id desc`,
    )
    return rows.map((r) => ({ id: Number(r.id), nickName: r.nick_name, status: Number(r.status) }))
  }

  beforeAll(async () => {
    await t.db.insert(users).values(
      names.map((nickName, i) => ({
        nickName,
        passwordHash: 'x',
        status: nickName === 'pg_status2' ? 2 : 1,
        createTime: new Date(base + Math.floor(i / 3) * 1000), // three by three on the same time
      })),
    )
  })

  it('answers every page, first to one past the last, as the whole list cut into pages', async () => {
    const all = await newestFirst()
    await expectPages(
      '/api/user/list',
      {},
      all.map((u) => u.id),
      10,
    )
    await expectPages(
      '/api/user/list',
      {},
      all.map((u) => u.id),
      7,
    )
  })

  it.each([
    ['%'],
    ['_'],
    ['\\'],
    ['a_b'],
    ['100%'],
    ['a'], // 1 character
    ['Pg'], // 2 characters, other case
    ['张伟'], // 2 characters, Chinese
    ['pg_a'], // 3+ characters: the trigram index
    ['xaxb'],
    ['张伟明'],
    ['li'],
    ['zhangli'],
    ['nobody-has-this'],
  ])('filters nickName %j anywhere in the name, wildcards literal, on every page', async (filter) => {
    const expected = (await newestFirst()).filter((u) => contains(u.nickName, filter)).map((u) => u.id)
    await expectPages('/api/user/list', { nickName: filter }, expected, 3)
  })

  it('combines the name filter with status', async () => {
    const expected = (await newestFirst())
      .filter((u) => contains(u.nickName, 'pg_') && u.status === 2)
      .map((u) => u.id)
    expect(expected).toHaveLength(1)
    await expectPages('/api/user/list', { nickName: 'pg_', status: 2 }, expected, 10)
  })

  it('shows users added, renamed and removed behind its back on the next call', async () => {
    const before = await post('/api/user/list', { pageNum: 1, pageSize: 10 })
    const [added] = await t.db
      .insert(users)
      .values({ nickName: 'pg_new', passwordHash: 'x', createTime: new Date(Date.now() + 60_000) })
      .returning({ id: users.id })
    const after = await post('/api/user/list', { pageNum: 1, pageSize: 10 })
    expect(after.total).toBe(before.total + 1)
    expect(after.list[0].id).toBe(added.id)
    await t.db.update(users).set({ nickName: 'pg_renamed' }).where(eq(users.id, added.id))
    expect((await post('/api/user/list', { nickName: 'renamed' })).list.map((u) => u.id)).toEqual([added.id])
    await t.db.delete(users).where(eq(users.id, added.id))
    expect((await post('/api/user/list', { pageNum: 1, pageSize: 10 })).total).toBe(before.total)
    expect((await post('/api/user/list', { nickName: 'renamed' })).total).toBe(0)
  })
})

describe('POST /api/user_groups/list at the edges', () => {
  async function newestFirst() {
    const rows = await queryRows<{
      id: number
      group_name: string
      description: string | null
      status: number
    }>(
      t.db,
      sql`select id, group_name, description, status from user_groups order by create_time desc, id desc`,
    )
    return rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status) }))
  }

  beforeAll(async () => {
    const base = Date.parse('2021-01-01T00:00:00Z')
    await t.db.insert(userGroups).values(
      ['gl_a%b', 'gl_a_b', 'gl_a\\b', 'GLxAxB', 'gl组一', 'gl组一二', 'gl_off', 'gl_plain', 'gl_p2'].map(
        (groupName, i) => ({
          groupName,
          description: i % 2 ? `说明_${i}%` : null,
          status: groupName === 'gl_off' ? 2 : 1,
          createTime: new Date(base + Math.floor(i / 2) * 1000),
        }),
      ),
    )
  })

  it('answers every page as the whole list cut into pages', async () => {
    const all = (await newestFirst()).map((g) => g.id)
    await expectPages('/api/user_groups/list', {}, all, 4)
  })

  it.each([['%'], ['_'], ['\\'], ['a_b'], ['组一'], ['gl_'], ['xaxb'], ['组一二']])(
    'filters groupName %j anywhere, wildcards literal',
    async (filter) => {
      const expected = (await newestFirst()).filter((g) => contains(g.group_name, filter)).map((g) => g.id)
      await expectPages('/api/user_groups/list', { groupName: filter }, expected, 2)
    },
  )

  it('filters description and status', async () => {
    const all = await newestFirst()
    const byDescription = all.filter((g) => contains(g.description, '_3%')).map((g) => g.id)
    expect(byDescription).toHaveLength(1)
    await expectPages('/api/user_groups/list', { description: '_3%' }, byDescription, 10)
    const off = all.filter((g) => g.status === 2 && contains(g.group_name, 'gl')).map((g) => g.id)
    await expectPages('/api/user_groups/list', { groupName: 'gl', status: 2 }, off, 10)
  })

  it(`past ${EXACT_TOTAL_LIMIT} matches the total is exact too, and every page is read in order`, async () => {
    const base = Date.parse('2019-01-01T00:00:00Z')
    const many = Array.from({ length: EXACT_TOTAL_LIMIT + 20 }, (_, i) => ({
      groupName: `glbig_${i}`,
      createTime: new Date(base + i * 1000),
    }))
    for (let i = 0; i < many.length; i += 2000) await t.db.insert(userGroups).values(many.slice(i, i + 2000))
    const all = (await newestFirst()).map((g) => g.id)

    const first = await post('/api/user_groups/list', { pageNum: 1, pageSize: 10 })
    // counted once for this version of the list: a total shown is exact, never 约
    expect(first.totalIsEstimate).toBeUndefined()
    expect(first.total).toBe(all.length)
    expect(first.list.map((g) => g.id)).toEqual(all.slice(0, 10))

    // the last page is read from the other end
    const lastNum = Math.ceil(all.length / 10)
    const last = await post('/api/user_groups/list', { pageNum: lastNum, pageSize: 10 })
    expect(last.total).toBe(all.length)
    expect(last.totalIsEstimate).toBeUndefined()
    expect(last.list.map((g) => g.id)).toEqual(all.slice((lastNum - 1) * 10))
    const middle = Math.floor(lastNum / 2) + 1
    expect(
      (await post('/api/user_groups/list', { pageNum: middle, pageSize: 10 })).list.map((g) => g.id),
    ).toEqual(all.slice((middle - 1) * 10, middle * 10))
    const beyond = await post('/api/user_groups/list', { pageNum: lastNum + 1, pageSize: 10 })
    expect(beyond).toEqual({ list: [], total: all.length })
    // the count is kept
    expect(await post('/api/user_groups/list', { pageNum: 1, pageSize: 1 })).toMatchObject({
      total: all.length,
    })

    // a filter matching more than 10,000: its own exact count, pages and bookmarks
    const big = (await newestFirst()).filter((g) => contains(g.group_name, 'glbig_')).map((g) => g.id)
    const bigFirst = await post('/api/user_groups/list', { groupName: 'glbig_', pageNum: 2, pageSize: 20 })
    expect(bigFirst.totalIsEstimate).toBeUndefined()
    expect(bigFirst.total).toBe(big.length)
    expect(bigFirst.list.map((g) => g.id)).toEqual(big.slice(20, 40))
    for (const pageNum of [37, 375, 501]) {
      const deep = await post('/api/user_groups/list', { groupName: 'glbig_', pageNum, pageSize: 20 })
      expect(deep.list.map((g) => g.id)).toEqual(big.slice((pageNum - 1) * 20, pageNum * 20))
    }
    // past the first 1,000 rows the bookmarks were made
    expect(
      await post('/api/user_groups/list', { groupName: 'glbig_', pageNum: 1, pageSize: 1 }),
    ).toMatchObject({
      total: big.length,
    })

    // a filter matching few of them is exact again
    const few = (await newestFirst()).filter((g) => contains(g.group_name, 'glbig_1000')).length
    const filtered = await post('/api/user_groups/list', {
      groupName: 'glbig_1000',
      pageNum: 1,
      pageSize: 100,
    })
    expect(filtered.total).toBe(few)
    expect(filtered.totalIsEstimate).toBeUndefined()

    await t.db.delete(userGroups).where(sql`${userGroups.groupName} like 'glbig\\_%'`)
  })
})

describe('POST /api/position/list at the edges', () => {
  let root: number
  let rootName: string

  /** The positions in department tree order, then job title, then id: computed by a recursive query. */
  async function inTreeOrder(orgId?: number, stationId?: number) {
    const rows = await queryRows<{ id: number; complete_name: string }>(
      t.db,
      sql`with recursive paths(id, complete_name, ids) as (
          select o.id, o.organization_name::text, array[o.id] from organizations o where o.parent is null
          union all
          select o.id, p.complete_name || '-' || o.organization_name, p.ids || o.id
            from organizations o join paths p on o.parent = p.id
        )
        select p.id, op.complete_name from positions p join paths op on op.id = p.org_id
         where ${orgId ? sql`${orgId} = any(op.ids)` : sql`true`}
           and ${stationId ? sql`p.station_id = ${stationId}` : sql`true`}
         order by op.ids, p.station_id, p.id`,
    )
    return rows.map((r) => ({ id: Number(r.id), name: r.complete_name }))
  }

  async function org(name: string, parent: number) {
    const [o] = await t.db
      .insert(organizations)
      .values({ organizationName: name, parent })
      .returning({ id: organizations.id })
    return o.id
  }

  let a: number, a1: number, b: number
  let s1: number, s2: number, s3: number
  beforeAll(async () => {
    const [r] = await t.db.select().from(organizations).where(isNull(organizations.parent))
    root = r.id
    rootName = r.organizationName
    // ids out of tree order on purpose: b is made before a's child
    a = await org('pl甲', root)
    b = await org('pl乙', root)
    a1 = await org('pl甲一', a)
    const made = await t.db
      .insert(stations)
      .values([{ stationName: 'pl职位三' }, { stationName: 'pl职位一' }, { stationName: 'pl职位二' }])
      .returning({ id: stations.id })
    ;[s3, s1, s2] = made.map((s) => s.id)
    await t.db.insert(positions).values([
      { orgId: b, stationId: s2 },
      { orgId: a1, stationId: s3 },
      { orgId: a, stationId: s2 },
      { orgId: a1, stationId: s1 },
      { orgId: b, stationId: s1 },
      { orgId: a, stationId: s3 },
      { orgId: root, stationId: s1 },
    ])
  })

  it('answers every page in tree order with complete names, and none past the end', async () => {
    const expected = await inTreeOrder()
    await expectPages(
      '/api/position/list',
      {},
      expected.map((p) => p.id),
      2,
    )
    const page = await post('/api/position/list', { pageNum: 1, pageSize: 1000 })
    expect(
      page.list.map((p) => (p as unknown as { organizationCompleteName: string }).organizationCompleteName),
    ).toEqual(expected.map((p) => p.name))
  })

  it('filters by a department with its sub-departments, and by job title', async () => {
    await expectPages(
      '/api/position/list',
      { orgId: a },
      (await inTreeOrder(a)).map((p) => p.id),
      2,
    )
    await expectPages(
      '/api/position/list',
      { stationId: s1 },
      (await inTreeOrder(undefined, s1)).map((p) => p.id),
      2,
    )
    await expectPages(
      '/api/position/list',
      { orgId: a, stationId: s3 },
      (await inTreeOrder(a, s3)).map((p) => p.id),
      1,
    )
    await expectPages('/api/position/list', { orgId: 99_999_999 }, [], 10)
  })

  it('follows departments and positions changed behind its back', async () => {
    await post('/api/position/list', { pageNum: 1, pageSize: 10 })
    await t.db.update(organizations).set({ organizationName: 'pl甲改' }).where(eq(organizations.id, a))
    const moved = await org('pl丙', a1)
    await t.db.insert(positions).values({ orgId: moved, stationId: s2 })
    const expected = await inTreeOrder()
    const page = await post('/api/position/list', { pageNum: 1, pageSize: 1000 })
    expect(page.list.map((p) => p.id)).toEqual(expected.map((p) => p.id))
    expect(page.total).toBe(expected.length)
    const names = page.list.map(
      (p) => (p as unknown as { organizationCompleteName: string }).organizationCompleteName,
    )
    expect(names).toContain(`${rootName}-pl甲改-pl甲一-pl丙`)
    expect(names).not.toContain(`${rootName}-pl甲-pl甲一`)
  })
})
