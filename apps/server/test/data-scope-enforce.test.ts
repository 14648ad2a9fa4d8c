import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { accessSnapshot } from './helpers/snapshot'

/**
 * This product obeys data scope (DESIGN.md §13). A department administrator whose scope is A (with
 * A1, A2 below it) sees users with one department in A, writes only users wholly in A, and changes
 * departments only strictly below A. Every read path: inside visible, outside hidden, straddler
 * visible. Every write path: inside allowed, outside and straddler 403 with nothing changed.
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

const STRONG_PASSWORD = 'Scope!Passw0rd#2026'

type Call = [method: string, url: string, opts: CallOptions]

/** 403 with the given message, and not one row changed. */
async function expectRefused(call: Call, msg: string = MSG.userOutOfScope) {
  const before = await accessSnapshot(t.db)
  const res = await asScoped(...call)
  expect(res.status, `${call[0]} ${call[1]}: ${res.body.msg}`).toBe(403)
  expect(res.body.msg).toBe(msg)
  expect(await accessSnapshot(t.db)).toEqual(before)
}

async function expectAllowed(call: Call) {
  const res = await asScoped(...call)
  expect(res.status, `${call[0]} ${call[1]}: ${res.body.msg}`).toBe(200)
  return res
}

const ids = (list: { id?: number; userId?: number }[]) => list.map((r) => r.id ?? r.userId)

