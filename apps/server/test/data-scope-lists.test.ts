import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import fc from 'fast-check'
import { eq, sql } from 'drizzle-orm'
import { queryRows } from '../src/db/connection'
import { roleAuths, roles, roleScopeOrgs, userGroupRoles, userGroups, userRoles } from '../src/db/schema'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { STRONG_CODES } from './helpers/company'

/**
 * DESIGN.md §11 ("everything a scoped caller lists obeys their reach") and §13: the change events
 * pulled, the API keys, the import template's role and group lists, the home page's figures and the
 * user list's `writable` marks, for a department administrator of A (A, A1, A2) and for the
 * company-wide admin. (Webhook deliveries: data-scope-webhooks.test.ts.)
 */
let t: TestApp
let c: ScopedCompany

beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
})
afterAll(() => t.close())

const asScoped = (method: string, url: string, opts: CallOptions = {}) =>
  t.call(method, url, { ...opts, token: c.scoped.token })
const asAdmin = (method: string, url: string, opts: CallOptions = {}) =>
  t.call(method, url, { ...opts, token: t.adminToken })

async function ok(res: Promise<{ status: number; body: any }>) {
  const answer = await res
  expect(answer.status, answer.body.msg).toBe(200)
  return answer.body.data
}

const lastEventId = async () =>
  Number((await queryRows<{ id: number | null }>(t.db, sql`select max(id) as id from events`))[0].id ?? 0)

interface Event {
  id: number
  type: string
  payload: Record<string, any>
}

/** Every event after `after` the caller pulls, page by page (`limit` a page), following `next`. */
async function pullAll(token: string, after: number, limit = 100): Promise<Event[]> {
  const all: Event[] = []
  for (let cursor = after, pages = 0; pages < 50; pages++) {
    const page = await ok(t.call('GET', '/api/events', { token, query: { after: cursor, limit } }))
    all.push(...page.list)
    if (page.next === cursor) break
    cursor = page.next
  }
  return all
}

const rename = (id: number, nickName: string) =>
  ok(asAdmin('PUT', '/api/user/update', { body: { id, nickName, status: 1 } }))

describe('GET /api/events obeys the reader’s reach', () => {
  it('a scoped reader sees events about users, positions and departments in reach only; the admin sees all', async () => {
    const after = await lastEventId()
    // names of this attempt: a rename to the name held changes nothing and makes no event
    const n = Date.now().toString(36)
    await rename(c.inside, `inside_${n}`)
    await rename(c.outside, `outside_${n}`)
    await rename(c.straddler, `straddler_${n}`)
    const orgInA = await ok(
      asAdmin('POST', '/api/org/insert', { body: { organizationName: `A下${n}`, parent: c.orgA } }),
    )
    const orgInB = await ok(
      asAdmin('POST', '/api/org/insert', { body: { organizationName: `B下${n}`, parent: c.orgB } }),
    )
    // a role change touches holders inside and outside: user.access.changed names both
    const roleId = await ok(
      asAdmin('POST', '/api/role/insert', { body: { roleName: `事件角色${n}`, authCodes: [] } }),
    )
    await ok(asAdmin('PUT', '/api/rel/user-rel-role', { body: { id: c.inside, roleIds: String(roleId) } }))
    await ok(asAdmin('PUT', '/api/rel/user-rel-role', { body: { id: c.outside, roleIds: String(roleId) } }))
    await ok(
      asAdmin('PUT', '/api/role/update', {
        body: { id: roleId, roleName: `事件角色${n}b`, authCodes: ['user'], status: 1 },
      }),
    )

    const mine = await pullAll(c.scoped.token, after)
    const all = await pullAll(t.adminToken, after)
    const updated = (events: Event[]) =>
      events.filter((e) => e.type === 'user.updated').map((e) => e.payload.id)
    // the straddler: readable (one department in A)
    expect(updated(mine).sort()).toEqual([c.inside, c.straddler].sort())
    expect(updated(all).sort()).toEqual([c.inside, c.outside, c.straddler].sort())
    const created = (events: Event[]) =>
      events.filter((e) => e.type === 'org.created').map((e) => e.payload.id)
    expect(created(mine)).toEqual([orgInA])
    expect(created(all)).toEqual([orgInA, orgInB])
    const links = (events: Event[]) =>
      events
        .filter(
          (e) => e.type === 'link.linked' && e.payload.link === 'user-role' && e.payload.roleId === roleId,
        )
        .map((e) => e.payload.userId)
    expect(links(mine)).toEqual([c.inside])
    expect(links(all)).toEqual([c.inside, c.outside])
    // the company-wide role is everyone's to hear of
    expect(mine.filter((e) => e.type.startsWith('role.')).length).toBe(
      all.filter((e) => e.type.startsWith('role.')).length,
    )
    expect(mine.some((e) => e.type === 'role.updated' && e.payload.id === roleId)).toBe(true)
    // user.access.changed: narrowed to the users in reach
    const accessOf = (events: Event[]) =>
      events.filter((e) => e.type === 'user.access.changed').flatMap((e) => e.payload.userIds)
    expect(accessOf(all)).toContain(c.outside)
    expect(accessOf(mine)).toContain(c.inside)
    expect(accessOf(mine)).not.toContain(c.outside)
  })

  it('pages of one event still reach every event in reach; `next` moves past the rest', async () => {
    const after = await lastEventId()
    await rename(c.outside, 'outside_user_b')
    await rename(c.outside, 'outside_user')
    await rename(c.inside, 'inside_user_b')
    await rename(c.inside, 'inside_user')
    const paged = await pullAll(c.scoped.token, after, 1)
    expect(paged.map((e) => e.payload.id)).toEqual([c.inside, c.inside])
    const first = await ok(asScoped('GET', '/api/events', { query: { after, limit: 1 } }))
    expect(first.list).toHaveLength(1)
    expect(first.next).toBe(first.list[0].id)
    // nothing after the last: an empty page whose `next` is past every event read
    const end = await ok(asScoped('GET', '/api/events', { query: { after: paged[paged.length - 1].id } }))
    expect(end.list).toEqual([])
    expect(end.next).toBe(await lastEventId())
  })
})

