import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq, isNull } from 'drizzle-orm'
import { auths, organizations, roles, stations, userGroups, users } from '../src/db/schema'
import { ORG_MSG } from '../src/modules/org'
import { UNIQUE_KEY_EXISTS } from '../src/modules/permission/messages'
import { ROLE_MSG } from '../src/modules/role'
import { STATION_MSG } from '../src/modules/station/service'
import { USER_MSG } from '../src/modules/user'
import { violatedUniqueIndex } from '../src/lib/unique-violation'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'

/**
 * Every "unique" rule is a unique index (DESIGN.md §11). The services check first for a clear
 * message, but concurrent requests can all pass that check; the index lets exactly one through and
 * the rest answer 409 with the resource's own message, never 500. On PostgreSQL the requests really
 * overlap (a pool of connections); on PGlite they are serialised, so there the check alone answers.
 */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

/** Sends `n` identical calls at once; answers the statuses and the messages of the refused ones. */
async function race(n: number, method: string, url: string, opts: CallOptions) {
  const results = await Promise.all(
    Array.from({ length: n }, () => t.call(method, url, { token: t.adminToken, ...opts })),
  )
  const statuses = results.map((r) => r.status)
  return {
    ok: statuses.filter((s) => s === 200).length,
    conflicts: statuses.filter((s) => s === 409).length,
    others: results.filter((r) => r.status !== 200 && r.status !== 409).map((r) => r.body),
    messages: [...new Set(results.filter((r) => r.status === 409).map((r) => r.body.msg))],
  }
}

const expectOneWinner = (outcome: Awaited<ReturnType<typeof race>>, n: number, msg: string) => {
  expect(outcome.others).toEqual([])
  expect(outcome.ok).toBe(1)
  expect(outcome.conflicts).toBe(n - 1)
  expect(outcome.messages).toEqual([msg])
}

const authForm = (uniqueKey: string, chName = '并发权限') => ({
  chName,
  enName: 'raceAuth',
  parentCode: 'auth',
  seq: 1,
  status: 1,
  type: 3,
  uniqueKey,
  frontEndAccessList: '',
  urlPatternInfos: [],
})

describe('concurrent creates of one unique value create exactly one row', () => {
  it('permission uniqueKey: 50 inserts', async () => {
    const outcome = await race(50, 'POST', '/api/auth/insert', { body: authForm('race-key') })
    expectOneWinner(outcome, 50, UNIQUE_KEY_EXISTS)
    expect(await t.db.select().from(auths).where(eq(auths.uniqueKey, 'race-key'))).toHaveLength(1)
  })

  it('permission uniqueKey: 20 updates of different nodes to one key', async () => {
    const codes: string[] = []
    for (let i = 0; i < 20; i++) {
      const res = await t.call('POST', '/api/auth/insert', {
        token: t.adminToken,
        body: authForm(`own-key-${i}`, `并发修改${i}`),
      })
      expect(res.status).toBe(200)
      codes.push(res.body.data)
    }
    const results = await Promise.all(
      codes.map((code, i) =>
        t.call('PUT', '/api/auth/update', {
          token: t.adminToken,
          body: { code, ...authForm('shared-key', `并发修改${i}`) },
        }),
      ),
    )
    expect(results.filter((r) => r.status !== 200 && r.status !== 409)).toEqual([])
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.msg).toBe(UNIQUE_KEY_EXISTS)
    expect(await t.db.select().from(auths).where(eq(auths.uniqueKey, 'shared-key'))).toHaveLength(1)
  })

  it('role name: 20 inserts', async () => {
    const outcome = await race(20, 'POST', '/api/role/insert', { body: { roleName: '并发角色' } })
    expectOneWinner(outcome, 20, ROLE_MSG.nameExists)
    expect(await t.db.select().from(roles).where(eq(roles.roleName, '并发角色'))).toHaveLength(1)
  })

  it('group name: 20 inserts', async () => {
    const outcome = await race(20, 'POST', '/api/user_groups/insert', {
      body: { groupName: '并发用户组', status: 1 },
    })
    expectOneWinner(outcome, 20, '用户组名称已存在')
    expect(await t.db.select().from(userGroups).where(eq(userGroups.groupName, '并发用户组'))).toHaveLength(1)
  })

  it('user nickName: 20 inserts', async () => {
    const outcome = await race(20, 'POST', '/api/user/insert', { body: { nickName: 'race_user' } })
    expectOneWinner(outcome, 20, USER_MSG.nickNameTaken)
    expect(await t.db.select().from(users).where(eq(users.nickName, 'race_user'))).toHaveLength(1)
  })

  it('job title name: 20 inserts', async () => {
    const outcome = await race(20, 'POST', '/api/station/insert', {
      body: { stationName: '并发职位', type: 1 },
    })
    expectOneWinner(outcome, 20, STATION_MSG.nameExists)
    expect(await t.db.select().from(stations).where(eq(stations.stationName, '并发职位'))).toHaveLength(1)
  })

  it('department name among siblings: 20 inserts', async () => {
    const [root] = await t.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(isNull(organizations.parent))
    const outcome = await race(20, 'POST', '/api/org/insert', {
      body: { organizationName: '并发部门', parent: root.id },
    })
    expectOneWinner(outcome, 20, ORG_MSG.siblingExists)
    const rows = await t.db
      .select()
      .from(organizations)
      .where(and(eq(organizations.parent, root.id), eq(organizations.organizationName, '并发部门')))
    expect(rows).toHaveLength(1)
  })
})

describe('the unique indexes themselves', () => {
  /** The index a direct insert runs into: the database refuses the duplicate, whatever the service does. */
  async function refusedBy(insert: () => Promise<unknown>): Promise<string | null> {
    try {
      await insert()
      return null
    } catch (err) {
      return violatedUniqueIndex(err)
    }
  }

  it('refuse a duplicate permission uniqueKey but allow any number without one', async () => {
    const node = (code: string, uniqueKey: string | null) => ({
      code,
      parentCode: 'auth',
      chName: code,
      enName: code,
      type: 3,
      uniqueKey,
    })
    await t.db.insert(auths).values(node('idx_a', 'idx-key'))
    expect(await refusedBy(() => t.db.insert(auths).values(node('idx_b', 'idx-key')))).toBe(
      'auths_unique_key_key',
    )
    await t.db.insert(auths).values([node('idx_c', null), node('idx_d', null)])
  })

  it('refuse duplicate names of users, roles, groups, job titles and sibling departments', async () => {
    expect(await refusedBy(() => t.db.insert(users).values({ nickName: 'admin', passwordHash: 'x' }))).toBe(
      'users_nick_name_key',
    )
    await t.db.insert(roles).values({ roleName: '索引角色' })
    expect(await refusedBy(() => t.db.insert(roles).values({ roleName: '索引角色' }))).toBe(
      'roles_role_name_key',
    )
    await t.db.insert(userGroups).values({ groupName: '索引组' })
    expect(await refusedBy(() => t.db.insert(userGroups).values({ groupName: '索引组' }))).toBe(
      'user_groups_group_name_key',
    )
    await t.db.insert(stations).values({ stationName: '索引职位' })
    expect(await refusedBy(() => t.db.insert(stations).values({ stationName: '索引职位' }))).toBe(
      'stations_station_name_key',
    )
    const [root] = await t.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(isNull(organizations.parent))
    await t.db.insert(organizations).values({ organizationName: '索引部门', parent: root.id })
    expect(
      await refusedBy(() =>
        t.db.insert(organizations).values({ organizationName: '索引部门', parent: root.id }),
      ),
    ).toBe('organizations_parent_name_key')
  })
})
