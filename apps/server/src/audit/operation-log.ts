import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { sql } from 'drizzle-orm'
import { queryRows, type Db, type DbOrTx } from '../db/connection'
import { runInTransaction } from '../db/request-transaction'
import { currentUser } from '../lib/context'
import { mayWrite, type RouteKindConfig } from '../lib/route-kind'
import { addOnSend, routeMethods } from '../lib/route-hooks'
import { AnonymousRefusals } from './anonymous-refusals'
import { insertLogRow, routeFacts, writeRow, type AuditNote } from './log-row'
import { draftEvents, readStaged } from '../events/outbox'
import type { DeliveriesCommitted } from '../events/committed'

/**
 * The operation log (DESIGN.md §9). Every write route's handler is wrapped, once, when the route
 * is registered: it runs in one transaction, and its log row — with the rows it changed, as the
 * audit triggers staged them (described when read: audit/changes.ts) — is written in that same
 * transaction, by one insert that takes the staged rows where the triggers left them. A module cannot forget to log, and a
 * crash can never leave a change without its row or a row without its change. Writes refused with
 * 401, 403 or 409, and failures (5xx), get a row of their own before the answer leaves — except
 * anonymous ones (401 without a session), which share one row per source and minute.
 */

export type { AuditNote } from './log-row'

/** Which routes are writes: any method but GET/HEAD, unless public (sign-in has its own log) or marked read-only. */
export const isAuditedWrite = (method: string, config: RouteKindConfig | undefined) =>
  mayWrite(method, config) && config?.access !== 'public'

/** The msg of an answer on its way out (the envelope as JSON text; a SCIM error's `detail`). */
function msgOf(payload: unknown): string | null {
  if (typeof payload !== 'string') return null
  try {
    const answer = JSON.parse(payload) as { msg?: unknown; detail?: unknown }
    const msg = answer.msg ?? answer.detail
    return typeof msg === 'string' ? msg : null
  } catch {
    return null
  }
}

/** The operation log needs every connection to stage changes (db/connection.ts `stageAuditRows`). */
async function requireStaging(db: Db): Promise<void> {
  const [row] = await queryRows<{ on: string | null }>(
    db,
    sql`select current_setting('amg.audit', true) as on`,
  )
  if (row?.on !== 'on')
    throw new Error(
      'the database was opened without stageAuditRows: the operation log would miss every change',
    )
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set once the operation's row is written (the success row, in the change's own transaction) */
    auditLogged?: boolean
    /** what the handler adds to its success row (AuditNote) */
    auditNote?: AuditNote
  }
}

export function installOperationLog(
  api: FastifyInstance,
  db: Db,
  outbox: { events: boolean; committed: DeliveriesCommitted },
) {
  const anonymous = new AnonymousRefusals(db, (err) =>
    api.log.error({ err: { message: err.message } }, 'operation log row of anonymous refusals not written'),
  )
  api.addHook('onRoute', (route: RouteOptions) => {
    if (!routeMethods(route).some((m) => isAuditedWrite(m, route.config as never))) return
    const handler = route.handler
    route.handler = async function audited(this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      let deliveries = 0
      const answer = await db.transaction(async (tx) =>
        runInTransaction(tx, async () => {
          const answer = await handler.call(this, req, reply)
          const msg = (answer as { msg?: unknown } | undefined)?.msg
          deliveries = await writeRow(
            tx,
            req,
            {
              result: 'success',
              status: reply.statusCode,
              msg: typeof msg === 'string' ? msg : null,
              answer,
            },
            outbox.events,
          )
          req.auditLogged = true
          return answer
        }),
      )
      // committed: the worker sends them now, not at its next round
      if (deliveries > 0) outbox.committed.notify()
      return answer
    }
    // Refusals and failures: the change rolled back (or never started), so the row stands alone.
    // A callback hook, so that the usual case (a logged write) passes without a promise.
    addOnSend(route, (req, reply, payload, done) => {
      if (req.auditLogged || !isAuditedWrite(req.method, req.routeOptions.config as never))
        return done(null, payload)
      const status = reply.statusCode
      // Without a session: one row per source and minute, counting them (audit/anonymous-refusals.ts).
      if (status === 401 && !req.user) {
        const first = anonymous.record(req.ip ?? '', () => ({
          userAgent: req.headers['user-agent'] ?? null,
          method: req.method,
          path: req.url.split('?')[0],
          ...routeFacts(req),
          status,
          msg: msgOf(payload) ?? '',
        }))
        req.auditLogged = true
        return first ? void first.then(() => done(null, payload)) : done(null, payload)
      }
      const result =
        status === 401 || status === 403 || status === 409 ? 'denied' : status >= 500 ? 'failed' : null
      if (!result) return done(null, payload)
      void writeRefusal(req, status, result, payload).then(() => done(null, payload))
    })
  })

  api.addHook('onReady', async () => requireStaging(db))
  api.addHook('onClose', async () => anonymous.close())

  async function writeRefusal(
    req: FastifyRequest,
    status: number,
    result: 'denied' | 'failed',
    payload: unknown,
  ) {
    try {
      await writeRow(db, req, { result, status, msg: msgOf(payload) })
      req.auditLogged = true
    } catch (err) {
      req.log.error({ err: { message: (err as Error).message } }, 'operation log row not written')
    }
  }
}

/** Who started a background job and from where: what its batches' log rows name. */
export interface JobOrigin {
  operatorId: number
  operatorName: string | null
  ip: string | null
  userAgent: string | null
  method: string
  path: string
  resourceType: string | null
}

/** A job started by this request of the signed-in user, its rows filed under `resourceType`. */
export const jobOriginOf = (req: FastifyRequest, resourceType: string | null): JobOrigin => ({
  operatorId: currentUser(req).id,
  operatorName: currentUser(req).nickName ?? null,
  ip: req.ip ?? null,
  userAgent: req.headers['user-agent'] ?? null,
  method: req.method,
  path: req.url.split('?')[0],
  resourceType,
})

/**
 * The log row of one batch of a background job (an import, DESIGN.md §15): written in the batch's
 * own transaction with the changes its triggers staged and the events they make, as a request's row
 * is, so a batch and its row commit together or not at all.
 */
export async function writeJobRow(
  tx: DbOrTx,
  origin: JobOrigin,
  row: { summary: string; resourceId: string | null; msg: string },
): Promise<void> {
  const drafts = await draftEvents(tx, await readStaged(tx))
  await insertLogRow(
    tx,
    {
      ...origin,
      ip: origin.ip?.slice(0, 64) ?? null,
      userAgent: origin.userAgent?.slice(0, 512) || null,
      summary: row.summary,
      resourceId: row.resourceId,
      result: 'success',
      status: 200,
      msg: row.msg.slice(0, 512),
    },
    drafts,
  )
}
