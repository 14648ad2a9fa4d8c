import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { eq } from 'drizzle-orm'
import type { DirectoryRun, LdapSettingsBody } from '@amg/contract'
import { userRoles, users } from '../src/db/schema'
import { operationLogs } from '../src/db/audit-schema'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'
import { startSecondInstance, type SecondInstance } from './helpers/second-instance'
import { ldifOf, ROOT_DN, ROOT_PASSWORD, startSlapd, SUFFIX, type Person, type Slapd } from './helpers/slapd'

/**
 * The directory sync's schedule (DESIGN.md §22): with 同步间隔 (syncMinutes) above 0 a sync starts by
 * itself, in the name of the administrator who last saved the settings; at 0 none does; and two
 * instances on one database run it once. Each instance looks every DIRECTORY_SYNC_CHECK_SECONDS,
 * shortened here so the schedule is seen within seconds.
 */

const CHECK_SECONDS = 0.1
const people: Person[] = [
  { uid: 'sched.a', cn: '计划甲', ous: ['总部', '研发部'] },
  { uid: 'sched.b', cn: '计划乙', ous: ['总部', '销售部'] },
  { uid: 'sched.c', cn: '计划丙', ous: ['总部'] },
]
const uids = people.map((p) => p.uid).sort()

let ldap: Slapd
beforeAll(async () => {
  ldap = await startSlapd(ldifOf(people, []))
}, 60_000)
afterAll(async () => {
  await ldap?.stop()
})

const settings = (over: Partial<LdapSettingsBody> = {}): LdapSettingsBody => ({
  enabled: true,
  url: ldap.url,
  bindDn: ROOT_DN,
  bindPassword: ROOT_PASSWORD,
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

const save = async (t: TestApp, token: string, body: LdapSettingsBody) => {
  const res = await t.call('PUT', '/api/settings/ldap', { token, body })
  expect(res.status, res.body.msg).toBe(200)
}
const runsOf = async (t: TestApp) => {
  const res = await t.call<DirectoryRun[]>('GET', '/api/directory/runs', { token: t.adminToken })
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data
}
const ldapUids = async (t: TestApp) =>
  (await t.db.select({ nickName: users.nickName }).from(users).where(eq(users.source, 'ldap')))
    .map((u) => u.nickName)
    .sort()

const createdUsers = (run: DirectoryRun) =>
  (run.diff?.created ?? [])
    .filter((i) => i.kind === 'user')
    .map((i) => i.name)
    .sort()

/** Polls until `check` returns a value (not undefined); generous, for a loaded machine. */
async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const found = await check()
    if (found !== undefined) return found
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * Lets the schedule look many times (at least `looks` check periods of wall time): what did not run
 * by then is what the schedule chose not to run. Only a negative claim rests on it; a slow machine can
 * make it weaker, never make it fail wrongly.
 */
const letScheduleLook = (looks = 20) => new Promise((r) => setTimeout(r, looks * CHECK_SECONDS * 1000))

describe('one instance', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ directorySyncCheckSeconds: CHECK_SECONDS })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it('at 0, or disabled, nothing runs; above 0 a sync runs by itself as the administrator who last saved', async () => {
    await save(t, t.adminToken, settings({ syncMinutes: 0 }))
    await letScheduleLook()
    expect(await runsOf(t)).toEqual([])
    expect(await ldapUids(t)).toEqual([])

    // switched off, an interval does not start it either
    await save(t, t.adminToken, settings({ enabled: false, syncMinutes: 1 }))
    await letScheduleLook()
    expect(await runsOf(t)).toEqual([])

    // another administrator (the same super-admin role) saves it last: the run is theirs
    const adminId = (await userIdByName(t.db, 'admin'))!
    const adminRoles = await t.db.select().from(userRoles).where(eq(userRoles.userId, adminId))
    const ops = await t.userWithCodes([], 'ops.admin')
    await t.db.insert(userRoles).values(adminRoles.map((r) => ({ userId: ops.id, roleId: r.roleId })))
    await t.app.ctx.authz.invalidate()
    await save(t, ops.token, settings({ syncMinutes: 1 }))

    const run = await until(async () => {
      const [r] = await runsOf(t)
      return r && r.status !== 'running' ? r : undefined
    })
    expect(run).toMatchObject({
      trigger: 'schedule',
      dryRun: false,
      status: 'done',
      msg: null,
      operatorName: 'ops.admin',
    })
    expect(createdUsers(run)).toEqual(uids)
    expect(run.diff?.counts.failed).toBe(0)
    expect(await ldapUids(t)).toEqual(uids)

    // its log rows are in that administrator's name
    const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.summary, '目录同步'))
    expect(logs.length).toBeGreaterThan(0)
    for (const row of logs) expect(row).toMatchObject({ operatorId: ops.id, operatorName: 'ops.admin' })

    // within the interval it is not due again
    await letScheduleLook()
    expect(await runsOf(t)).toHaveLength(1)
  }, 120_000)
})

describe.skipIf(!inject('pgTemplate'))('two instances on one database', () => {
  let t: TestApp
  let second: SecondInstance | Omit<SecondInstance, 'listenerPid'>
  beforeAll(async () => {
    t = await createTestApp({ directorySyncCheckSeconds: CHECK_SECONDS })
    second = await startSecondInstance(t)
  }, 60_000)
  afterAll(async () => {
    await second?.close()
    await t?.close()
  })

  it('both look, one sync runs: the job store lets one instance start it', async () => {
    await save(t, t.adminToken, settings({ syncMinutes: 1 }))
    const run = await until(async () => {
      const [r] = await runsOf(t)
      return r && r.status !== 'running' ? r : undefined
    })
    expect(run).toMatchObject({ trigger: 'schedule', status: 'done', operatorName: 'admin' })
    expect(createdUsers(run)).toEqual(uids)
    expect(run.diff?.counts.failed).toBe(0)
    // both keep looking: still the one run, the users made once
    await letScheduleLook()
    const runs = await runsOf(t)
    expect(runs.map((r) => r.jobId)).toEqual([run.jobId])
    expect(await ldapUids(t)).toEqual(uids)
  }, 120_000)
})