describe('reads show only users in scope', () => {
  it('user list: inside and straddler, not outside, not the unplaced, not the super admin', async () => {
    const res = await asScoped('POST', '/api/user/list', { body: { pageSize: 100 } })
    expect(res.status).toBe(200)
    const seen = ids(res.body.data.list)
    expect(seen).toEqual(expect.arrayContaining([c.inside, c.straddler, c.scoped.id]))
    for (const hidden of [c.outside, c.unplaced, c.adminId]) expect(seen).not.toContain(hidden)
    expect(res.body.data.total).toBe(seen.length)
    // the straddler's B position is masked, counted
    const straddler = res.body.data.list.find((r: { id: number }) => r.id === c.straddler)
    expect(straddler.positions).toEqual(['前端组-员工'])
    expect(straddler.hiddenPositions).toBe(1)
    // the same filtered twice (the cache must not serve one caller's answer to another)
    const all = await asAdmin('POST', '/api/user/list', { body: { pageSize: 100 } })
    expect(ids(all.body.data.list)).toEqual(expect.arrayContaining([c.outside, c.unplaced, c.adminId]))
    const again = await asScoped('POST', '/api/user/list', { body: { pageSize: 100 } })
    expect(ids(again.body.data.list)).toEqual(seen)
  })

  it('user list: kept per scope, it follows at once who holds which position', async () => {
    const seen = async () =>
      ids((await asScoped('POST', '/api/user/list', { body: { pageSize: 100 } })).body.data.list)
    expect(await seen()).not.toContain(c.unplaced)
    // the unplaced user takes a position in A2 (in scope): the next list shows them
    const linked = await asAdmin('PUT', '/api/rel/position-rel-user', {
      body: { positionId: c.posA2, userIds: String(c.unplaced) },
    })
    expect(linked.status, linked.body.msg).toBe(200)
    expect(await seen()).toContain(c.unplaced)
    // and leaves it: gone again
    const unlinked = await asAdmin('PUT', '/api/rel/user-un-rel-position', {
      body: { userId: c.unplaced, positionId: c.posA2 },
    })
    expect(unlinked.status, unlinked.body.msg).toBe(200)
    expect(await seen()).not.toContain(c.unplaced)
  })

  it('user detail: inside and straddler open, outside and unplaced 403', async () => {
    for (const id of [c.inside, c.straddler])
      expect((await asScoped('GET', '/api/user/detail', { query: { userId: id } })).status).toBe(200)
    for (const id of [c.outside, c.unplaced]) {
      const res = await asScoped('GET', '/api/user/detail', { query: { userId: id } })
      expect(res.status).toBe(403)
      expect(res.body.msg).toBe(MSG.userOutOfScope)
    }
    expect((await asScoped('GET', '/api/user/detail', { query: { userId: 999999 } })).status).toBe(404)
  })

  it('user tabs: the straddler opens with the B position hidden; outside users are 403', async () => {
    const positions = await asScoped('POST', '/api/rel/user/positionlist', { query: { userId: c.straddler } })
    expect(positions.status).toBe(200)
    expect(ids(positions.body.data.list)).toEqual([c.posA1])
    expect(positions.body.data.hiddenPositions).toBe(1)
    for (const path of ['/api/rel/user/rolelist', '/api/rel/user/grouplist', '/api/rel/user/positionlist']) {
      expect((await asScoped('POST', path, { query: { userId: c.straddler } })).status).toBe(200)
      const res = await asScoped('POST', path, { query: { userId: c.outside } })
      expect(res.status, path).toBe(403)
      expect(res.body.msg).toBe(MSG.userOutOfScope)
    }
  })

  it('name-list picker: only users in scope', async () => {
    const res = await asScoped('POST', '/api/user/namelist', { body: { pageSize: 100 } })
    const seen = ids(res.body.data.list)
    expect(seen).toEqual(expect.arrayContaining([c.inside, c.straddler]))
    for (const hidden of [c.outside, c.unplaced, c.adminId]) expect(seen).not.toContain(hidden)
  })

  it('group members: in scope listed, the others counted in outsideCount', async () => {
    const res = await asScoped('GET', '/api/rel/groups/userlist', { query: { id: c.group, pageSize: 100 } })
    expect(res.status).toBe(200)
    expect(ids(res.body.data.list).sort()).toEqual([c.inside, c.straddler].sort())
    expect(res.body.data.total).toBe(2)
    expect(res.body.data.outsideCount).toBe(1)
    const admin = await asAdmin('GET', '/api/rel/groups/userlist', { query: { id: c.group, pageSize: 100 } })
    expect(admin.body.data.total).toBe(3)
    expect(admin.body.data.outsideCount).toBeUndefined()
  })

  it('position holders: a position in scope lists its holders; one outside is 403', async () => {
    const res = await asScoped('GET', '/api/rel/position/userlist', { query: { id: c.posA1, pageSize: 100 } })
    expect(ids(res.body.data.list).sort()).toEqual([c.inside, c.straddler].sort())
    const out = await asScoped('GET', '/api/rel/position/userlist', { query: { id: c.posB } })
    expect(out.status).toBe(403)
    expect(out.body.msg).toBe(MSG.positionOutOfScope)
  })

  it('positions: only those of departments in scope', async () => {
    const res = await asScoped('POST', '/api/position/list', { body: { pageSize: 100 } })
    expect(ids(res.body.data.list).sort()).toEqual([c.posA, c.posA1, c.posA2].sort())
    const names = await asScoped('POST', '/api/position/namelist', { body: {} })
    expect(ids(names.body.data).sort()).toEqual([c.posA, c.posA1, c.posA2].sort())
  })

  it('who-can: only holders in scope', async () => {
    const res = await asScoped('POST', '/api/authz/who-can', {
      body: { method: 'POST', path: '/user/list', pageSize: 100 },
    })
    expect(res.status).toBe(200)
    const seen = ids(res.body.data.list)
    expect(seen).toContain(c.scoped.id)
    expect(seen).not.toContain(c.adminId)
  })

  it('online sessions: only of users in scope', async () => {
    await t.login('outside_user')
    await t.login('inside_user')
    const res = await asScoped('POST', '/api/session/online/list', { body: { pageSize: 100 } })
    const seen = res.body.data.list.map((r: { userId: number }) => r.userId)
    expect(seen).toContain(c.inside)
    expect(seen).not.toContain(c.outside)
    expect(seen).not.toContain(c.adminId)
    // ending a session manages its user: only users wholly in scope
    const all = await asAdmin('POST', '/api/session/online/list', { body: { pageSize: 100 } })
    const sessionOf = (userId: number) =>
      all.body.data.list.find((r: { userId: number }) => r.userId === userId).id as number
    const refused = await asScoped('DELETE', '/api/session/online/revoke', {
      query: { id: sessionOf(c.outside) },
    })
    expect(refused.status).toBe(403)
    expect(refused.body.msg).toBe(MSG.userOutOfScope)
    const after = await asAdmin('POST', '/api/session/online/list', { body: { pageSize: 100 } })
    expect(after.body.data.list.map((r: { userId: number }) => r.userId)).toContain(c.outside)
    const allowed = await asScoped('DELETE', '/api/session/online/revoke', {
      query: { id: sessionOf(c.inside) },
    })
    expect(allowed.status).toBe(200)
  })

  it('operation log: rows about users outside scope are left out', async () => {
    for (const [id, nickName] of [
      [c.outside, 'outside_user'],
      [c.inside, 'inside_user'],
    ] as const)
      expect((await asAdmin('PUT', '/api/user/update', { body: { id, nickName, status: 1 } })).status).toBe(
        200,
      )
    const res = await asScoped('POST', '/api/log/operation/list', { body: { pageSize: 100 } })
    const about = res.body.data.list
      .filter((r: { resourceType: string }) => r.resourceType === '用户管理')
      .map((r: { resourceId: string }) => Number(r.resourceId))
    expect(about).toContain(c.inside)
    expect(about).not.toContain(c.outside)
  })

  it('login log: sign-ins of users in scope only; attempts on no user only for the whole company', async () => {
    await t.login('outside_user')
    await t.login('inside_user')
    await t.call('POST', '/api/login', { body: { nickName: 'no_such_user', password: 'whatever-1A!' } })
    const names = async (as: typeof asAdmin) => {
      const res = await as('POST', '/api/log/login/list', { body: { pageSize: 100 } })
      expect(res.status, res.body.msg).toBe(200)
      return res.body.data.list.map((r: { nickName: string }) => r.nickName)
    }
    const scoped = await names(asScoped)
    expect(scoped).toContain('inside_user')
    expect(scoped).not.toContain('outside_user')
    expect(scoped).not.toContain('no_such_user')
    expect(scoped).not.toContain('admin')
    const all = await names(asAdmin)
    expect(all).toEqual(expect.arrayContaining(['inside_user', 'outside_user', 'no_such_user']))
  })

  it('department detail: a department in scope opens; a greyed ancestor or a sibling outside is 403', async () => {
    const open = await asScoped('GET', '/api/org/detail', { query: { orgId: c.orgA1 } })
    expect(open.status, open.body.msg).toBe(200)
    expect(open.body.data.id).toBe(c.orgA1)
    for (const orgId of [c.root, c.orgB]) {
      const res = await asScoped('GET', '/api/org/detail', { query: { orgId } })
      expect(res.status, `${orgId}: ${res.body.msg}`).toBe(403)
      expect(res.body.msg).toBe(MSG.orgOutOfScope)
      expect(res.body.data ?? null).toBeNull()
    }
    expect((await asAdmin('GET', '/api/org/detail', { query: { orgId: c.orgB } })).status).toBe(200)
  })

  it('department tree: out-of-scope ancestors greyed, out-of-scope branches gone; unchanged for the super admin', async () => {
    const res = await asScoped('GET', '/api/org/tree')
    expect(res.status).toBe(200)
    const [root] = res.body.data
    expect(root).toMatchObject({ id: c.root, inScope: false, childCount: 1 })
    const [a] = root.children
    expect(a.id).toBe(c.orgA)
    expect(a.inScope).toBeUndefined()
    expect(a.children.map((n: { id: number }) => n.id).sort()).toEqual([c.orgA1, c.orgA2].sort())
    const full = await asAdmin('GET', '/api/org/tree')
    expect(full.body.data[0].children.map((n: { id: number }) => n.id)).toContain(c.orgB)
    expect(JSON.stringify(full.body.data)).not.toContain('inScope')
  })

  it('department path and search: each hit keeps its path, the ancestor outside the scope marked', async () => {
    const path = await asScoped('GET', '/api/org/tree', { query: { pathTo: c.orgA1 } })
    expect(path.status).toBe(200)
    expect(path.body.data).toHaveLength(1)
    expect(path.body.data[0].id).toBe(c.orgA1)
    expect(path.body.data[0].path).toEqual([
      { id: c.root, organizationName: expect.any(String), inScope: false },
      { id: c.orgA, organizationName: expect.any(String) },
    ])
    const full = await asAdmin('GET', '/api/org/tree', { query: { pathTo: c.orgA1 } })
    expect(full.body.data[0].path.map((s: { id: number }) => s.id)).toEqual([c.root, c.orgA])
    expect(JSON.stringify(full.body.data)).not.toContain('inScope')
  })
})

