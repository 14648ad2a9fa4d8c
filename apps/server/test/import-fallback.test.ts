import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { eq, like } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { positionUsers, roles, users } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { csvOf, importForm, runImport, sheetRows, type JobState } from './helpers/workbooks'

/**
 * The user import's set-wise path hands rows to the row-by-row path (the single calls' own service
 * functions, each row in its savepoint) in two cases: a batch that names the caller (upsert: a change to
 * oneself may change one's power), and a set-wise insert the database refuses (a name a concurrent
 * writer took). Each row's result and reason must then be what the single calls answer.
 */

const HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
const FRONT = '总公司/研发中心/前端组/员工'
const SALES = '总公司/销售部/员工'
const csvFile = (rows: string[][]) => Buffer.from('\ufeff' + csvOf([HEADER, ...rows]))

let t: TestApp
let c: ScopedCompany
beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
})
afterAll(async () => t.close())

const reasonOf = (result: Map<number, string[]>, row: number) => result.get(row)?.slice(8)

describe('a batch that names the caller goes row by row', () => {
  it('each row’s result and reason are the single calls’ answers', async () => {
    const [superRole] = await t.db.select().from(roles).where(eq(roles.type, 1))
    const scoped = { token: c.scoped.token }
    // what the single calls answer the scoped administrator, on users the import does not touch
    const sales = await t.call('POST', '/api/user/insert', {
      ...scoped,
      body: { nickName: 'single_sales', positionIds: [c.posB] },
    })
    const unplaced = await t.call('POST', '/api/user/insert', {
      ...scoped,
      body: { nickName: 'single_none' },
    })
    const single = await t.call<number>('POST', '/api/user/insert', {
      ...scoped,
      body: { nickName: 'single_super', positionIds: [c.posA1] },
    })
    expect(single.status, single.body.msg).toBe(200)
    const superLink = await t.call('PUT', '/api/rel/user-rel-role', {
      ...scoped,
      body: { id: single.body.data, roleIds: String(superRole.id) },
    })
    const outsideUpdate = await t.call('PUT', '/api/user/update', {
      ...scoped,
      body: { id: c.outside, nickName: 'outside_user', status: 1, realName: '外部' },
    })
    const longName = await t.call('POST', '/api/user/insert', {
      ...scoped,
      body: { nickName: 'n'.repeat(65), positionIds: [c.posA1] },
    })
    for (const refused of [sales, unplaced, superLink, outsideUpdate, longName])
      expect(refused.status, refused.body.msg).toBeGreaterThanOrEqual(400)

    const file = csvFile([
      // the caller's own row, as an export writes it: the batch goes row by row
      ['dept_admin', '', '', '正常', '总公司/研发中心/员工', 'r_dept_admin', '', ''],
      ['fb_ok', '', '', '', FRONT, '', '全公司群', ''],
      ['fb_sales', '', '', '', SALES, '', '', ''],
      ['fb_none', '', '', '', '', '', '', ''],
      ['fb_super', '', '', '', FRONT, superRole.roleName, '', ''],
      ['outside_user', '外部', '', '正常', SALES, '', '全公司群', ''],
      ['inside_user', '内部', '', '正常', FRONT, '', '全公司群', ''],
      ['n'.repeat(65), '', '', '', FRONT, '', '', ''],
    ])
    const dry = await runImport(t, file, {
      token: c.scoped.token,
      mode: 'upsert',
      dryRun: true,
      fileName: 'users.csv',
      // the super-admin row is judged by the power check, as the single call is
      allowSuperAdmin: true,
    })
    const real = await runImport(t, file, {
      token: c.scoped.token,
      mode: 'upsert',
      fileName: 'users.csv',
      allowSuperAdmin: true,
    })
    expect([...real.result.entries()]).toEqual([...dry.result.entries()])
    expect(real.job).toMatchObject({ status: 'done', inserted: 1, updated: 1, unchanged: 1, failed: 5 })
    expect(reasonOf(real.result, 2)).toEqual([MSG.importRowUnchanged])
    expect(reasonOf(real.result, 3)).toEqual([MSG.importRowInserted])
    expect(reasonOf(real.result, 4)).toEqual([MSG.importRowFailed, sales.body.msg])
    expect(reasonOf(real.result, 5)).toEqual([MSG.importRowFailed, unplaced.body.msg])
    expect(reasonOf(real.result, 6)).toEqual([MSG.importRowFailed, superLink.body.msg])
    expect(reasonOf(real.result, 7)).toEqual([MSG.importRowFailed, outsideUpdate.body.msg])
    expect(reasonOf(real.result, 8)).toEqual([MSG.importRowUpdated])
    expect(reasonOf(real.result, 9)).toEqual([MSG.importRowFailed, longName.body.msg])

    // what went in is what the single calls would have written; the refused rows left nothing
    const made = await t.db.select().from(users).where(like(users.nickName, 'fb_%'))
    expect(made.map((u) => u.nickName)).toEqual(['fb_ok'])
    const held = await t.db.select().from(positionUsers).where(eq(positionUsers.userId, made[0].id))
    expect(held.map((h) => h.positionId)).toEqual([c.posA1])
    const [inside] = await t.db.select().from(users).where(eq(users.id, c.inside))
    expect(inside.realName).toBe('内部')
    const [outside] = await t.db.select().from(users).where(eq(users.id, c.outside))
    expect(outside.realName).toBeNull()
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)('a set-wise insert the database refuses', () => {
  it('sends the batch’s new rows down the row-by-row path: the taken name fails alone, as the single call', async () => {
    // a concurrent writer holds the name, not yet committed: the job's check does not see it, and its
    // set-wise insert waits on the unique index until the writer commits, then fails
    const file = csvFile([
      ['race_a', '甲', '', '', '', '', '', ''],
      ['race_taken', '', '', '', '', '', '', ''],
      ['race_b', '', '', '冻结', '', '', '', ''],
    ])
    const writer = new pg.Client({ connectionString: t.databaseUrl })
    await writer.connect()
    try {
      await writer.query('begin')
      await writer.query(`insert into users (nick_name, password_hash) values ('race_taken', 'x')`)
      // the job starts and runs on: its set-wise insert waits on the writer's row
      const { body, headers } = await importForm(file, 'users.csv', { mode: 'insert', dryRun: 'false' })
      const started = await t.call('POST', '/api/user/import', { token: t.adminToken, body, headers })
      expect(started.status, started.body.msg).toBe(200)
      const jobId = started.body.data.jobId as string
      for (let i = 0; ; i++) {
        const { rows } = await writer.query(
          `select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where not l.granted and a.datname = current_database() and pg_backend_pid() = any(pg_blocking_pids(l.pid))`,
        )
        if (rows.length) break
        expect(i, 'the set-wise insert never waited on the writer').toBeLessThan(400)
        await new Promise((r) => setTimeout(r, 25))
      }
      await writer.query('commit')
      let job: JobState
      for (;;) {
        job = (await t.call<JobState>('GET', '/api/import/job', { token: t.adminToken, query: { jobId } }))
          .body.data
        if (job.status !== 'running') break
        await new Promise((r) => setTimeout(r, 50))
      }
      const download = await t.app.inject({
        method: 'GET',
        url: `/api/import/result?jobId=${jobId}`,
        headers: { 'x-auth-token': t.adminToken },
      })
      const result = await sheetRows(download.rawPayload)
      expect(job).toMatchObject({ status: 'done', inserted: 2, failed: 1 })
      const taken = await t.call('POST', '/api/user/insert', {
        token: t.adminToken,
        body: { nickName: 'race_taken' },
      })
      expect(taken.status).toBe(409)
      expect(reasonOf(result, 2)).toEqual([MSG.importRowInserted])
      expect(reasonOf(result, 3)).toEqual([MSG.importRowFailed, taken.body.msg])
      expect(reasonOf(result, 4)).toEqual([MSG.importRowInserted])
      const made = await t.db.select().from(users).where(like(users.nickName, 'race_%'))
      expect(made.map((u) => u.nickName).sort()).toEqual(['race_a', 'race_b', 'race_taken'])
      const [writersUser] = made.filter((u) => u.nickName === 'race_taken')
      expect(writersUser.passwordHash).toBe('x')
    } finally {
      await writer.query('rollback').catch(() => {})
      await writer.end()
    }
  })
})
