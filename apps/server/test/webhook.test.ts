import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { WEBHOOK_MSG } from '@amg/contract'
import { loadConfig } from '../src/config'
import { queryRows } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'
import { startReceiver, waitFor } from './helpers/receiver'

/**
 * DESIGN.md §17 on a real receiver (node:http on 127.0.0.1): the outbox written with each change, the
 * Standard Webhooks signature checked by the convention's own package, retries with the same
 * webhook-id, a rolled-back change sending nothing, the delivery log, pulling /api/events, and the
 * refusals: bad input (400, nothing changed) and private targets.
 */
let t: TestApp
let receiver: Awaited<ReturnType<typeof startReceiver>>

// the receiver is on loopback, so this app allows private targets; waits between attempts are shrunk
beforeAll(async () => {
  t = await createTestApp({
    webhookAllowPrivate: true,
    webhookWorkerIntervalMs: 30,
    webhookRetryScale: 0.002,
  })
  receiver = await startReceiver()
})
afterAll(async () => {
  await t?.close()
  await receiver?.close()
})

const admin = () => ({ token: t.adminToken })

const opened: number[] = []
async function endpoint(eventTypes: string[], url = receiver.url) {
  const res = await t.call<{ id: number; secret: string }>('POST', '/api/webhook/insert', {
    ...admin(),
    body: { name: `hook ${eventTypes.join(' ')}`, url, eventTypes, enabled: true },
  })
  expect(res.status, res.body.msg).toBe(200)
  opened.push(res.body.data.id)
  return res.body.data
}

// an endpoint a failed test leaves behind would take the receiver's scripted answers meant for the next test
afterEach(async () => {
  for (const id of opened.splice(0))
    await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id } })
})

async function newUser(nickName: string): Promise<number> {
  const res = await t.call<number>('POST', '/api/user/insert', { ...admin(), body: { nickName } })
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data
}

const eventsOf = (type: string) =>
  queryRows<{ id: number; payload: any }>(
    t.db,
    sql`select id, payload from events where type = ${type} order by id`,
  )
