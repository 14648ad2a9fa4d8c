import { sql } from 'drizzle-orm'
import type { FastifyPluginAsync } from 'fastify'
import { LINK_EXPIRY_MSG } from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import { insertSystemLogRow } from '../../audit/log-row'
import { draftEvents, readStaged } from '../../events/outbox'
import { stageEvents } from '../../events/stage'
import type { ChangeEventDraft } from '../../events/derive'

/**
 * The sweeper of expiring links (DESIGN.md §20). An expired link decides nothing from its expiry on
 * (auth/reach.ts, the access cache's earliest expiry); this only tidies the rows away later, with an
 * operation-log row 到期移除 and a `grant.expired` event per link. One statement deletes and answers
 * what it deleted, so instances sweeping at once each remove (and log) a link at most once: the
 * second waits on the first's row locks and finds the rows gone.
 */

type SweptRow = {
  kind: 'role' | 'group' | 'position'
  user_id: number
  other_id: number
  expires_at: string | Date
}

/** The link names of change events (events/derive.ts): the registry's first side first. */
const LINK_NAME = { role: 'user-role', group: 'group-user', position: 'position-user' } as const

/** What the operation log names as the sweep's call: no route makes it. */
const SWEEP_CALL = { method: 'DELETE', path: '/rel/expired-links', resourceType: 'user' } as const

/** Deletes every expired link, logs and announces them; answers how many went. */
export async function sweepExpiredLinks(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await queryRows<SweptRow>(
      tx,
      sql`with r as (delete from user_roles where expires_at <= now()
                     returning 'role' as kind, user_id, role_id as other_id, expires_at),
               g as (delete from user_group_users where expires_at <= now()
                     returning 'group' as kind, user_id, group_id as other_id, expires_at),
               p as (delete from position_users where expires_at <= now()
                     returning 'position' as kind, user_id, position_id as other_id, expires_at)
          select * from r union all select * from g union all select * from p`,
    )
    if (rows.length === 0) return 0
    const drafts: ChangeEventDraft[] = rows.map((r) => ({
      type: 'grant.expired',
      payload: {
        link: LINK_NAME[r.kind],
        userId: Number(r.user_id),
        [`${r.kind}Id`]: Number(r.other_id),
        expiresAt: new Date(r.expires_at).toISOString(),
      },
    }))
    await stageEvents(tx, drafts)
    await insertSystemLogRow(
      tx,
      {
        ...SWEEP_CALL,
        summary: LINK_EXPIRY_MSG.sweptAction,
        resourceId: rows.length === 1 ? String(rows[0].user_id) : null,
        msg: `移除 ${rows.length} 条已到期的关联`,
      },
      await draftEvents(tx, await readStaged(tx)),
    )
    return rows.length
  })
}

/** Sweeps on every instance once ready, then every `linkSweepSeconds` (0: never). */
export const linkSweeper: FastifyPluginAsync = async (app) => {
  const { database, config, deliveriesCommitted } = app.ctx
  const every = config.linkSweepSeconds
  if (every <= 0) return
  let running = false
  const sweep = async () => {
    if (running) return
    running = true
    try {
      // the events' deliveries go out at once, as a request's do
      if ((await sweepExpiredLinks(database.db)) > 0) deliveriesCommitted.notify()
    } catch (err) {
      app.log.error({ err: { message: (err as Error).message } }, 'expired link sweep failed')
    } finally {
      running = false
    }
  }
  const timer = setInterval(() => void sweep(), every * 1000)
  timer.unref()
  app.addHook('onReady', async () => void sweep())
  app.addHook('onClose', async () => clearInterval(timer))
}
