import { sql, type SQL } from 'drizzle-orm'
import { ALL_EVENTS } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { textArray } from '../db/sql-arrays'
import type { StagedChange } from '../db/audit-schema'
import { usersAffected } from './access'
import { deriveEvents, touchesAccess, type ChangeEventDraft } from './derive'

/** What a write's transaction staged: its rows (audit triggers) and any events a module staged. */
export interface Staged {
  rows: StagedChange[]
  events: ChangeEventDraft[]
}

/** Reads both staged settings in one round trip (the operation log's writer needs the rows too). */
export async function readStaged(db: DbOrTx): Promise<Staged> {
  const [row] = await queryRows<{ staged: string | null; events: string | null }>(
    db,
    sql`select nullif(current_setting('amg.staged', true), '') as staged,
               nullif(current_setting('amg.events', true), '') as events`,
  )
  const parse = <T>(text: string | null | undefined): T[] => {
    if (!text) return []
    try {
      return JSON.parse(text) as T[]
    } catch {
      return []
    }
  }
  return { rows: parse<StagedChange>(row?.staged), events: parse<ChangeEventDraft>(row?.events) }
}

/**
 * The outbox (DESIGN.md §17): the events of one write, written in its transaction by the operation
 * log's writer — the one place every change passes — so a change, its log row and its events commit
 * together or not at all. `draftEvents` finds them (and, when access may have changed, whose);
 * `withEvents` is the WITH clause that writes them and, for every enabled endpoint subscribed to each,
 * its delivery, due at once: the writer puts it in front of the log row's insert, so the events cost
 * the write no statement of their own. The worker (modules/webhook/worker.ts) sends them after commit.
 */
export async function draftEvents(db: DbOrTx, staged: Staged): Promise<ChangeEventDraft[]> {
  const { drafts, touch } = deriveEvents(staged.rows)
  drafts.push(...staged.events)
  if (touchesAccess(touch)) {
    const userIds = await usersAffected(db, touch)
    if (userIds.length) drafts.push({ type: 'user.access.changed', payload: { userIds } })
  }
  return drafts
}

/** `with written as (…), delivered as (…)`: the drafts' events and deliveries; `delivered` has a row per delivery. */
export function withEvents(drafts: readonly ChangeEventDraft[]): SQL {
  const types = drafts.map((d) => d.type)
  const payloads = drafts.map((d) => JSON.stringify(d.payload))
  return sql`
    with written as (
      insert into events (type, payload)
      select t, p::jsonb from unnest(${textArray(types)},
                                     ${textArray(payloads)}) with ordinality as x(t, p, n)
      order by n
      returning id, type
    ), delivered as (
      insert into webhook_deliveries (endpoint_id, event_id, event_type, webhook_id, next_attempt_at)
      select e.id, w.id, w.type, 'msg_' || w.id || '_' || e.id, now()
        from written w
        join webhook_endpoints e on e.enabled and (w.type = any(e.event_types) or ${ALL_EVENTS} = any(e.event_types))
      returning 1
    )`
}
