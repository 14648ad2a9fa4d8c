import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq, sql } from 'drizzle-orm'
import { Attribute, Change } from 'ldapts'
import { BEYOND_POWER_PREFIX, DIRECTORY_MSG, type ImportJob, type LdapSettingsBody } from '@amg/contract'
import {
  ldapSettings,
  organizations,
  positions,
  roleAuths,
  roles,
  userGroupRoles,
  sessions,
  stations,
  userGroups,
  users,
} from '../src/db/schema'
import { operationLogs } from '../src/db/audit-schema'
import { createTestApp, type TestApp } from './helpers/app'
import { freePort } from './helpers/processes'
import { ldifOf, personDn, runSync, startSlapd, SUFFIX, type Person, type Slapd } from './helpers/slapd'

/**
 * Directory sync by LDAP (DESIGN.md §22) against a real OpenLDAP: the settings and their test, the
 * sync's dry run and diff, departments and positions from OU paths, groups, an unchanged re-run,
 * freezing on removal, bind sign-in, and the directory's fields read-only here.
 */

const READER_DN = `cn=reader,${SUFFIX}`
const READER_PASSWORD = 'reader-secret'
const readerLdif = `dn: ${READER_DN}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: reader\nuserPassword: ${READER_PASSWORD}\n`

const people: Person[] = [
  {
    uid: 'zhang.san',
    cn: '张三',
    mobile: '13800000001',
    password: 'Zhang-Dir-Pass1',
    ous: ['总部', '研发部'],
  },
  { uid: 'li.si', cn: '李四', mobile: '13800000002', password: 'Li-Dir-Pass1', ous: ['总部', '研发部'] },
  { uid: 'wang.wu', cn: '王五', password: 'Wang-Dir-Pass1', ous: ['总部', '销售部'] },
  { uid: 'zhao.liu', cn: '赵六', password: 'Zhao-Dir-Pass1', ous: ['总部', '销售部'] },
  { uid: null, cn: '无名氏', ous: ['总部'] },
]
const groups = [
  { cn: '研发组', members: [personDn(people[0]), personDn(people[1])] },
  { cn: '销售组', members: [personDn(people[2])] },
]

let t: TestApp
let ldap: Slapd

const settings = (over: Partial<LdapSettingsBody> = {}): LdapSettingsBody => ({
  enabled: true,
  url: ldap.url,
  bindDn: READER_DN,
  bindPassword: READER_PASSWORD,
  baseDn: SUFFIX,
  userFilter: '(objectClass=inetOrgPerson)',
  groupFilter: '(objectClass=groupOfNames)',
  attributes: { nickName: 'uid', realName: 'cn', mobile: 'mobile' },
  departmentFrom: 'ou',
  defaultStationName: '员工',
  startTls: false,
  syncMinutes: 0,
  ...over,
})

beforeAll(async () => {
  ldap = await startSlapd(ldifOf(people, groups) + '\n' + readerLdif)
  t = await createTestApp()
}, 60_000)
afterAll(async () => {
  await t?.close()
  await ldap?.stop()
})

const ldapUsers = () => t.db.select().from(users).where(eq(users.source, 'ldap'))
const logCount = async () => (await t.db.select({ id: operationLogs.id }).from(operationLogs)).length
const userNamed = async (name: string) => (await t.db.select().from(users).where(eq(users.nickName, name)))[0]