describe('writes reach only users wholly in scope', () => {
  const update = (id: number, nickName: string, extra: object = {}): Call => [
    'PUT',
    '/api/user/update',
    { body: { id, nickName, status: 1, ...extra } },
  ]
  const perUser: [string, (id: number, nickName: string) => Call][] = [
    ['update fields', (id, n) => update(id, n, { realName: '改名' })],
    ['freeze', (id, n) => update(id, n, { status: 2 })],
    ['reset password', (id, n) => update(id, n, { password: STRONG_PASSWORD })],
    ['delete', (id) => ['DELETE', '/api/user/delete', { query: { userId: id } }]],
    [
      'user-rel-role',
      (id) => ['PUT', '/api/rel/user-rel-role', { body: { id, roleIds: String(c.scoped.roleId) } }],
    ],
    [
      'user-un-rel-role',
      (id) => ['PUT', '/api/rel/user-un-rel-role', { body: { userId: id, roleId: c.scoped.roleId } }],
    ],
    [
      'user-rel-groups',
      (id) => ['PUT', '/api/rel/user-rel-groups', { body: { id, groupIds: String(c.group) } }],
    ],
    [
      'user-un-rel-groups',
      (id) => ['PUT', '/api/rel/user-un-rel-groups', { body: { userId: id, groupId: c.group } }],
    ],
    [
      'user-rel-position',
      (id) => ['PUT', '/api/rel/user-rel-position', { body: { id, positionIds: String(c.posA2) } }],
    ],
    [
      'user-un-rel-position',
      (id) => ['PUT', '/api/rel/user-un-rel-position', { body: { userId: id, positionId: c.posA1 } }],
    ],
    [
      'group adds the user',
      (id) => [
        'PUT',
        '/api/rel/user-groups-rel-user',
        { body: { userGroupsId: c.group, userIds: String(id) } },
      ],
    ],
    [
      'group removes the user',
      (id) => [
        'PUT',
        '/api/rel/user-groups-un-rel-user',
        { body: { userGroupsId: c.group, userIds: String(id) } },
      ],
    ],
    [
      'position in scope adds the user',
      (id) => ['PUT', '/api/rel/position-rel-user', { body: { positionId: c.posA2, userIds: String(id) } }],
    ],
    [
      'position in scope removes the user',
      (id) => [
        'PUT',
        '/api/rel/position-un-rel-user',
        { body: { positionId: c.posA1, userIds: String(id) } },
      ],
    ],
  ]

  for (const [name, call] of perUser)
    it(`${name}: outside and straddler refused, nothing changed`, async () => {
      await expectRefused(call(c.outside, 'outside_user'))
      await expectRefused(call(c.straddler, 'straddler'))
      await expectRefused(call(c.unplaced, 'unplaced_user'))
    })

  it('ids from outside the scope are refused: positions of B, from either side', async () => {
    await expectRefused(
      ['PUT', '/api/rel/user-rel-position', { body: { id: c.inside, positionIds: String(c.posB) } }],
      MSG.positionOutOfScope,
    )
    await expectRefused(
      ['PUT', '/api/rel/position-rel-user', { body: { positionId: c.posB, userIds: String(c.inside) } }],
      MSG.positionOutOfScope,
    )
    await expectRefused(
      [
        'PUT',
        '/api/rel/position-rel-role',
        { body: { positionId: c.posB, roleIds: String(c.scoped.roleId) } },
      ],
      MSG.positionOutOfScope,
    )
    await expectRefused(
      ['DELETE', '/api/position/delete', { query: { positionIds: String(c.posB) } }],
      MSG.positionOutOfScope,
    )
    // a position in scope held by the straddler: deleting it would change the straddler
    await expectRefused(['DELETE', '/api/position/delete', { query: { positionIds: String(c.posA1) } }])
  })

  it('insert: a scoped administrator gives a position in scope', async () => {
    const body = { nickName: 'new_in_a', status: 1 }
    await expectRefused(['POST', '/api/user/insert', { body }], MSG.positionRequiredInScope)
    await expectRefused(
      ['POST', '/api/user/insert', { body: { ...body, positionIds: [c.posB] } }],
      MSG.positionOutOfScope,
    )
    await expectRefused(
      ['POST', '/api/user/insert', { body: { ...body, positionIds: [c.posA2, c.posB] } }],
      MSG.positionOutOfScope,
    )
    const res = await expectAllowed([
      'POST',
      '/api/user/insert',
      { body: { ...body, positionIds: [c.posA2] } },
    ])
    const holders = await asScoped('GET', '/api/rel/position/userlist', {
      query: { id: c.posA2, pageSize: 100 },
    })
    expect(ids(holders.body.data.list)).toContain(res.body.data)
    // the super admin still creates users without a position
    expect((await asAdmin('POST', '/api/user/insert', { body: { nickName: 'admin_made' } })).status).toBe(200)
  })

  it('the same calls on the user inside scope are allowed', async () => {
    for (const [name, call] of perUser) {
      if (name === 'delete') continue
      const res = await asScoped(...call(c.inside, 'inside_user'))
      expect(res.status, `${name}: ${res.body.msg}`).toBe(200)
    }
    await expectAllowed(['DELETE', '/api/user/delete', { query: { userId: c.inside } }])
  })
})