describe('POST /api/apikey/list obeys the reader’s reach', () => {
  it('lists the keys of users in reach only; the admin lists every key', async () => {
    for (const userId of [c.inside, c.outside, c.straddler])
      await ok(asAdmin('POST', '/api/apikey/insert', { body: { userId, name: `key-${userId}` } }))
    const users = (page: { list: { userId: number }[]; total: number }) =>
      page.list.map((k) => k.userId).sort()
    const mine = await ok(asScoped('POST', '/api/apikey/list', { body: { pageSize: 100 } }))
    expect(users(mine)).toEqual([c.inside, c.straddler].sort())
    expect(mine.total).toBe(2)
    // asking for a user outside reach by id finds nothing
    const theirs = await ok(asScoped('POST', '/api/apikey/list', { body: { userId: c.outside } }))
    expect(theirs).toEqual({ list: [], total: 0 })
    const all = await ok(asAdmin('POST', '/api/apikey/list', { body: { pageSize: 100 } }))
    expect(users(all)).toEqual([c.inside, c.outside, c.straddler].sort())
  })
})

describe('the events and keys listed concern no user outside reach, whatever the scope (property)', () => {
  it('for random 自定义部门 scopes', async () => {
    const after = await lastEventId()
    for (const id of [c.inside, c.outside, c.straddler, c.unplaced]) await rename(id, `p_${id}`)
    const orgsOf = async (userId: number) =>
      (
        await queryRows<{ org_id: number }>(
          t.db,
          sql`select p.org_id from position_users pu join positions p on p.id = pu.position_id where pu.user_id = ${userId}`,
        )
      ).map((r) => Number(r.org_id))
    const departments = [c.orgA, c.orgA1, c.orgA2, c.orgB]
    await fc.assert(
      fc.asyncProperty(fc.subarray(departments), async (chosen) => {
        await t.db.update(roles).set({ dataScope: 2 }).where(eq(roles.id, c.scoped.roleId))
        await t.db.delete(roleScopeOrgs).where(eq(roleScopeOrgs.roleId, c.scoped.roleId))
        if (chosen.length)
          await t.db.insert(roleScopeOrgs).values(chosen.map((orgId) => ({ roleId: c.scoped.roleId, orgId })))
        t.app.ctx.changes.dropAll()
        // 自定义部门 reaches each chosen department and everything below it
        const reach = new Set(chosen.flatMap((id) => (id === c.orgA ? [c.orgA, c.orgA1, c.orgA2] : [id])))
        const readable = async (userId: number) =>
          userId === c.scoped.id || (await orgsOf(userId)).some((org) => reach.has(org))
        const events = await pullAll(c.scoped.token, after)
        for (const e of events) {
          const named =
            e.type === 'user.access.changed'
              ? e.payload.userIds
              : [e.payload.userId ?? (e.type.startsWith('user.') ? e.payload.id : undefined)]
          for (const userId of named.filter((id: unknown) => id !== undefined))
            expect(await readable(userId), `${e.type} ${userId}`).toBe(true)
        }
        const keys = await ok(asScoped('POST', '/api/apikey/list', { body: { pageSize: 100 } }))
        for (const k of keys.list) expect(await readable(k.userId)).toBe(true)
        // what is in reach is listed, too
        const expected = await Promise.all([c.inside, c.outside, c.straddler].map(readable))
        const renamed = new Set(events.filter((e) => e.type === 'user.updated').map((e) => e.payload.id))
        expect([c.inside, c.outside, c.straddler].map((id) => renamed.has(id))).toEqual(expected)
      }),
      { numRuns: 12 },
    )
    // back to 本部门及以下 for the other tests
    await t.db.update(roles).set({ dataScope: 4 }).where(eq(roles.id, c.scoped.roleId))
    await t.db.delete(roleScopeOrgs).where(eq(roleScopeOrgs.roleId, c.scoped.roleId))
    t.app.ctx.changes.dropAll()
  })
})

