import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type pg from 'pg'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { buildApp } from '../src/app'
import { openDatabase, queryRows } from '../src/db/connection'
import { isDatabaseUnavailable } from '../src/db/unavailable'
import { configurePasswordHashing, hashPassword, hashQueue } from '../src/auth/password'
import { operationLogs } from '../src/db/audit-schema'
import { users } from '../src/db/schema'
import { createTestApp, TEST_PASSWORD_HASH_COST, type CallResult, type TestApp } from './helpers/app'
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from './helpers/constants'
import { eventually, failOnUncaughtErrors, PgFaults, sleep } from './helpers/pg-faults'
import { startServer } from './helpers/server-process'

/**
 * PostgreSQL drops the server's connections (pg_terminate_backend from an administrator connection:
 * what a restart, failover, pooler restart, idle-in-transaction timeout or network reset does) while
 * requests are under way. The process stays up (no uncaught exception, no unheard 'error' event),
 * each request answers 200 or 503 (with Retry-After and the Chinese message), nothing acknowledged is
 * lost, every acknowledged change has its operation-log row, and the next request works.
 */
failOnUncaughtErrors()

const faults = new PgFaults()
let t: TestApp

describe.skipIf(!inject('pgTemplate'))('connections dropped under the server (PostgreSQL)', () => {
  beforeAll(async () => {
    await faults.open()
    t = await createTestApp()
  })
  afterAll(async () => {
    configurePasswordHashing(TEST_PASSWORD_HASH_COST, { concurrency: 1, maxWaitSeconds: 10 })
    await t?.close()
    await faults.close()
  })

  const expectUnavailable = (res: CallResult) => {
    expect(res.body).toEqual({ code: 503, msg: MSG.serviceUnavailable, data: null })
  }

  it('a connection lost while its transaction waits on JavaScript fails that transaction alone', async () => {
    const outcome = await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`)
        // the backend goes while no statement is running: node-postgres reports it as an 'error'
        // event on the checked-out client, which used to end the process
        await faults.terminate(t.databaseUrl!)
        await sleep(300)
        await tx.execute(sql`select 1`)
      })
      .then(
        () => 'committed',
        (err: unknown) => err,
      )
    expect(outcome).not.toBe('committed')
    expect(isDatabaseUnavailable(outcome)).toBe(true)
    // the dead client left the pool: the next statement gets a fresh connection
    expect(await queryRows(t.db, sql`select 1 as one`)).toEqual([{ one: 1 }])
  })

  it('a transaction finding a dead connection in the pool begins again on a fresh one, and no client is lost', async () => {
    const pool = (t.db as unknown as { $client: pg.Pool }).$client
    const outcomes: string[] = []
    for (let round = 0; round < 20; round++) {
      // a full pool of idle connections, all of them then terminated, and a transaction at once
      // (reads finding the last round's dead connections fail, which is not what is looked at here)
      await Promise.allSettled(Array.from({ length: 10 }, () => t.db.execute(sql`select pg_sleep(0.01)`)))
      await faults.terminate(t.databaseUrl!)
      outcomes.push(
        await t.db
          .transaction(async (tx) => {
            await tx.execute(sql`select 1`)
            return 'committed'
          })
          .catch((err: unknown) => (isDatabaseUnavailable(err) ? 'unavailable' : String(err))),
      )
    }
    expect(outcomes).toEqual(Array(20).fill('committed'))
    // every client checked out came back (or left, dead): none is held by a transaction that never began
    await eventually(async () => pool.totalCount === pool.idleCount, 'every client idle')
    expect(pool.waitingCount).toBe(0)
    const after = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`)
          return 1
        }),
      ),
    )
    expect(after).toEqual(Array(12).fill(1))
  })

  it('a write cut off mid-statement answers 503 with Retry-After, rolls back, and the next write works', async () => {
    await t.db.execute(sql`
      create or replace function test_slow_user() returns trigger language plpgsql as $$
      begin
        if new.nick_name like 'slow%' then perform pg_sleep(5); end if;
        return new;
      end $$`)
    await t.db.execute(sql`drop trigger if exists test_slow_user on users`)
    await t.db.execute(sql`
      create trigger test_slow_user before insert on users for each row execute function test_slow_user()`)
    try {
      const write = t.app.inject({
        method: 'POST',
        url: '/api/user/insert',
        headers: { 'x-auth-token': t.adminToken },
        payload: { nickName: 'slow_cut', password: 'Good#Pass2026x' },
      })
      await eventually(
        async () => (await faults.backends(t.databaseUrl!)).some((b) => b.wait_event === 'PgSleep'),
        'the insert sleeping in its trigger',
      )
      await faults.terminate(t.databaseUrl!)
      const res = await write
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({ code: 503, msg: MSG.serviceUnavailable, data: null })
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      const cut = await t.db.select({ id: users.id }).from(users).where(eq(users.nickName, 'slow_cut'))
      expect(cut).toEqual([])
      const success = await t.db
        .select({ id: operationLogs.id })
        .from(operationLogs)
        .where(and(eq(operationLogs.summary, '新建用户'), eq(operationLogs.result, 'success')))
      const next = await t.call('POST', '/api/user/insert', {
        token: t.adminToken,
        body: { nickName: 'after_cut', password: 'Good#Pass2026x' },
      })
      expect(next.status, next.body.msg).toBe(200)
      const after = await t.db
        .select({ id: operationLogs.id })
        .from(operationLogs)
        .where(and(eq(operationLogs.summary, '新建用户'), eq(operationLogs.result, 'success')))
      expect(after.length).toBe(success.length + 1)
    } finally {
      // a pooled connection the termination ended may be handed out once more before the pool hears
      // of it (the background workers share the pool): the clean-up tries again on a fresh one
      await eventually(
        () =>
          t.db.execute(sql`drop trigger if exists test_slow_user on users`).then(
            () => true,
            () => false,
          ),
        'the test trigger dropped',
      )
    }
  })

  it('writes with a password hash in flight: the hash runs before the transaction, so none is cut off', async () => {
    configurePasswordHashing(17, { concurrency: 1, maxWaitSeconds: 120 })
    // names of this attempt only, so that a second try starts afresh
    const names = [1, 2, 3].map((i) => `hashing_${i}_${Date.now().toString(36)}`)
    try {
      const writes = names.map((nickName) =>
        t.call<number>('POST', '/api/user/insert', {
          token: t.adminToken,
          body: { nickName, password: 'Good#Pass2026x' },
        }),
      )
      await eventually(async () => hashQueue.running > 0, 'a hash in flight')
      // while the password hashes, no connection of this database sits idle inside a transaction
      const backends = await faults.backends(t.databaseUrl!)
      expect(backends.filter((b) => b.state?.startsWith('idle in transaction'))).toEqual([])
      expect(await faults.terminate(t.databaseUrl!)).toBeGreaterThan(0)
      const answers = await Promise.all(writes)
      // A write still reading outside its transaction when the connections went (its session or
      // power check) may answer 503; none is cut off inside its transaction, so the writes hashing
      // meanwhile are stored, and every write answered is stored and logged, every refused one not.
      for (const a of answers)
        if (a.status !== 200) expect(a.body).toEqual({ code: 503, msg: MSG.serviceUnavailable, data: null })
      const acknowledged = answers.filter((a) => a.status === 200)
      expect(acknowledged.length).toBeGreaterThan(0)
      for (const a of acknowledged) expect(a.body.msg).toBe(MSG.created)
      const stored = await t.db
        .select({ id: users.id, nickName: users.nickName })
        .from(users)
        .where(inArray(users.nickName, names))
      expect(stored.map((u) => u.nickName).sort()).toEqual(
        names.filter((_, i) => answers[i].status === 200).sort(),
      )
      const logged = await t.db
        .select({ resourceId: operationLogs.resourceId })
        .from(operationLogs)
        .where(and(eq(operationLogs.summary, '新建用户'), eq(operationLogs.result, 'success')))
      for (const a of acknowledged) expect(logged.map((r) => r.resourceId)).toContain(String(a.body.data))
    } finally {
      configurePasswordHashing(TEST_PASSWORD_HASH_COST)
    }
  }, 120_000)

  it('reads during repeated terminations answer 200 or 503, and the next reads work', async () => {
    const statuses: number[] = []
    for (let round = 0; round < 5; round++) {
      const reads = Array.from({ length: 8 }, (_, i) =>
        t.call('POST', i % 2 ? '/api/user/list' : '/api/log/operation/list', {
          token: t.adminToken,
          body: { pageNum: 1, pageSize: 10 },
        }),
      )
      await sleep(round * 3)
      await faults.terminate(t.databaseUrl!)
      for (const res of await Promise.all(reads)) {
        statuses.push(res.status)
        if (res.status === 503) expectUnavailable(res)
        else expect(res.status, res.body.msg).toBe(200)
      }
    }
    expect(statuses.length).toBe(40)
    await sleep(200)
    const after = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.call('POST', '/api/user/list', { token: t.adminToken, body: { pageNum: 1, pageSize: 10 } }),
      ),
    )
    expect(after.map((r) => r.status)).toEqual(Array(8).fill(200))
  })

  it('sign-ins with a rehash in flight answer 200 or 503, and every session handed out works', async () => {
    // stored at 2^14, upgraded to 2^17 at sign-in: the upgrade's hash is in flight when the backends go
    const passwordHash = await hashPassword(TEST_USER_PASSWORD)
    const names = Array.from({ length: 4 }, (_, i) => `signin_fault_${i}`)
    await t.db.insert(users).values(names.map((nickName) => ({ nickName, passwordHash, status: 1 })))
    configurePasswordHashing(17, { concurrency: 1, maxWaitSeconds: 120 })
    try {
      const signIns = names.map((nickName) =>
        t.call<{ token: string }>('POST', '/api/login', { body: { nickName, password: TEST_USER_PASSWORD } }),
      )
      await eventually(async () => hashQueue.running > 0, 'a hash in flight')
      await faults.terminate(t.databaseUrl!)
      const answers = await Promise.all(signIns)
      for (const res of answers) {
        if (res.status === 503) expectUnavailable(res)
        else expect(res.status, res.body.msg).toBe(200)
      }
      for (const res of answers.filter((a) => a.status === 200)) {
        const me = await t.call('GET', '/api/user/current', { token: res.body.data.token })
        expect(me.status).toBe(200)
      }
    } finally {
      configurePasswordHashing(TEST_PASSWORD_HASH_COST)
    }
    // and sign-in works again for all of them
    for (const nickName of names) expect((await t.login(nickName)).length).toBeGreaterThan(10)
  }, 120_000)

  it("the server's sessions carry statement_timeout and idle_in_transaction_session_timeout", async () => {
    const [row] = await queryRows<{ statement: string; idle: string }>(
      t.db,
      sql`select current_setting('statement_timeout') as statement,
                 current_setting('idle_in_transaction_session_timeout') as idle`,
    )
    expect(row).toEqual({ statement: '30s', idle: '30s' })

    // at limits low enough to trip: a statement running past one is cancelled and answered 503, and a
    // transaction left idle past the other loses its session, which fails that transaction alone
    const database = await openDatabase({
      databaseUrl: t.databaseUrl!,
      stageAuditRows: true,
      sessionLimits: { statementTimeoutMs: 300, idleInTransactionTimeoutMs: 300 },
    })
    const limited = await buildApp({ config: t.config, database, logger: false })
    try {
      await t.db.execute(sql`
        create or replace function test_slow_user() returns trigger language plpgsql as $$
        begin
          if new.nick_name like 'slow%' then perform pg_sleep(2); end if;
          return new;
        end $$`)
      await t.db.execute(sql`
        create trigger test_slow_user before insert on users for each row execute function test_slow_user()`)
      const token = (
        await limited.inject({
          method: 'POST',
          url: '/api/login',
          payload: { nickName: 'admin', password: TEST_ADMIN_PASSWORD },
        })
      ).json().data.token
      const slow = await limited.inject({
        method: 'POST',
        url: '/api/user/insert',
        headers: { 'x-auth-token': token },
        payload: { nickName: 'slow_timeout' },
      })
      expect(slow.statusCode).toBe(503)
      expect(slow.json()).toEqual({ code: 503, msg: MSG.serviceUnavailable, data: null })
      expect(await t.db.select().from(users).where(eq(users.nickName, 'slow_timeout'))).toEqual([])

      const idle = await database.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1`)
          await sleep(800)
          await tx.execute(sql`select 1`)
        })
        .then(
          () => 'committed',
          (err: unknown) => err,
        )
      expect(isDatabaseUnavailable(idle)).toBe(true)
      const fine = await limited.inject({
        method: 'POST',
        url: '/api/user/insert',
        headers: { 'x-auth-token': token },
        payload: { nickName: 'fast_after_timeout' },
      })
      expect(fine.statusCode, fine.body).toBe(200)
    } finally {
      await t.db.execute(sql`drop trigger if exists test_slow_user on users`)
      await limited.close()
      await database.close()
    }
  })

  it('a lost LISTEN reconnects: a change made on one instance reaches the other again', async () => {
    const database = await openDatabase({ databaseUrl: t.databaseUrl!, stageAuditRows: true })
    const other = await buildApp({ config: t.config, database, logger: false })
    try {
      const onOther = (token: string) =>
        other.inject({ method: 'GET', url: '/api/user/current', headers: { 'x-auth-token': token } })
      const during = await t.userWithCodes(['user'], 'listen_during')
      const after = await t.userWithCodes(['user'], 'listen_after')
      expect((await onOther(during.token)).statusCode).toBe(200)
      expect((await onOther(after.token)).statusCode).toBe(200)
      expect(other.ctx.sessions.isCached(during.token)).toBe(true)

      // both instances' listeners go; one session is revoked while nobody listens
      expect(await faults.terminate(t.databaseUrl!, { listenersOnly: true })).toBe(2)
      const revoke = await t.call('PUT', '/api/user/update', {
        token: t.adminToken,
        body: { id: during.id, nickName: 'listen_during', status: 2 },
      })
      expect(revoke.status, revoke.body.msg).toBe(200)
      // once the listener is back, what was missed is dropped: the frozen user is refused there too
      await eventually(
        async () => (await onOther(during.token)).statusCode === 401,
        'the other instance refusing',
      )
      await eventually(
        async () => t.database.hearsEveryChange() && database.hearsEveryChange(),
        'both listeners back',
      )
      // and changes are heard again as they happen: the very next request sees the next one
      expect((await onOther(after.token)).statusCode).toBe(200)
      const freeze = await t.call('PUT', '/api/user/update', {
        token: t.adminToken,
        body: { id: after.id, nickName: 'listen_after', status: 2 },
      })
      expect(freeze.status, freeze.body.msg).toBe(200)
      // the other instance hears it on its own connection, a moment after the writer answered
      await eventually(
        async () => (await onOther(after.token)).statusCode === 401,
        'the other instance hearing the next change',
        5_000,
      )
    } finally {
      await other.close()
      await database.close()
    }
  })
})

describe.skipIf(!inject('pgTemplate'))('a served process whose connections are dropped (PostgreSQL)', () => {
  beforeAll(async () => {
    await faults.open()
    t = await createTestApp()
  })
  afterAll(async () => {
    await t?.close()
    await faults.close()
  })

  it('stays up through terminations during writes with and without a password hash, and loses nothing acknowledged', async () => {
    const server = await startServer({ DATABASE_URL: t.databaseUrl!, PASSWORD_HASH_COST: '17' })
    try {
      const token = await server.login()
      const acknowledged: number[] = []
      const statuses: number[] = []
      const insert = async (body: object) => {
        const res = await fetch(`${server.base}/user/insert`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-auth-token': token },
          body: JSON.stringify(body),
        })
        const answer = (await res.json()) as { code: number; msg: string; data: number }
        statuses.push(res.status)
        if (res.status === 200) acknowledged.push(answer.data)
        else {
          expect(answer).toEqual({ code: 503, msg: MSG.serviceUnavailable, data: null })
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
        }
      }
      // the filed reproduction: a user with a password, the backends terminated within 300 ms
      for (let round = 0; round < 3; round++) {
        const pending = insert({ nickName: `proc_pw_${round}`, password: 'Good#Pass2026x' })
        await sleep(150)
        await faults.terminate(t.databaseUrl!)
        await pending
        expect(server.alive()).toBe(true)
      }
      // writers without a hash (their transactions open most of the time) under repeated terminations
      let stop = false
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) await insert({ nickName: `proc_w${w}_${i}` })
      }
      const writers = [0, 1, 2].map(writer)
      for (let i = 0; i < 6; i++) {
        await sleep(250)
        await faults.terminate(t.databaseUrl!)
      }
      stop = true
      await Promise.all(writers)

      expect(server.alive()).toBe(true)
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
      expect(acknowledged.length).toBeGreaterThan(3)
      await eventually(async () => (await fetch(`${server.base}/health`)).status === 200, 'health')
      const stored = await t.db.select({ id: users.id }).from(users).where(inArray(users.id, acknowledged))
      expect(stored.length).toBe(acknowledged.length)
      const logged = await t.db
        .select({ resourceId: operationLogs.resourceId })
        .from(operationLogs)
        .where(
          and(
            eq(operationLogs.summary, '新建用户'),
            eq(operationLogs.result, 'success'),
            inArray(
              operationLogs.resourceId,
              acknowledged.map((id) => String(id)),
            ),
          ),
        )
      expect(logged.length).toBe(acknowledged.length)
      expect(server.stderr()).not.toMatch(/Unhandled 'error' event|uncaught/i)
    } finally {
      await server.stop()
    }
  }, 180_000)
})
