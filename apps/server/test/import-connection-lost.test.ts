import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { queryRows } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'
import { csvOf, importForm, sheetRows, type JobState } from './helpers/workbooks'
import { eventually, failOnUncaughtErrors, PgFaults } from './helpers/pg-faults'

/**
 * An import whose database connection is lost mid-job (DESIGN.md §11, §15): PostgreSQL terminates
 * the batch's backend while a row stalls in a trigger. The batch rolls back and is tried once more;
 * lost again, the job ends with 503's message, its counts equal the rows in the database, the rows
 * never written say 未处理 (数据库连接中断), one log line tells it, and the same file imported again
 * with upsert completes it.
 */
failOnUncaughtErrors()

const USER_HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
const csvFile = (rows: string[][]) => Buffer.from('\ufeff' + csvOf(rows))

describe.skipIf(!inject('pgTemplate'))('an import that loses its database connection (PostgreSQL)', () => {
  const faults = new PgFaults()
  const logLines: string[] = []
  let t: TestApp

  beforeAll(async () => {
    await faults.open()
    t = await createTestApp({}, { logStream: { write: (line) => logLines.push(line) } })
    // a row whose name begins `stall` sleeps in its insert while the switch is on
    await t.db.execute(sql`create table test_stall (stall boolean not null)`)
    await t.db.execute(sql`insert into test_stall values (false)`)
    await t.db.execute(sql`
      create function test_stall_row() returns trigger language plpgsql as $$
      begin
        if (to_jsonb(new) ->> tg_argv[0]) like 'stall%' and (select stall from test_stall) then
          perform pg_sleep(60);
        end if;
        return new;
      end $$`)
    for (const [table, column] of [
      ['users', 'nick_name'],
      ['organizations', 'organization_name'],
    ])
      await t.db.execute(
        sql.raw(`create trigger test_stall before insert on ${table}
          for each row execute function test_stall_row('${column}')`),
      )
  })
  afterAll(async () => {
    await t?.close()
    await faults.close()
  })

  const stall = (on: boolean) => t.db.execute(sql`update test_stall set stall = ${on}`)

  /** The stalled insert's backend, terminated once it sleeps. */
  async function cutOffStalledBatch() {
    await eventually(
      async () => (await faults.backends(t.databaseUrl!)).some((b) => b.wait_event === 'PgSleep'),
      'a batch stalled in its insert',
      30_000,
    )
    expect(await faults.terminate(t.databaseUrl!, { sleepersOnly: true })).toBe(1)
    // gone before the next cut looks for a sleeper: a busy machine's dying backend can linger a moment
    await eventually(
      async () => !(await faults.backends(t.databaseUrl!)).some((b) => b.wait_event === 'PgSleep'),
      'the stalled backend gone',
      30_000,
    )
  }

  async function startImport(file: Buffer, path: string, mode: string): Promise<string> {
    const { body, headers } = await importForm(file, 'rows.csv', { mode, dryRun: 'false' })
    const started = await t.call('POST', path, { token: t.adminToken, body, headers })
    expect(started.status, started.body.msg).toBe(200)
    return started.body.data.jobId
  }

  async function finished(jobId: string) {
    let job: JobState & { msg: string | null } = { status: 'running' } as never
    await eventually(
      async () => {
        job = (await t.call('GET', '/api/import/job', { token: t.adminToken, query: { jobId } })).body.data
        return job.status !== 'running'
      },
      'the job finished',
      120_000,
    )
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/import/result?jobId=${jobId}`,
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(res.statusCode).toBe(200)
    return { job, result: await sheetRows(res.rawPayload) }
  }

  /** The error lines logged since `from`. */
  const errorLines = (from: number) =>
    logLines.slice(from).filter((line) => (JSON.parse(line) as { level: number }).level >= 50)

  const countLike = async (table: 'users' | 'organizations', column: string, prefix: string) =>
    Number(
      (
        await queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from ${sql.raw(table)} where ${sql.raw(column)} like ${prefix + '%'}`,
        )
      )[0].n,
    )

  /** 2,500 users (three batches), one of the second batch stalling. */
  function userFile() {
    const tag = randomBytes(3).toString('hex')
    const names = Array.from({ length: 2500 }, (_, i) => (i === 1500 ? `stall_${tag}` : `cut_${tag}_${i}`))
    const file = csvFile([USER_HEADER, ...names.map((name) => [name, '', '', '', '', '', '', ''])])
    const inDatabase = async () =>
      (await countLike('users', 'nick_name', `cut_${tag}_`)) +
      (await countLike('users', 'nick_name', `stall_${tag}`))
    return { file, inDatabase }
  }

  it('lost once: the batch is tried again after a short wait and the job completes, counts right, no error rows', async () => {
    const { file, inDatabase } = userFile()
    const logFrom = logLines.length
    await stall(true)
    const jobId = await startImport(file, '/api/user/import', 'insert')
    await cutOffStalledBatch()
    await stall(false) // the database is back before the batch is tried again
    const { job, result } = await finished(jobId)
    expect(job).toMatchObject({
      status: 'done',
      total: 2500,
      done: 2500,
      inserted: 2500,
      failed: 0,
      msg: null,
    })
    expect(await inDatabase()).toBe(2500)
    const outcomes = new Set([...result.entries()].filter(([n]) => n > 1).map(([, cells]) => cells[8]))
    expect([...outcomes]).toEqual([MSG.importRowInserted])
    expect(errorLines(logFrom)).toEqual([])
  }, 180_000)

  it('lost for good: the job says so with 503’s message, counts equal the rows in the database, the rest is 未处理; upsert completes it', async () => {
    const { file, inDatabase } = userFile()
    const logFrom = logLines.length
    await stall(true)
    const jobId = await startImport(file, '/api/user/import', 'insert')
    await cutOffStalledBatch()
    await cutOffStalledBatch() // the second try is lost too
    const { job, result } = await finished(jobId)
    await stall(false)

    // the first batch committed; the second was lost, the third never began
    expect(job).toMatchObject({
      status: 'failed',
      msg: MSG.importInterrupted,
      total: 2500,
      done: 1000,
      inserted: 1000,
      updated: 0,
      unchanged: 0,
      failed: 0,
    })
    expect(MSG.importInterrupted.startsWith(MSG.serviceUnavailable)).toBe(true)
    expect(await inDatabase()).toBe(1000)
    // spreadsheet row n holds file row n - 2
    for (let n = 2; n <= 1001; n++) expect(result.get(n)?.[8]).toBe(MSG.importRowInserted)
    for (let n = 1002; n <= 2501; n++)
      expect(result.get(n)?.slice(8)).toEqual([MSG.importRowNotProcessed, MSG.importConnectionLost])
    const errors = errorLines(logFrom)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('import failed unexpectedly')

    // the same file again, with upsert: the rest goes in, what went in stays
    const again = await finished(await startImport(file, '/api/user/import', 'upsert'))
    expect(again.job).toMatchObject({ status: 'done', done: 2500, inserted: 1500, failed: 0, msg: null })
    expect(again.job.updated + again.job.unchanged).toBe(1000)
    expect(await inDatabase()).toBe(2500)
  }, 180_000)

  it('a department import lost for good ends alike, and upsert completes it', async () => {
    const tag = randomBytes(3).toString('hex')
    const names = Array.from({ length: 20 }, (_, i) => (i === 10 ? `stall_${tag}` : `cutorg_${tag}_${i}`))
    const file = csvFile([['部门全称*', '职位'], ...names.map((name) => [`总公司/${name}`, ''])])
    const inDatabase = async () =>
      (await countLike('organizations', 'organization_name', `cutorg_${tag}_`)) +
      (await countLike('organizations', 'organization_name', `stall_${tag}`))
    const logFrom = logLines.length
    await stall(true)
    const jobId = await startImport(file, '/api/org/import', 'insert')
    await cutOffStalledBatch()
    await cutOffStalledBatch()
    const { job, result } = await finished(jobId)
    await stall(false)

    expect(job).toMatchObject({
      status: 'failed',
      msg: MSG.importInterrupted,
      done: 0,
      inserted: 0,
      failed: 0,
    })
    expect(await inDatabase()).toBe(0)
    for (let n = 2; n <= 21; n++)
      expect(result.get(n)?.slice(2)).toEqual([MSG.importRowNotProcessed, MSG.importConnectionLost])
    expect(errorLines(logFrom)).toHaveLength(1)

    const again = await finished(await startImport(file, '/api/org/import', 'upsert'))
    expect(again.job).toMatchObject({ status: 'done', done: 20, inserted: 20, failed: 0 })
    expect(await inDatabase()).toBe(20)
  }, 180_000)
})
