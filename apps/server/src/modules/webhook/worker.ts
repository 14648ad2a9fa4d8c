import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { WEBHOOK_MSG } from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import type { Caller } from '../../auth/user-scope'
import { readableEvents } from '../../events/readable'
import { send, type AttemptOutcome } from './send'

/**
 * The webhook worker (DESIGN.md §17): one on every instance. Each round claims a batch of due
 * deliveries with FOR UPDATE SKIP LOCKED — instances sharing a PostgreSQL database never claim the
 * same one — and pushes each claimed delivery's next attempt past a lease before sending. A worker that
 * dies mid-send leaves its deliveries due again once the lease runs out: at least once, never lost.
 */

/** Waits after the 1st, 2nd, … failed attempt, in seconds: growing, about a day in all. */
export const RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 3600, 3 * 3600, 6 * 3600, 12 * 3600]
/** A receiver's Retry-After is honoured up to this. */
const MAX_DELAY_SECONDS = 24 * 3600
/** An endpoint failing without a success for this long is disabled and flagged. */
export const DISABLE_AFTER_MS = 3 * 24 * 3600 * 1000
const BATCH = 20

interface Claimed {
  id: number
  endpoint_id: number
  webhook_id: string
  event_type: string
  attempts: number
  payload: Record<string, unknown>
  event_id: number | string | null
  at: string | Date
  url: string
  secret: string
  previous_secret: string | null
  secret_rotated_at: string | Date | null
  /** who last chose where the endpoint delivers; null: made before owners were kept (hears everything) */
  owner_user_id: number | null
}

export interface WorkerOptions {
  intervalMs: number
  allowPrivate: boolean
  /** every wait between attempts is multiplied by this (tests shrink it) */
  retryScale: number
  /** how long a claimed delivery is this worker's: longer than an attempt can take (10 s timeout) */
  leaseSeconds: number
  /** the owner as a reader of events, with their scope as it is now (DESIGN.md §13) */
  readerOf: (ownerId: number) => Promise<Caller>
}

/** The body a receiver gets: the Standard Webhooks shape `{ type, timestamp, data }`, with the event id. */
export const messageBody = (d: Pick<Claimed, 'event_type' | 'event_id' | 'payload' | 'at'>) =>
  JSON.stringify({
    type: d.event_type,
    timestamp: new Date(d.at).toISOString(),
    // a bigint column: node-postgres reads it as text, PGlite as a number; receivers get a number
    eventId: d.event_id === null ? null : Number(d.event_id),
    data: d.payload,
  })