describe('departments: only strictly below the roots of the scope', () => {
  it('creates under a department in scope, never under one outside or beside the root', async () => {
    await expectRefused(
      ['POST', '/api/org/insert', { body: { organizationName: '外部', parent: c.orgB } }],
      MSG.orgOutOfScope,
    )
    await expectRefused(
      ['POST', '/api/org/insert', { body: { organizationName: '顶层', parent: c.root } }],
      MSG.orgOutOfScope,
    )
    const res = await expectAllowed([
      'POST',
      '/api/org/insert',
      { body: { organizationName: '测试组', parent: c.orgA } },
    ])
    const created = res.body.data as number
    // edits and moves inside the scope
    await expectAllowed([
      'PUT',
      '/api/org/update',
      { body: { id: created, organizationName: '测试二组', parent: c.orgA1 } },
    ])
    // never out of it, never the root of the scope, never outside
    await expectRefused(
      ['PUT', '/api/org/update', { body: { id: created, organizationName: '测试二组', parent: c.orgB } }],
      MSG.orgOutOfScope,
    )
    await expectRefused(
      ['PUT', '/api/org/update', { body: { id: c.orgA, organizationName: '研发' } }],
      MSG.orgOutOfScope,
    )
    await expectRefused(
      ['PUT', '/api/org/update', { body: { id: c.orgB, organizationName: '销售' } }],
      MSG.orgOutOfScope,
    )
    await expectRefused(['DELETE', '/api/org/delete', { query: { orgId: c.orgA } }], MSG.orgOutOfScope)
    await expectRefused(['DELETE', '/api/org/delete', { query: { orgId: c.orgB } }], MSG.orgOutOfScope)
    await expectAllowed(['DELETE', '/api/org/delete', { query: { orgId: created } }])
  })
})

describe('仅本人: the administrator sees and writes only themselves', () => {
  it('lists only the caller, opens only the caller, writes only the caller', async () => {
    await t.db.execute(sql`update roles set data_scope = 5 where id = ${c.scoped.roleId}`)
    t.app.ctx.changes.dropAll()
    const list = await asScoped('POST', '/api/user/list', { body: { pageSize: 100 } })
    expect(ids(list.body.data.list)).toEqual([c.scoped.id])
    expect((await asScoped('GET', '/api/user/detail', { query: { userId: c.straddler } })).status).toBe(403)
    await expectRefused([
      'PUT',
      '/api/user/update',
      { body: { id: c.straddler, nickName: 'straddler', status: 1 } },
    ])
    await expectAllowed([
      'PUT',
      '/api/user/update',
      { body: { id: c.scoped.id, nickName: 'dept_admin', status: 1 } },
    ])
    // no department is in a 仅本人 scope: no department changes
    await expectRefused(
      ['POST', '/api/org/insert', { body: { organizationName: '本人部门', parent: c.orgA } }],
      MSG.orgOutOfScope,
    )
  })
})