describe('the user import template’s role and group lists', () => {
  async function lists(token: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user/import/template',
      headers: { 'x-auth-token': token },
    })
    expect(res.statusCode).toBe(200)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(res.rawPayload as never)
    const sheet = wb.getWorksheet('下拉列表')!
    const column = (letter: string) =>
      (sheet.getColumn(letter).values as unknown[]).filter((v) => typeof v === 'string') as string[]
    return { positions: column('E'), roles: column('F'), groups: column('G') }
  }

  it('offer a scoped caller only what they could give; the admin everything', async () => {
    const role = async (roleName: string, codes: string[], dataScope: number) => {
      const [r] = await t.db
        .insert(roles)
        .values({ roleName, type: 3, status: 1, dataScope })
        .returning({ id: roles.id })
      if (codes.length)
        await t.db.insert(roleAuths).values(codes.map((authCode) => ({ roleId: r.id, authCode })))
      return r.id
    }
    const group = async (groupName: string, roleIds: number[]) => {
      const [g] = await t.db
        .insert(userGroups)
        .values({ groupName, status: 1 })
        .returning({ id: userGroups.id })
      if (roleIds.length)
        await t.db.insert(userGroupRoles).values(roleIds.map((roleId) => ({ groupId: g.id, roleId })))
      return g.id
    }
    const inReach = await role('模板-本部门及以下', ['user'], 4)
    const wholeCompany = await role('模板-全部数据', ['user'], 1)
    await role('模板-文件', STRONG_CODES, 4)
    await group('模板组-范围内', [inReach])
    await group('模板组-全公司', [wholeCompany])
    await group('模板组-空', [])
    t.app.ctx.changes.dropAll()

    const mine = await lists(c.scoped.token)
    expect(mine.roles).toContain('模板-本部门及以下')
    expect(mine.roles).not.toContain('模板-全部数据')
    expect(mine.roles).not.toContain('模板-文件')
    expect(mine.roles).not.toContain('超级管理员')
    expect(mine.groups).toEqual(expect.arrayContaining(['模板组-范围内', '模板组-空']))
    expect(mine.groups).not.toContain('模板组-全公司')
    // the positions: in reach, as before
    expect(mine.positions.every((p) => p.includes('研发中心'))).toBe(true)

    const all = await lists(t.adminToken)
    expect(all.roles).toEqual(
      expect.arrayContaining(['模板-本部门及以下', '模板-全部数据', '模板-文件', '超级管理员']),
    )
    expect(all.groups).toEqual(expect.arrayContaining(['模板组-范围内', '模板组-全公司', '模板组-空']))
    // every role offered to the scoped caller can be given by them to a user in their reach
    for (const name of mine.roles.filter((n) => n.startsWith('模板-'))) {
      const [r] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.roleName, name))
      const res = await asScoped('PUT', '/api/rel/user-rel-role', {
        body: { id: c.inside, roleIds: String(r.id) },
      })
      expect(res.status, `${name}: ${res.body.msg}`).toBe(200)
      await t.db.delete(userRoles).where(eq(userRoles.roleId, r.id))
    }
  })
})