const endpointCount = async () =>
  Number((await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from webhook_endpoints`))[0].n)

describe('endpoints', () => {
  it('answers the secret once, whsec_ and base64; the list never shows it', async () => {
    const { id, secret } = await endpoint(['user.created'])
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
    expect(Buffer.from(secret.slice(6), 'base64').length).toBe(32)
    const list = await t.call('POST', '/api/webhook/list', { ...admin(), body: { pageNum: 1, pageSize: 10 } })
    expect(list.status).toBe(200)
    const row = list.body.data.list.find((r: { id: number }) => r.id === id)
    expect(row).toMatchObject({ url: receiver.url, eventTypes: ['user.created'], enabled: true })
    expect(list.raw).not.toContain(secret.slice(6, 20))
    expect(JSON.stringify(row)).not.toMatch(/secret"/i)
    await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id } })
  })

  it('finds endpoints by a part of the name or the address, % and _ taken literally', async () => {
    const a = await endpoint(['user.created'], `${receiver.url}?k=kw_a%`)
    const b = await endpoint(['user.deleted'])
    const list = async (keyword: string) => {
      const res = await t.call('POST', '/api/webhook/list', { ...admin(), body: { keyword } })
      expect(res.status, res.body.msg).toBe(200)
      return res.body.data as { total: number; list: { id: number }[] }
    }
    expect((await list('KW_A%')).list.map((r) => r.id)).toEqual([a.id])
    expect((await list('user.deleted')).list.map((r) => r.id)).toEqual([b.id])
    expect(await list('kw_b')).toMatchObject({ total: 0, list: [] })
    // every endpoint when the box is empty
    expect((await list('')).total).toBeGreaterThanOrEqual(2)
    const bad = await t.call('POST', '/api/webhook/list', { ...admin(), body: { keyword: 'x'.repeat(65) } })
    expect(bad.status).toBe(400)
  })

  it('refuses bad input with 400 and a Chinese message, changing nothing', async () => {
    const before = await endpointCount()
    const cases: [unknown, string][] = [
      [{ name: 'x', url: 'not a url', eventTypes: ['user.created'] }, WEBHOOK_MSG.urlInvalid],
      [{ name: 'x', url: 'ftp://example.com/x', eventTypes: ['user.created'] }, WEBHOOK_MSG.urlInvalid],
      [{ name: 'x', url: 'javascript:alert(1)', eventTypes: ['user.created'] }, WEBHOOK_MSG.urlInvalid],
      [{ name: '', url: receiver.url, eventTypes: ['user.created'] }, WEBHOOK_MSG.nameRequired],
      [{ name: 'x', url: '', eventTypes: ['user.created'] }, WEBHOOK_MSG.urlRequired],
      [{ name: 'x', url: receiver.url, eventTypes: [] }, WEBHOOK_MSG.eventTypesRequired],
      [
        { name: 'x', url: receiver.url, eventTypes: ['user.exploded'] },
        WEBHOOK_MSG.eventTypeUnknown('user.exploded'),
      ],
    ]
    for (const [body, msg] of cases) {
      const res = await t.call('POST', '/api/webhook/insert', { ...admin(), body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.msg).toBe(msg)
    }
    const upd = await t.call('PUT', '/api/webhook/update', {
      ...admin(),
      body: { id: 1, name: 'x', url: 'nope', eventTypes: ['*'], enabled: true },
    })
    expect(upd.status).toBe(400)
    expect((await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id: 'abc' } })).status).toBe(
      400,
    )
    expect(
      (await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id: 999999 } })).status,
    ).toBe(404)
    expect(await endpointCount()).toBe(before)
  })

  it('is refused to a caller without webhook permissions, allowed with them', async () => {
    const nobody = await t.userWithCodes(['user'])
    expect((await t.call('POST', '/api/webhook/list', { token: nobody.token, body: {} })).status).toBe(403)
    expect((await t.call('GET', '/api/events', { token: nobody.token })).status).toBe(403)
    const puller = await t.userWithCodes(['monitor', 'webhook', 'webhook:events'])
    expect((await t.call('GET', '/api/events', { token: puller.token })).status).toBe(200)
    expect(
      (
        await t.call('POST', '/api/webhook/insert', {
          token: puller.token,
          body: { name: 'x', url: receiver.url, eventTypes: ['*'] },
        })
      ).status,
    ).toBe(403)
  })
})

describe('delivery', () => {
  it('sends a change signed per Standard Webhooks, verified by the standardwebhooks package', async () => {
    const { id, secret } = await endpoint(['user.created'])
    const from = receiver.received.length
    const userId = await newUser('hook_signed')
    await waitFor(() => receiver.received.length > from)
    const got = receiver.received[from]
    expect(got.headers['webhook-id']).toMatch(/^msg_\d+_\d+$/)
    const verified = new Webhook(secret).verify(got.body, got.headers) as {
      type: string
      data: { id: number }
    }
    expect(verified.type).toBe('user.created')
    expect(verified.data.id).toBe(userId)
    // a different secret does not verify it
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got.body, got.headers),
    ).toThrow()
    // the delivery log shows it, delivered at the first attempt; the worker writes the outcome after the
    // receiver has answered, so the row may still be on its way when the request arrives
    const deliveries = () =>
      t.call('POST', '/api/webhook/deliveries', { ...admin(), body: { id, pageNum: 1, pageSize: 10 } })
    await waitFor(async () => (await deliveries()).body.data.list[0]?.status === 'succeeded')
    const log = await deliveries()
    expect(log.status).toBe(200)
    expect(log.body.data.list[0]).toMatchObject({
      webhookId: got.headers['webhook-id'],
      eventType: 'user.created',
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      lastResponse: 'ok',
    })
    await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id } })
  })

  it('retries a receiver failing twice: three attempts, the same webhook-id, Retry-After honoured', async () => {
    const { id } = await endpoint(['role.created'])
    const from = receiver.received.length
    receiver.answer({ status: 500 }, { status: 503, headers: { 'retry-after': '1' } })
    const res = await t.call('POST', '/api/role/insert', {
      ...admin(),
      body: { roleName: 'hook_role', status: 1 },
    })
    expect(res.status, res.body.msg).toBe(200)
    await waitFor(() => receiver.received.length >= from + 3)
    const attempts = receiver.received.slice(from)
    expect(attempts).toHaveLength(3)
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1)
    const [delivery] = await queryRows<{ id: number; status: string; attempts: number }>(
      t.db,
      sql`select id, status, attempts from webhook_deliveries where endpoint_id = ${id}`,
    )
    await waitFor(async () => {
      const [d] = await queryRows<{ status: string }>(
        t.db,
        sql`select status from webhook_deliveries where id = ${delivery.id}`,
      )
      return d.status === 'succeeded'
    })
    const tries = await queryRows<{ attempt: number; status_code: number }>(
      t.db,
      sql`select attempt, status_code from webhook_attempts where delivery_id = ${delivery.id} order by attempt`,
    )
    expect(tries.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ])
    await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id } })
  })

  it('sends nothing, and writes no event, for a change that rolls back at commit', async () => {
    const { id } = await endpoint(['*'])
    // fails at commit: after the change, its log row and its events were all written
    await t.db.execute(sql`
      create function test_fail_at_commit() returns trigger language plpgsql as $$
      begin
        if new.nick_name like 'rollback%' then raise exception 'refused at commit'; end if;
        return new;
      end $$`)
    await t.db.execute(sql`
      create constraint trigger test_fail_at_commit after insert on users
      deferrable initially deferred for each row execute function test_fail_at_commit()`)
    const before = (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from events`))[0].n
    const from = receiver.received.length
    const res = await t.call('POST', '/api/user/insert', { ...admin(), body: { nickName: 'rollback_me' } })
    expect(res.status).toBeGreaterThanOrEqual(500)
    await new Promise((r) => setTimeout(r, 300))
    expect((await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from events`))[0].n).toBe(
      before,
    )
    expect(receiver.received.length).toBe(from)
    await t.db.execute(sql`drop trigger test_fail_at_commit on users`)
    await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id } })
  })

  it('after a rotation signs with both secrets for a day, so either verifies', async () => {
    const { id, secret: old } = await endpoint(['org.created'])
    const rotated = await t.call<{ id: number; secret: string }>('PUT', '/api/webhook/rotate-secret', {
      ...admin(),
      query: { id },
    })
    expect(rotated.status).toBe(200)
    const fresh = rotated.body.data.secret
    expect(fresh).not.toBe(old)
    const from = receiver.received.length
    const res = await t.call('POST', '/api/org/insert', {
      ...admin(),
      body: { organizationName: '钩子部', parent: 1 },
    })
    expect(res.status, res.body.msg).toBe(200)
    await waitFor(() => receiver.received.length > from)
    const got = receiver.received[from]
    expect(got.headers['webhook-signature'].split(' ')).toHaveLength(2)
    expect(() => new Webhook(old).verify(got.body, got.headers)).not.toThrow()
    expect(() => new Webhook(fresh).verify(got.body, got.headers)).not.toThrow()
    await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id } })
  })

  it('test sends a ping; 重新投递 sends the same message again with the same webhook-id', async () => {
    const { id, secret } = await endpoint(['user.deleted'])
    const from = receiver.received.length
    expect((await t.call('POST', '/api/webhook/test', { ...admin(), query: { id } })).status).toBe(200)
    await waitFor(() => receiver.received.length > from)
    const ping = receiver.received[from]
    expect((new Webhook(secret).verify(ping.body, ping.headers) as { type: string }).type).toBe(
      'webhook.test',
    )
    const log = await t.call('POST', '/api/webhook/deliveries', { ...admin(), body: { id } })
    const delivery = log.body.data.list[0]
    expect(delivery.status).toBe('succeeded')
    const again = await t.call('PUT', '/api/webhook/redeliver', {
      ...admin(),
      query: { deliveryId: delivery.id },
    })
    expect(again.status).toBe(200)
    await waitFor(() => receiver.received.length > from + 1)
    expect(receiver.received[from + 1].headers['webhook-id']).toBe(ping.headers['webhook-id'])
    expect(
      (await t.call('PUT', '/api/webhook/redeliver', { ...admin(), query: { deliveryId: 99999999 } })).status,
    ).toBe(404)
    await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id } })
  })

  it('disables and flags an endpoint that has failed for three days', async () => {
    const { id } = await endpoint(['user.updated'])
    await t.db.execute(
      sql`update webhook_endpoints set failing_since = now() - interval '3 days 1 minute' where id = ${id}`,
    )
    receiver.answer({ status: 500 })
    const from = receiver.received.length
    expect((await t.call('POST', '/api/webhook/test', { ...admin(), query: { id } })).status).toBe(200)
    // a test ping does not count: a real event's failure does
    await waitFor(() => receiver.received.length > from)
    const userId = await newUser('hook_failing')
    receiver.answer({ status: 500 })
    const upd = await t.call('PUT', '/api/user/update', {
      ...admin(),
      body: { id: userId, nickName: 'hook_failing', realName: '改名', status: 1 },
    })
    expect(upd.status, upd.body.msg).toBe(200)
    await waitFor(async () => {
      const list = await t.call('POST', '/api/webhook/list', { ...admin(), body: { pageSize: 100 } })
      const row = list.body.data.list.find((r: { id: number }) => r.id === id)
      return row.enabled === false && row.disabledReason === WEBHOOK_MSG.disabledFailing
    })
    await t.call('DELETE', '/api/webhook/delete', { ...admin(), query: { id } })
  })
})

describe('the outbox', () => {
  it('writes link and access events when a role is linked, and access events when it is disabled', async () => {
    const userId = await newUser('hook_access')
    const role = await t.call<number>('POST', '/api/role/insert', {
      ...admin(),
      body: { roleName: 'hook_access_role', status: 1 },
    })
    const roleId = role.body.data
    const [last] = await queryRows<{ id: number }>(
      t.db,
      sql`select coalesce(max(id), 0)::int as id from events`,
    )
    const link = await t.call('PUT', '/api/rel/user-rel-role', {
      ...admin(),
      body: { id: userId, roleIds: String(roleId) },
    })
    expect(link.status, link.body.msg).toBe(200)
    const pulled = await t.call('GET', '/api/events', { ...admin(), query: { after: last.id } })
    expect(pulled.status).toBe(200)
    const types = pulled.body.data.list.map((e: { type: string }) => e.type)
    expect(types).toContain('link.linked')
    const linked = pulled.body.data.list.find((e: { type: string }) => e.type === 'link.linked')
    expect(linked.payload).toEqual({ link: 'user-role', userId, roleId })
    const access = pulled.body.data.list.find((e: { type: string }) => e.type === 'user.access.changed')
    expect(access.payload.userIds).toEqual([userId])

    const next = pulled.body.data.next
    const off = await t.call('PUT', '/api/role/update', {
      ...admin(),
      body: { id: roleId, roleName: 'hook_access_role', status: 2 },
    })
    expect(off.status, off.body.msg).toBe(200)
    const after = await t.call('GET', '/api/events', {
      ...admin(),
      query: { after: next, types: 'user.access.changed,role.updated' },
    })
    expect(after.body.data.list.map((e: { type: string }) => e.type).sort()).toEqual([
      'role.updated',
      'user.access.changed',
    ])
    expect(
      after.body.data.list.find((e: { type: string }) => e.type === 'user.access.changed').payload.userIds,
    ).toContain(userId)
  })

  it("names a disabled group's members in user.access.changed, though their links did not change", async () => {
    const members = [
      await newUser(`hook_member_a_${Date.now()}`),
      await newUser(`hook_member_b_${Date.now()}`),
    ]
    const role = await t.call<number>('POST', '/api/role/insert', {
      ...admin(),
      body: { roleName: `hook_group_role_${Date.now()}`, status: 1 },
    })
    const group = await t.call<number>('POST', '/api/user_groups/insert', {
      ...admin(),
      body: {
        groupName: `hook_group_${Date.now()}`,
        status: 1,
        roleIds: String(role.body.data),
        userIds: members.join(','),
      },
    })
    expect(group.status, group.body.msg).toBe(200)
    const [last] = await queryRows<{ id: number }>(
      t.db,
      sql`select coalesce(max(id), 0)::int as id from events`,
    )
    const off = await t.call('PATCH', '/api/user_groups/enable', {
      ...admin(),
      query: { userGroupsId: group.body.data, enable: false },
    })
    expect(off.status, off.body.msg).toBe(200)
    const pulled = await t.call('GET', '/api/events', { ...admin(), query: { after: last.id } })
    expect(pulled.body.data.list.map((e: { type: string }) => e.type).sort()).toEqual([
      'group.updated',
      'user.access.changed',
    ])
    const access = pulled.body.data.list.find((e: { type: string }) => e.type === 'user.access.changed')
    expect(access.payload.userIds).toEqual([...members].sort((a, b) => a - b))
  })

  it('writes session.revoked when a session is ended', async () => {
    const u = await t.userWithCodes(['user'])
    const online = await t.call('POST', '/api/session/online/list', { ...admin(), body: { pageSize: 100 } })
    const session = online.body.data.list.find((s: { userId: number }) => s.userId === u.id)
    const res = await t.call('DELETE', '/api/session/online/revoke', {
      ...admin(),
      query: { id: session.id },
    })
    expect(res.status).toBe(200)
    const revoked = await eventsOf('session.revoked')
    expect(revoked.at(-1)!.payload).toEqual({ sessionId: session.id, userId: u.id })
  })

  it('pages /api/events with after= and limit=, and refuses bad paging with 400', async () => {
    for (let i = 0; i < 5; i++) await newUser(`hook_page_${i}_${Date.now()}`)
    const all = await t.call('GET', '/api/events', {
      ...admin(),
      query: { types: 'user.created', limit: 1000 },
    })
    const ids: number[] = all.body.data.list.map((e: { id: number }) => e.id)
    expect(ids.length).toBeGreaterThanOrEqual(5)
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
    const first = await t.call('GET', '/api/events', {
      ...admin(),
      query: { types: 'user.created', limit: 2 },
    })
    expect(first.body.data.list.map((e: { id: number }) => e.id)).toEqual(ids.slice(0, 2))
    const second = await t.call('GET', '/api/events', {
      ...admin(),
      query: { types: 'user.created', limit: 2, after: first.body.data.next },
    })
    expect(second.body.data.list.map((e: { id: number }) => e.id)).toEqual(ids.slice(2, 4))
    const end = await t.call('GET', '/api/events', { ...admin(), query: { after: 2_000_000_000 } })
    expect(end.status, end.raw).toBe(200)
    expect(end.body.data).toEqual({ list: [], next: 2_000_000_000 })
    for (const query of [{ limit: 0 }, { limit: 1001 }, { after: -1 }, { after: 'x' }, { types: 'nope' }]) {
      const res = await t.call('GET', '/api/events', { ...admin(), query })
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/)
    }
  })

  it('sweeps events older than 30 days', async () => {
    await t.db.execute(
      sql`insert into events (type, payload, created_at) values ('user.created', '{"id": 0}', now() - interval '31 days')`,
    )
    const { sweepEvents } = await import('../src/modules/webhook/events')
    await sweepEvents(t.db, 30)
    const old = await queryRows(
      t.db,
      sql`select id from events where created_at < now() - interval '30 days'`,
    )
    expect(old).toEqual([])
  })
})

describe('private targets (WEBHOOK_ALLOW_PRIVATE off)', () => {
  let strict: TestApp
  beforeAll(async () => {
    strict = await createTestApp({ webhookWorkerIntervalMs: 30, webhookRetryScale: 0.002 })
  })
  afterAll(async () => strict?.close())

  it('refuses loopback, private, link-local and metadata addresses with a clear message', async () => {
    for (const url of [
      receiver.url,
      'http://localhost:8080/x',
      'http://127.1/x',
      'http://10.1.2.3/x',
      'http://172.16.0.1/x',
      'http://192.168.1.1/x',
      'http://169.254.169.254/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://[::1]/x',
      'http://[fd00:ec2::254]/latest',
      'http://[fe80::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://0.0.0.0/x',
      'http://2130706433/x',
    ]) {
      const res = await strict.call('POST', '/api/webhook/insert', {
        token: strict.adminToken,
        body: { name: 'ssrf', url, eventTypes: ['*'] },
      })
      expect(res.status, url).toBe(400)
      expect(res.body.msg, url).toBe(WEBHOOK_MSG.urlPrivate)
    }
    const ok = await strict.call('POST', '/api/webhook/insert', {
      token: strict.adminToken,
      body: { name: 'public', url: 'https://93.184.216.34/hook', eventTypes: ['*'], enabled: false },
    })
    expect(ok.status).toBe(200)
  })

  it('tells the console the setting with the list: off here, on in the app that allows private targets', async () => {
    const off = await strict.call('POST', '/api/webhook/list', { token: strict.adminToken, body: {} })
    expect(off.status).toBe(200)
    expect(off.body.data.allowPrivate).toBe(false)
    const on = await t.call('POST', '/api/webhook/list', { ...admin(), body: {} })
    expect(on.status).toBe(200)
    expect(on.body.data.allowPrivate).toBe(true)
  })

  it('checks again when sending: a stored private target is never connected to', async () => {
    const from = receiver.received.length
    // as if DNS had changed since it was saved: the row points at the loopback receiver
    const [row] = await queryRows<{ id: number }>(
      strict.db,
      sql`insert into webhook_endpoints (name, url, event_types, secret)
          values ('moved', ${receiver.url}, '{*}', ${'whsec_' + Buffer.alloc(32, 1).toString('base64')}) returning id`,
    )
    expect(
      (await strict.call('POST', '/api/webhook/test', { token: strict.adminToken, query: { id: row.id } }))
        .status,
    ).toBe(200)
    await waitFor(async () => {
      const [d] = await queryRows<{ last_response: string | null }>(
        strict.db,
        sql`select last_response from webhook_deliveries where endpoint_id = ${row.id}`,
      )
      return d?.last_response === WEBHOOK_MSG.urlPrivate
    })
    expect(receiver.received.length).toBe(from)
  })
})

describe('IPv6 forms of private addresses (DESIGN.md §11, second review)', () => {
  let strict: TestApp
  beforeAll(async () => {
    strict = await createTestApp({ webhookWorkerIntervalMs: 30, webhookRetryScale: 0.002 })
  })
  afterAll(async () => strict?.close())

  const insert = (app: TestApp, url: string) =>
    app.call<{ id: number }>('POST', '/api/webhook/insert', {
      token: app.adminToken,
      body: { name: 'v6', url, eventTypes: ['*'], enabled: false },
    })

  it('refuses an address embedding a private one when saved; a public one embedded is saved', async () => {
    for (const url of [
      'http://[::7f00:1]/x',
      'http://[2002:7f00:1::]/x',
      'http://[::ffff:0:7f00:1]/x',
      'http://[::ffff:0:10.0.0.1]/x',
      'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
      'http://[64:ff9b:1::c0a8:101]/x',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x',
      'http://[2002:AC10:0001::1]/x',
    ]) {
      const res = await insert(strict, url)
      expect(res.status, url).toBe(400)
      expect(res.body.msg, url).toBe(WEBHOOK_MSG.urlPrivate)
    }
    expect((await insert(strict, 'https://[2002:808:808::1]/hook')).status).toBe(200)
    const update = await strict.call('PUT', '/api/webhook/update', {
      token: strict.adminToken,
      body: {
        id: (await insert(strict, 'https://[64:ff9b::808:808]/hook')).body.data.id,
        name: 'v6',
        url: 'http://[::7f00:1]/x',
        eventTypes: ['*'],
        enabled: false,
      },
    })
    expect(update.status).toBe(400)
    expect(update.body.msg).toBe(WEBHOOK_MSG.urlPrivate)
  })

  it('checks again when sending: a stored SIIT form of loopback is never connected to', async () => {
    const port = new URL(receiver.url).port
    const [row] = await queryRows<{ id: number }>(
      strict.db,
      sql`insert into webhook_endpoints (name, url, event_types, secret)
          values ('siit', ${`http://[::ffff:0:7f00:1]:${port}/`}, '{*}', ${'whsec_' + Buffer.alloc(32, 1).toString('base64')}) returning id`,
    )
    const res = await strict.call('POST', '/api/webhook/test', {
      token: strict.adminToken,
      query: { id: row.id },
    })
    expect(res.status).toBe(200)
    await waitFor(async () => {
      const [d] = await queryRows<{ last_response: string | null }>(
        strict.db,
        sql`select last_response from webhook_deliveries where endpoint_id = ${row.id}`,
      )
      return d?.last_response === WEBHOOK_MSG.urlPrivate
    })
  })

  it('allows them all with WEBHOOK_ALLOW_PRIVATE', async () => {
    for (const url of ['http://[::7f00:1]/x', 'http://[2002:7f00:1::]/x', 'http://[::ffff:0:7f00:1]/x']) {
      const res = await insert(t, url)
      expect(res.status, url).toBe(200)
      opened.push(res.body.data.id)
    }
  })
})

describe('closing the app', () => {
  it('stops the worker: nothing is sent once the app has closed', async () => {
    const own = await createTestApp({
      webhookAllowPrivate: true,
      webhookWorkerIntervalMs: 30,
      webhookRetryScale: 0.002,
    })
    const res = await own.call('POST', '/api/webhook/insert', {
      token: own.adminToken,
      body: { name: 'closing', url: receiver.url, eventTypes: ['*'] },
    })
    expect(res.status).toBe(200)
    await own.app.close()
    const from = receiver.received.length
    // a delivery due now, written after the close: no worker is left to send it
    await own.db.execute(sql`
      insert into webhook_deliveries (endpoint_id, event_type, payload, webhook_id, next_attempt_at)
      values (${res.body.data.id}, 'webhook.test', '{}', 'msg_after_close', now())`)
    await new Promise((r) => setTimeout(r, 300))
    expect(receiver.received.length).toBe(from)
    await own.close()
  })
})

describe('the lease of a claimed delivery (WEBHOOK_LEASE_SECONDS)', () => {
  it('is a minute unless set, and never shorter than an attempt can take', () => {
    expect(loadConfig({}).webhookLeaseSeconds).toBe(60)
    expect(loadConfig({ WEBHOOK_LEASE_SECONDS: '15' }).webhookLeaseSeconds).toBe(15)
    expect(() => loadConfig({ WEBHOOK_LEASE_SECONDS: '14' })).toThrow('WEBHOOK_LEASE_SECONDS 不能小于 15: 14')
    expect(() => loadConfig({ WEBHOOK_LEASE_SECONDS: 'soon' })).toThrow('配置项取值不是合法的数字: soon')
  })
})
