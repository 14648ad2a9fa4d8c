import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { clonePgDatabase } from './helpers/app'
import { startHoldingReceiver, type Received } from './helpers/receiver'
import { startServer } from './helpers/server-process'

/**
 * DESIGN.md §17, at least once through a crash: the real server (its own process) is killed with
 * SIGKILL while a receiver holds a delivery unanswered, then started again on the same database
 * (the embedded data directory, or the PostgreSQL database). Every event is delivered in the end;
 * the one that was in flight comes again with the same webhook-id and body; every message verifies
 * with the convention's own package. The claimed delivery is due again once its lease runs out: the
 * shortest the configuration allows (15 s, WEBHOOK_LEASE_SECONDS) rather than the default minute.
 */
const engine = inject('pgTemplate') ? 'PostgreSQL' : 'PGlite'

interface Message {
  webhookId: string
  eventId: number
  data: { id: number }
}

describe(`a server killed mid-delivery (${engine})`, () => {
  it('delivers every event after a restart, the one in flight again with its webhook-id', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-hook-crash-'))
    const clone = inject('pgTemplate') ? await clonePgDatabase() : undefined
    const env = {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_WORKER_INTERVAL_MS: '100',
      WEBHOOK_LEASE_SECONDS: '15',
      ...(clone ? { DATABASE_URL: clone.url } : {}),
    }
    const receiver = await startHoldingReceiver()
    let server = await startServer(env, { dataDir })
    try {
      let token = await server.login()
      const call = async <T>(method: string, url: string, body?: unknown) => {
        const res = await fetch(`${server.base}${url}`, {
          method,
          headers: { 'content-type': 'application/json', 'x-auth-token': token },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
        expect(res.status, url).toBe(200)
        return ((await res.json()) as { data: T }).data
      }
      const hook = await call<{ id: number; secret: string }>('POST', '/webhook/insert', {
        name: 'crash',
        url: receiver.url,
        eventTypes: ['user.created'],
        enabled: true,
      })
      const created: number[] = []
      const newUser = async (nickName: string) =>
        created.push(await call<number>('POST', '/user/insert', { nickName }))

      // the first deliveries reach the receiver, which does not answer: they are in flight
      for (let i = 0; i < 3; i++) await newUser(`crash_a${i}`)
      await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1)
      // more changes while the worker waits on the receiver: their deliveries are due, not yet sent
      for (let i = 0; i < 2; i++) await newUser(`crash_b${i}`)
      const inFlight = receiver.received.map((r) => r.headers['webhook-id'])

      await server.kill()
      expect(server.alive()).toBe(false)
      receiver.release()

      server = await startServer(env, { dataDir })
      token = await server.login()
      const messages = () => receiver.received.map((r) => parse(r, hook.secret))
      const deliveredUsers = () => new Set(messages().map((m) => m.data.id))
      // every change's event arrives (the one in flight once its lease has run out)
      await expect
        .poll(() => created.filter((id) => !deliveredUsers().has(id)), { timeout: 120_000, interval: 250 })
        .toEqual([])
      await expect
        .poll(
          () =>
            inFlight.filter(
              (id) => receiver.received.filter((r) => r.headers['webhook-id'] === id).length < 2,
            ),
          {
            timeout: 120_000,
            interval: 250,
          },
        )
        .toEqual([])

      // the same message again: one webhook-id per event, and a retried one's body unchanged
      const events = (
        await call<{ list: { id: number; payload: { id: number } }[] }>(
          'GET',
          '/events?types=user.created&limit=100',
        )
      ).list
      expect(numeric(events.map((e) => e.payload.id))).toEqual(numeric(created))
      const all = messages()
      // the body's eventId is a number on either engine, the event's own id
      expect(numeric([...new Set(all.map((m) => m.eventId))])).toEqual(numeric(events.map((e) => e.id)))
      for (const event of events) {
        expect(new Set(all.filter((m) => m.eventId === event.id).map((m) => m.webhookId)).size).toBe(1)
      }
      for (const id of inFlight) {
        const bodies = receiver.received.filter((r) => r.headers['webhook-id'] === id).map((r) => r.body)
        expect(new Set(bodies).size).toBe(1)
      }
      // and the delivery log agrees: each delivered
      const deliveries = await call<{ list: { webhookId: string; status: string }[] }>(
        'POST',
        '/webhook/deliveries',
        { id: hook.id, pageNum: 1, pageSize: 50 },
      )
      await expect
        .poll(
          async () =>
            (
              await call<{ list: { status: string }[] }>('POST', '/webhook/deliveries', {
                id: hook.id,
                pageNum: 1,
                pageSize: 50,
              })
            ).list.map((d) => d.status),
          { timeout: 15_000 },
        )
        .toEqual(Array(created.length).fill('succeeded'))
      expect(deliveries.list).toHaveLength(created.length)
    } finally {
      await server.stop()
      await receiver.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
      await clone?.drop()
    }
  }, 240_000)
})

/** A received message, verified with the endpoint's secret by the Standard Webhooks package (throws if not). */
function parse(received: Received, secret: string): Message {
  const body = new Webhook(secret).verify(received.body, received.headers) as Omit<Message, 'webhookId'>
  return { ...body, webhookId: received.headers['webhook-id'] }
}

const numeric = (xs: number[]) => [...xs].sort((a, b) => a - b)