describe('the home page counts what the lists hold', () => {
  it('a scoped caller: the users, departments and positions in reach; the admin: all', async () => {
    const underA = async (table: 'organizations' | 'positions') =>
      Number(
        (
          await queryRows<{ n: number }>(
            t.db,
            sql`with recursive sub(id) as (select ${c.orgA}::int union select o.id from organizations o join sub on o.parent = sub.id)
                select count(*)::int as n from ${sql.identifier(table)}
                 where ${sql.identifier(table === 'organizations' ? 'id' : 'org_id')} in (select id from sub)`,
          )
        )[0].n,
      )
    const mine = await ok(asScoped('GET', '/api/system/overview'))
    const list = await ok(asScoped('POST', '/api/user/list', { body: { pageSize: 100 } }))
    expect(mine.users.active + mine.users.frozen).toBe(list.total)
    expect(mine.organizations).toBe(await underA('organizations'))
    expect(mine.positions).toBe(await underA('positions'))
    expect(mine.superAdmins).toBe(0)
    const all = await ok(asAdmin('GET', '/api/system/overview'))
    const allList = await ok(asAdmin('POST', '/api/user/list', { body: { pageSize: 100 } }))
    expect(all.users.active + all.users.frozen).toBe(allList.total)
    expect(all.users.active + all.users.frozen).toBeGreaterThan(list.total)
    expect(all.organizations).toBeGreaterThan(mine.organizations)
    expect(all.superAdmins).toBe(1)
  })
})

describe('user rows say whether the caller may change them, as the writes decide', () => {
  it('in reach and within power: writable; straddling, or stronger than the caller: not; the admin: all', async () => {
    // a user inside A holding power the department admin lacks (the file permissions)
    const [strong] = await t.db
      .insert(roles)
      .values({ roleName: `文件管理-${Date.now()}`, type: 3, status: 1, dataScope: 4 })
      .returning({ id: roles.id })
    await t.db.insert(roleAuths).values(STRONG_CODES.map((authCode) => ({ roleId: strong.id, authCode })))
    const strongUser = await ok(
      asAdmin('POST', '/api/user/insert', {
        body: { nickName: `strong_inside_${Date.now()}`, status: 1, positionIds: [c.posA1] },
      }),
    )
    await ok(
      asAdmin('PUT', '/api/rel/user-rel-role', { body: { id: strongUser, roleIds: String(strong.id) } }),
    )

    const rows = async (token: string) =>
      new Map<number, boolean>(
        (await ok(t.call('POST', '/api/user/list', { token, body: { pageSize: 100 } }))).list.map(
          (r: { id: number; writable: boolean }) => [r.id, r.writable],
        ),
      )
    const mine = await rows(c.scoped.token)
    expect(mine.get(c.inside)).toBe(true)
    expect(mine.get(c.scoped.id)).toBe(true)
    expect(mine.get(c.straddler)).toBe(false)
    expect(mine.get(strongUser)).toBe(false)
    const detail = async (userId: number) =>
      (await ok(asScoped('GET', '/api/user/detail', { query: { userId } }))).writable
    expect(await detail(c.inside)).toBe(true)
    expect(await detail(c.straddler)).toBe(false)
    expect(await detail(strongUser)).toBe(false)
    // the mark is what the write answers: each row the caller may not change is refused, each other one is not
    for (const [id, writable] of mine) {
      const [user] = (await ok(asAdmin('POST', '/api/user/list', { body: { pageSize: 100 } }))).list.filter(
        (r: { id: number }) => r.id === id,
      )
      const res = await asScoped('PUT', '/api/user/update', {
        body: { id, nickName: user.nickName, status: user.status },
      })
      expect(res.status, `${user.nickName}: ${res.body.msg}`).toBe(writable ? 200 : 403)
    }
    const all = await rows(t.adminToken)
    expect([...all.values()].every((w) => w)).toBe(true)
  })
})

describe('权限分析 names the scope in words', () => {
  it('the call’s scope and each role’s part: 研发中心（含下级）', async () => {
    const res = await ok(
      asAdmin('POST', '/api/authz/explain', {
        body: { userId: c.scoped.id, method: 'POST', path: '/user/list' },
      }),
    )
    expect(res.scopeText).toBe('研发中心（含下级）')
    expect(res.roleScopes.map((p: { scopeText: string }) => p.scopeText)).toEqual(['研发中心（含下级）'])
    const admin = await ok(
      asAdmin('POST', '/api/authz/explain', {
        body: { userId: c.adminId, method: 'POST', path: '/user/list' },
      }),
    )
    expect(admin.scopeText).toBe('全部数据')
    const refused = await ok(
      asAdmin('POST', '/api/authz/explain', {
        body: { userId: c.unplaced, method: 'POST', path: '/user/list' },
      }),
    )
    expect(refused.scopeText).toBeNull()
  })
})
