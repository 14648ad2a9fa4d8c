import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq, sql } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { operationLogs } from '../src/db/audit-schema'
import { users } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * A statement that fails inside a write (either engine): the request answers cleanly in the envelope,
 * its transaction rolls back (no change, no success row), and the next request works. A statement
 * cancelled the way `statement_timeout` cancels it (SQLSTATE 57014) answers 503 with Retry-After: the
 * database could not serve it now, trying later can succeed. The database raises the failures itself,
 * from a trigger on the users table, in the write's own transaction.
 */
let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  await t.db.execute(sql`
    create function test_fail_user() returns trigger language plpgsql as $$
    begin
      if new.nick_name like 'cancelled%' then
        raise exception 'canceling statement due to statement timeout' using errcode = '57014';
      elsif new.nick_name like 'broken%' then
        raise exception 'something the service did not foresee';
      end if;
      return new;
    end $$`)
  await t.db.execute(sql`
    create trigger test_fail_user before insert or update on users
    for each row execute function test_fail_user()`)
})
afterAll(async () => t?.close())

const logRows = (userId: number) =>
  t.db
    .select({ result: operationLogs.result, status: operationLogs.status })
    .from(operationLogs)
    .where(and(eq(operationLogs.summary, '新建用户'), eq(operationLogs.resourceId, String(userId))))

const userNamed = async (nickName: string) =>
  (await t.db.select({ id: users.id }).from(users).where(eq(users.nickName, nickName)))[0]

describe('a statement failing inside a write', () => {
  it('cancelled (as statement_timeout does): 503 with Retry-After, rolled back, and the next write works', async () => {
    const failed = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'cancelled_1', password: 'Good#Pass2026x' },
    })
    expect(failed.status).toBe(503)
    expect(failed.body).toEqual({ code: 503, msg: MSG.serviceUnavailable, data: null })
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/user/insert',
      headers: { 'x-auth-token': t.adminToken },
      payload: { nickName: 'cancelled_2' },
    })
    expect(raw.statusCode).toBe(503)
    expect(Number(raw.headers['retry-after'])).toBeGreaterThan(0)
    expect(await userNamed('cancelled_1')).toBeUndefined()
    expect(await userNamed('cancelled_2')).toBeUndefined()
    // the failure has its own row (DESIGN.md §9: failures are logged); no success row
    const rows = await t.db
      .select({ result: operationLogs.result, status: operationLogs.status })
      .from(operationLogs)
      .where(and(eq(operationLogs.summary, '新建用户'), eq(operationLogs.status, 503)))
    expect(rows.length).toBe(2)
    expect(rows.every((r) => r.result === 'failed')).toBe(true)

    const next = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'after_cancel', password: 'Good#Pass2026x' },
    })
    expect(next.status, next.body.msg).toBe(200)
    expect(await userNamed('after_cancel')).toEqual({ id: next.body.data })
    expect(await logRows(next.body.data)).toEqual([{ result: 'success', status: 200 }])
  })

  it('failing unforeseen: 500 in the envelope, rolled back, and the next write works', async () => {
    const failed = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'broken_1' },
    })
    expect(failed.status).toBe(500)
    expect(failed.body).toEqual({ code: 500, msg: MSG.serverError, data: null })
    expect(await userNamed('broken_1')).toBeUndefined()

    // an update failing in the middle keeps the row as it was
    const created = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'will_break', realName: '原名' },
    })
    expect(created.status).toBe(200)
    const update = await t.call('PUT', '/api/user/update', {
      token: t.adminToken,
      body: { id: created.body.data, nickName: 'broken_rename', realName: '新名', status: 1 },
    })
    expect(update.status).toBe(500)
    const [row] = await t.db
      .select({ nickName: users.nickName, realName: users.realName })
      .from(users)
      .where(eq(users.id, created.body.data))
    expect(row).toEqual({ nickName: 'will_break', realName: '原名' })

    const next = await t.call('PUT', '/api/user/update', {
      token: t.adminToken,
      body: { id: created.body.data, nickName: 'renamed_fine', realName: '新名', status: 1 },
    })
    expect(next.status, next.body.msg).toBe(200)
    expect(
      (await t.call('GET', '/api/user/detail', { token: t.adminToken, query: { userId: created.body.data } }))
        .body.data,
    ).toMatchObject({
      nickName: 'renamed_fine',
      realName: '新名',
    })
  })
})