export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null
  private round: Promise<void> | null = null
  /** a poke came during a round: another round follows at once */
  private again = false
  private stopped = false

  constructor(
    private readonly db: Db,
    private readonly options: WorkerOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.stopped = false
    this.schedule()
  }

  /** Stops taking work and waits for the round under way, so the app closes with no send half-recorded. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.round
  }

  /**
   * Runs a round now: a write that committed deliveries, the test call and a redelivery want their
   * send without waiting for the timer. During a round, the next one follows it at once.
   */
  poke(): void {
    if (this.stopped) return
    if (this.round) {
      this.again = true
      return
    }
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.run()
  }

  private schedule() {
    if (this.stopped) return
    this.timer = setTimeout(() => this.run(), this.options.intervalMs)
    this.timer.unref()
  }

  private run() {
    this.timer = null
    this.round = this.once()
      .then(() => undefined)
      .catch((err: Error) => this.log.error({ err: { message: err.message } }, 'webhook round failed'))
      .finally(() => {
        this.round = null
        if (this.again && !this.stopped) {
          this.again = false
          this.run()
        } else this.schedule()
      })
  }

  /** One round: claim, send each claimed delivery at once, record each outcome. Answers how many were sent. */
  async once(): Promise<number> {
    const claimed = await this.claim()
    const { shown, withheld } = await this.withinReach(claimed)
    await Promise.all([...shown.map((d) => this.attempt(d)), ...withheld.map((d) => this.withhold(d))])
    return claimed.length
  }

  /**
   * Each claimed event as its endpoint's owner may read it now (events/readable.ts): narrowed, or
   * withheld when the owner may not read it. Test pings carry no event and always go.
   */
  private async withinReach(claimed: Claimed[]): Promise<{ shown: Claimed[]; withheld: Claimed[] }> {
    const byOwner = new Map<number, Claimed[]>()
    for (const d of claimed)
      if (d.owner_user_id !== null && d.event_id !== null) {
        const owner = Number(d.owner_user_id)
        byOwner.set(owner, [...(byOwner.get(owner) ?? []), d])
      }
    const judged = new Map<Claimed, Claimed | null>()
    for (const [owner, deliveries] of byOwner) {
      const reader = await this.options.readerOf(owner)
      const readable = await readableEvents(
        this.db,
        reader,
        deliveries.map((d) => ({ type: d.event_type, payload: d.payload, d })),
      )
      for (const d of deliveries) judged.set(d, null)
      for (const { payload, d } of readable) judged.set(d, { ...d, payload })
    }
    const shown: Claimed[] = []
    const withheld: Claimed[] = []
    for (const d of claimed) {
      const seen = judged.has(d) ? judged.get(d) : d
      if (seen) shown.push(seen)
      else withheld.push(d)
    }
    return { shown, withheld }
  }

  /** A delivery its owner may not read: recorded as withheld, never sent, no attempt counted against the endpoint. */
  private async withhold(d: Claimed): Promise<void> {
    await this.db.execute(
      sql`update webhook_deliveries set status = 'withheld', next_attempt_at = null where id = ${d.id}`,
    )
  }

  private claim(): Promise<Claimed[]> {
    return queryRows<Claimed>(
      this.db,
      sql`
        with due as (
          select d.id from webhook_deliveries d
            join webhook_endpoints e on e.id = d.endpoint_id
           where d.status = 'pending' and d.next_attempt_at <= now()
             and (e.enabled or d.event_type = 'webhook.test')
           order by d.next_attempt_at, d.id
           limit ${BATCH}
           for update of d skip locked
        ), claimed as (
          update webhook_deliveries d
             set next_attempt_at = now() + make_interval(secs => ${this.options.leaseSeconds}), attempts = d.attempts + 1
            from due where d.id = due.id
          returning d.*
        )
        select c.id, c.endpoint_id, c.webhook_id, c.event_type, c.attempts, c.event_id,
               coalesce(ev.payload, c.payload, '{}'::jsonb) as payload,
               coalesce(ev.created_at, c.create_time) as at,
               e.url, e.secret, e.owner_user_id,
               case when e.secret_rotated_at > now() - interval '1 day' then e.previous_secret end as previous_secret,
               e.secret_rotated_at
          from claimed c
          join webhook_endpoints e on e.id = c.endpoint_id
          left join events ev on ev.id = c.event_id`,
    )
  }

  private async attempt(d: Claimed): Promise<void> {
    const outcome = await send(
      {
        url: d.url,
        webhookId: d.webhook_id,
        body: messageBody(d),
        secrets: [d.secret, ...(d.previous_secret ? [d.previous_secret] : [])],
      },
      this.options.allowPrivate,
    )
    await this.record(d, outcome)
  }

  /** The wait before the next attempt after `attempts` failed ones, or null when the day is used up. */
  private delaySeconds(attempts: number, outcome: AttemptOutcome): number | null {
    const scheduled = RETRY_DELAYS_SECONDS[attempts - 1]
    if (scheduled === undefined) return null
    const wanted = Math.min(Math.max(scheduled, outcome.retryAfterSeconds ?? 0), MAX_DELAY_SECONDS)
    return wanted * this.options.retryScale
  }

  private async record(d: Claimed, outcome: AttemptOutcome): Promise<void> {
    const delay = outcome.ok ? null : this.delaySeconds(d.attempts, outcome)
    const status = outcome.ok ? 'succeeded' : delay === null ? 'failed' : 'pending'
    // the delivery, its attempt and the endpoint's health in one statement
    await this.db.execute(sql`
      with delivery as (
        update webhook_deliveries
           set status = ${status},
               next_attempt_at = ${delay === null ? null : sql`now() + make_interval(secs => ${delay})`},
               last_status_code = ${outcome.statusCode},
               last_duration_ms = ${outcome.durationMs},
               last_response = ${outcome.response},
               last_attempt_at = now()
         where id = ${d.id}
        returning id
      ), attempt as (
        insert into webhook_attempts (delivery_id, attempt, status_code, duration_ms, response)
        select id, ${d.attempts}, ${outcome.statusCode}, ${outcome.durationMs}, ${outcome.response} from delivery
      )
      update webhook_endpoints
         set ${
           outcome.ok
             ? sql`failing_since = null`
             : sql`failing_since = coalesce(failing_since, now()),
                   enabled = enabled and coalesce(failing_since, now()) > now() - make_interval(secs => ${DISABLE_AFTER_MS / 1000}),
                   disabled_reason = case
                     when enabled and coalesce(failing_since, now()) <= now() - make_interval(secs => ${DISABLE_AFTER_MS / 1000})
                     then ${WEBHOOK_MSG.disabledFailing} else disabled_reason end`
         }
       where id = ${d.endpoint_id} and ${d.event_type} <> 'webhook.test'`)
    if (!outcome.ok)
      this.log.warn(
        { webhookId: d.webhook_id, attempt: d.attempts, status: outcome.statusCode },
        'webhook delivery attempt failed',
      )
  }
}