describe('LDAP settings and 测试连接', () => {
  it('tests a connection with the directory counts; refusals are 400 in Chinese and change nothing', async () => {
    const okRes = await t.call('POST', '/api/settings/ldap/test', { token: t.adminToken, body: settings() })
    expect(okRes.status, okRes.body.msg).toBe(200)
    expect(okRes.body.data).toEqual({ ok: true, users: 5, groups: 2 })

    const refused = await t.call('POST', '/api/settings/ldap/test', {
      token: t.adminToken,
      body: settings({ bindPassword: 'wrong' }),
    })
    expect(refused.status).toBe(400)
    expect(refused.body.msg).toBe(DIRECTORY_MSG.bindRefused)

    const closed = await freePort()
    const unreachable = await t.call('POST', '/api/settings/ldap/test', {
      token: t.adminToken,
      body: settings({ url: `ldap://127.0.0.1:${closed}` }),
    })
    expect(unreachable.status).toBe(400)
    expect(unreachable.body.msg).toBe(DIRECTORY_MSG.unreachable('连接被拒绝'))

    const badBase = await t.call('POST', '/api/settings/ldap/test', {
      token: t.adminToken,
      body: settings({ baseDn: 'ou=nowhere,dc=example,dc=com' }),
    })
    expect(badBase.status).toBe(400)
    expect(badBase.body.msg).toBe(DIRECTORY_MSG.baseNotFound)

    const badFilter = await t.call('POST', '/api/settings/ldap/test', {
      token: t.adminToken,
      body: settings({ userFilter: 'objectClass=person' }),
    })
    expect(badFilter.status).toBe(400)
    expect(badFilter.body.msg).toBe(DIRECTORY_MSG.filterInvalid('用户过滤条件'))

    expect(await t.db.select().from(ldapSettings)).toEqual([])
    expect(await ldapUsers()).toEqual([])
  })

  it('saves the settings with the password sealed; GET never answers it; an empty one keeps it', async () => {
    const put = await t.call('PUT', '/api/settings/ldap', { token: t.adminToken, body: settings() })
    expect(put.status, put.body.msg).toBe(200)
    const [row] = await t.db.select().from(ldapSettings)
    expect(row.bindPassword).not.toContain(READER_PASSWORD)
    const got = await t.call('GET', '/api/settings/ldap', { token: t.adminToken })
    expect(got.body.data).not.toHaveProperty('bindPassword')
    expect(got.body.data.bindPasswordSet).toBe(true)
    expect(got.raw).not.toContain(READER_PASSWORD)
    // the saved password is used when none is given, for the test and for a save
    const tested = await t.call('POST', '/api/settings/ldap/test', {
      token: t.adminToken,
      body: settings({ bindPassword: '' }),
    })
    expect(tested.status, tested.body.msg).toBe(200)
    await t.call('PUT', '/api/settings/ldap', { token: t.adminToken, body: settings({ bindPassword: '' }) })
    const [kept] = await t.db.select().from(ldapSettings)
    expect(kept.bindPassword).toBe(row.bindPassword)
  })

  it('refuses the settings calls to a user without the directory permissions', async () => {
    const weak = await t.userWithCodes(['settings'])
    const res = await t.call('PUT', '/api/settings/ldap', { token: weak.token, body: settings() })
    expect(res.status).toBe(403)
    const sync = await t.call('POST', '/api/directory/sync', { token: weak.token, body: { dryRun: true } })
    expect(sync.status).toBe(403)
  })
})

