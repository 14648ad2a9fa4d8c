import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { queryRows } from '../src/db/connection'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { startReceiver, waitFor } from './helpers/receiver'

/**
 * DESIGN.md §13 and §17: a webhook delivers only the events its owner may read, judged when it is sent
 * by the owner's reach then; the owner is who last chose where it delivers. A department
 * administrator of A (A, A1, A2) owns one endpoint, the company-wide admin another, on real receivers.
 */
let t: TestApp
let c: ScopedCompany
let mine: Awaited<ReturnType<typeof startReceiver>>
let theirs: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  t = await createTestApp({
    webhookAllowPrivate: true,
    webhookWorkerIntervalMs: 30,
    webhookRetryScale: 0.002,
  })
  c = await seedScopedCompany(t)
  mine = await startReceiver()
  theirs = await startReceiver()
})
afterAll(async () => {
  await t?.close()
  await mine?.close()
  await theirs?.close()
})

async function ok(res: Promise<{ status: number; body: any }>) {
  const answer = await res
  expect(answer.status, answer.body.msg).toBe(200)
  return answer.body.data
}
const as =
  (token: string) =>
  (method: string, url: string, opts: CallOptions = {}) =>
    t.call(method, url, { ...opts, token })

const hook = (token: string, url: string) =>
  ok(
    as(token)('POST', '/api/webhook/insert', {
      body: { name: `hook-${Date.now()}`, url, eventTypes: ['user.updated'], enabled: true },
    }),
  )

/** The user ids of the user.updated events a receiver got. */
const heard = (receiver: typeof mine) =>
  receiver.received
    .map((r) => JSON.parse(r.body))
    .filter((b) => b.type === 'user.updated')
    .map((b) => b.data.id)

const deliveries = (endpointId: number) =>
  queryRows<{ id: number; status: string; user_id: string; event_id: number }>(
    t.db,
    sql`select d.id, d.status, e.payload->>'id' as user_id, d.event_id from webhook_deliveries d
         join events e on e.id = d.event_id where d.endpoint_id = ${endpointId} order by d.id`,
  )

const settled = async (endpointId: number) =>
  (await deliveries(endpointId)).every((d) => d.status !== 'pending')

const rename = (id: number, nickName: string) =>
  ok(as(t.adminToken)('PUT', '/api/user/update', { body: { id, nickName, status: 1 } }))

describe('webhooks deliver what their owner may read', () => {
  it('a scoped owner hears of users in reach only, the rest withheld; a company-wide owner hears all', async () => {
    const scoped = await hook(c.scoped.token, mine.url)
    await hook(t.adminToken, theirs.url)
    const n = Date.now().toString(36)
    await rename(c.inside, `inside_${n}`)
    await rename(c.outside, `outside_${n}`)
    await rename(c.straddler, `straddler_${n}`)
    await waitFor(() => heard(theirs).length >= 3)
    await waitFor(() => settled(scoped.id))
    expect(heard(theirs).sort()).toEqual([c.inside, c.outside, c.straddler].sort())
    expect(heard(mine).sort()).toEqual([c.inside, c.straddler].sort())
    const statuses = (await deliveries(scoped.id)).map((d) => [Number(d.user_id), d.status])
    expect(statuses).toContainEqual([c.outside, 'withheld'])
    expect(statuses.filter(([, s]) => s === 'succeeded')).toHaveLength(2)
    // the delivery log says so to the owner
    const log = await ok(as(c.scoped.token)('POST', '/api/webhook/deliveries', { body: { id: scoped.id } }))
    expect(log.list.map((d: { status: string }) => d.status)).toContain('withheld')
  })

  it('is judged when sent: a withheld event redelivered once its user is in reach goes out', async () => {
    const scoped = await hook(c.scoped.token, mine.url)
    const before = mine.received.length
    await rename(c.unplaced, `unplaced_${Date.now().toString(36)}`)
    await waitFor(() => settled(scoped.id))
    const [withheld] = (await deliveries(scoped.id)).filter((d) => d.status === 'withheld')
    expect(withheld).toBeDefined()
    expect(mine.received.length).toBe(before)
    // the user takes a position in A2: now in the owner's reach
    await ok(
      as(t.adminToken)('PUT', '/api/rel/position-rel-user', {
        body: { positionId: c.posA2, userIds: String(c.unplaced) },
      }),
    )
    await ok(as(c.scoped.token)('PUT', '/api/webhook/redeliver', { query: { deliveryId: withheld.id } }))
    await waitFor(() => heard(mine).includes(c.unplaced))
    await ok(
      as(t.adminToken)('PUT', '/api/rel/user-un-rel-position', {
        body: { userId: c.unplaced, positionId: c.posA2 },
      }),
    )
  })

  it('the one who changes an endpoint becomes its owner: a scoped administrator cannot redirect a company-wide one', async () => {
    const admin = await hook(t.adminToken, theirs.url)
    // the scoped administrator points the admin's endpoint at their own receiver
    await ok(
      as(c.scoped.token)('PUT', '/api/webhook/update', {
        body: {
          id: admin.id,
          name: 'redirected',
          url: mine.url,
          eventTypes: ['user.updated'],
          enabled: true,
        },
      }),
    )
    const owner = await queryRows<{ owner_user_id: number }>(
      t.db,
      sql`select owner_user_id from webhook_endpoints where id = ${admin.id}`,
    )
    expect(Number(owner[0].owner_user_id)).toBe(c.scoped.id)
    const before = heard(mine).length
    await rename(c.outside, `outside_${Date.now().toString(36)}`)
    await waitFor(() => settled(admin.id))
    expect(heard(mine).slice(before)).not.toContain(c.outside)
    expect((await deliveries(admin.id)).at(-1)!.status).toBe('withheld')
  })
})