describe('POST /api/directory/sync', () => {
  it('a dry run plans and writes nothing', async () => {
    const logs = await logCount()
    const orgs = (await t.db.select().from(organizations)).length
    const job = await runSync(t, true)
    expect(job.status).toBe('done')
    expect(job.diff!.counts).toMatchObject({ created: 4 + 3 + 2, failed: 1, frozen: 0 })
    expect(await ldapUsers()).toEqual([])
    expect((await t.db.select().from(organizations)).length).toBe(orgs)
    // the call's own row only
    expect(await logCount()).toBe(logs + 1)
  })

  it('creates users, departments, positions and groups; the entry without a name fails alone', async () => {
    const job = await runSync(t, false)
    expect(job.status, job.msg ?? '').toBe('done')
    const diff = job.diff!
    expect(diff.counts).toMatchObject({ created: 9, updated: 0, moved: 0, frozen: 0, failed: 1 })
    expect(diff.failed[0]).toMatchObject({
      name: personDn(people[4]),
      detail: DIRECTORY_MSG.entryNoName('uid'),
    })
    const made = await ldapUsers()
    expect(made.map((u) => u.nickName).sort()).toEqual(['li.si', 'wang.wu', 'zhang.san', 'zhao.liu'])
    const zhang = made.find((u) => u.nickName === 'zhang.san')!
    expect(zhang).toMatchObject({ realName: '张三', mobile: '13800000001', status: 1 })
    expect(zhang.externalId).toMatch(/^[0-9a-f-]{36}$/)
    // 总部/研发部 under the root department, and the 员工 position there held by 张三
    const [rd] = await t.db.select().from(organizations).where(eq(organizations.organizationName, '研发部'))
    const [hq] = await t.db.select().from(organizations).where(eq(organizations.id, rd.parent!))
    expect(hq.organizationName).toBe('总部')
    const [station] = await t.db.select().from(stations).where(eq(stations.stationName, '员工'))
    const held = await t.db.execute(
      sql`select pu.user_id from position_users pu join positions p on p.id = pu.position_id
        where p.org_id = ${rd.id} and p.station_id = ${station.id}`,
    )
    const heldIds = (
      (held as { rows?: { user_id: number }[] }).rows ?? (held as unknown as { user_id: number }[])
    ).map((r) => Number(r.user_id))
    expect(heldIds.sort()).toEqual(
      made
        .filter((u) => ['zhang.san', 'li.si'].includes(u.nickName))
        .map((u) => u.id)
        .sort(),
    )
    const [dev] = await t.db.select().from(userGroups).where(eq(userGroups.groupName, '研发组'))
    expect(dev.source).toBe('ldap')
    const members = await t.call('GET', '/api/user/list', { token: t.adminToken })
    void members
    // the user list answers the source
    const list = await t.call('POST', '/api/user/list', {
      token: t.adminToken,
      body: { nickName: 'zhang.san', pageNum: 1, pageSize: 10 },
    })
    expect(list.body.data.list[0].source).toBe('ldap')
    void positions
  })

  it('an unchanged re-run writes nothing', async () => {
    const before = await t.db.select({ id: users.id, updateTime: users.updateTime }).from(users)
    const groupsBefore = await t.db
      .select({ id: userGroups.id, updateTime: userGroups.updateTime })
      .from(userGroups)
    const logs = await logCount()
    const job = await runSync(t, false)
    expect(job.diff!.counts).toEqual({ created: 0, updated: 0, moved: 0, frozen: 0, failed: 1, unchanged: 6 })
    expect(await t.db.select({ id: users.id, updateTime: users.updateTime }).from(users)).toEqual(before)
    expect(
      await t.db.select({ id: userGroups.id, updateTime: userGroups.updateTime }).from(userGroups),
    ).toEqual(groupsBefore)
    expect(await logCount()).toBe(logs + 1)
  })

  it('signs a directory user in by binding with the directory password, and refuses a wrong one', async () => {
    const token = await t.login('zhang.san', 'Zhang-Dir-Pass1')
    expect(token).toBeTruthy()
    const wrong = await t.call('POST', '/api/login', {
      body: { nickName: 'zhang.san', password: 'nope-Nope-1' },
    })
    expect(wrong.status).toBe(401)
    const empty = await t.call('POST', '/api/login', { body: { nickName: 'li.si', password: '' } })
    expect(empty.status).toBe(400)
  })

  it("keeps the directory fields read-only; status stays this system's", async () => {
    const zhang = await userNamed('zhang.san')
    const res = await t.call('PUT', '/api/user/update', {
      token: t.adminToken,
      body: { id: zhang.id, nickName: 'zhang.san', status: 1, realName: '张叁' },
    })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(DIRECTORY_MSG.directoryField)
    const pw = await t.call('PUT', '/api/user/update', {
      token: t.adminToken,
      body: { id: zhang.id, nickName: 'zhang.san', status: 1, password: 'Another-Passw0rd!' },
    })
    expect(pw.status).toBe(400)
    expect((await userNamed('zhang.san')).realName).toBe('张三')
  })

  it('a modified entry updates, a moved one moves, a removed one freezes its user and ends their sessions', async () => {
    const session = await t.login('wang.wu', 'Wang-Dir-Pass1')
    expect(session).toBeTruthy()
    const admin = await ldap.admin()
    try {
      await admin.modify(personDn(people[1]), [
        new Change({
          operation: 'replace',
          modification: new Attribute({ type: 'mobile', values: ['13900000009'] }),
        }),
      ])
      await admin.modifyDN(personDn(people[3]), `cn=${people[3].cn},ou=研发部,ou=总部,${SUFFIX}`)
      await admin.del(`cn=${groups[1].cn},ou=groups,${SUFFIX}`)
      await admin.del(personDn(people[2]))
    } finally {
      await admin.unbind()
    }
    const wang = await userNamed('wang.wu')
    expect((await t.db.select().from(sessions).where(eq(sessions.userId, wang.id))).length).toBeGreaterThan(0)
    const job = await runSync(t, false)
    expect(job.diff!.counts).toMatchObject({ updated: 1, moved: 1, frozen: 1, created: 0 })
    expect(job.diff!.frozen[0]).toMatchObject({ name: 'wang.wu' })
    expect((await userNamed('li.si')).mobile).toBe('13900000009')
    const after = await userNamed('wang.wu')
    expect(after.status).toBe(2)
    expect((await t.db.select().from(sessions).where(eq(sessions.userId, wang.id))).length).toBe(0)
    const zhao = await userNamed('zhao.liu')
    const heldNow = await t.db.execute(
      sql`select o.organization_name from position_users pu join positions p on p.id = pu.position_id
        join organizations o on o.id = p.org_id where pu.user_id = ${zhao.id}`,
    )
    const names = ((heldNow as { rows?: { organization_name: string }[] }).rows ?? []).map(
      (r) => r.organization_name,
    )
    expect(names).toEqual(['研发部'])
    // a frozen directory user is refused at sign-in even with the right password (the entry is gone: wrong)
    const frozen = await t.call('POST', '/api/login', {
      body: { nickName: 'wang.wu', password: 'Wang-Dir-Pass1' },
    })
    expect(frozen.status).toBe(401)
    void and
  })
})

describe('the power of whoever runs the sync (DESIGN.md §6a)', () => {
  it('a syncer without the power a group carries cannot change its members; an administrator can', async () => {
    // 研发组 now carries a role with user management, which the weak syncer does not hold
    const [dev] = await t.db.select().from(userGroups).where(eq(userGroups.groupName, '研发组'))
    const [role] = await t.db
      .insert(roles)
      .values({ roleName: '目录组角色', type: 3, status: 1 })
      .returning({ id: roles.id })
    await t.db.insert(roleAuths).values({ roleId: role.id, authCode: 'user:delete' })
    await t.db.insert(userGroupRoles).values({ groupId: dev.id, roleId: role.id })
    await t.app.ctx.authz.invalidate()
    const admin = await ldap.admin()
    try {
      await admin.modify(`cn=${groups[0].cn},ou=groups,${SUFFIX}`, [
        new Change({
          operation: 'delete',
          modification: new Attribute({ type: 'member', values: [personDn(people[1])] }),
        }),
      ])
    } finally {
      await admin.unbind()
    }
    const weak = await t.userWithCodes(['system', 'directory', 'directory:sync'])
    const started = await t.call('POST', '/api/directory/sync', {
      token: weak.token,
      body: { dryRun: false },
    })
    expect(started.status, started.body.msg).toBe(200)
    let job: ImportJob
    for (;;) {
      job = (
        await t.call<ImportJob>('GET', '/api/import/job', {
          token: weak.token,
          query: { jobId: started.body.data.jobId },
        })
      ).body.data
      if (job.status !== 'running') break
      await new Promise((r) => setTimeout(r, 50))
    }
    const refused = job.diff!.failed.find((f) => f.name === '研发组')
    expect(refused?.detail).toContain(BEYOND_POWER_PREFIX)
    const members = async () =>
      (await t.db.execute(
        sql`select count(*)::int as n from user_group_users where group_id = ${dev.id}`,
      )) as unknown as { rows: { n: number }[] }
    expect((await members()).rows[0].n).toBe(2)
    const done = await runSync(t, false)
    expect(done.diff!.updated.map((u) => u.name)).toContain('研发组')
    expect((await members()).rows[0].n).toBe(1)
  })
})
