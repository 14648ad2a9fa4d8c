import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { sql } from 'drizzle-orm'
import { queryRows, type Db, type DbOrTx } from '../db/connection'
import { operationLogs } from '../db/audit-schema'
import { runInTransaction } from '../db/request-transaction'
import { mayWrite, type RouteKindConfig } from '../lib/route-kind'
import { addOnSend, routeMethods } from '../lib/route-hooks'
import { resourceOfGroup } from '@amg/contract'
import type { StagedChange } from '../db/audit-schema'
import { AnonymousRefusals } from './anonymous-refusals'
import { actionName, mayRename } from './action-name'
import { describeChanges } from './changes'
import { draftEvents, readStaged, withEvents } from '../events/outbox'
import type { ChangeEventDraft } from '../events/derive'
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

/** Which routes are writes: any method but GET/HEAD, unless public (sign-in has its own log) or marked read-only. */
export const isAuditedWrite = (method: string, config: RouteKindConfig | undefined) =>
  mayWrite(method, config) && config?.access !== 'public'

const RESOURCE_KEYS = [
  'id',
  'userId',
  'userGroupsId',
  'positionId',
  'roleId',
  'orgId',
  'stationId',
  'code',
  'authCode',
  'fileId',
  'positionIds',
]

/** The record an operation is about: the new id an insert answers, else the first id the request names. */
function resourceIdOf(req: FastifyRequest, answer: unknown): string | null {
  const data = (answer as { data?: unknown } | undefined)?.data
  if (typeof data === 'number' || typeof data === 'string') return String(data)
  for (const part of [req.body, req.query] as Record<string, unknown>[]) {
    if (!part || typeof part !== 'object') continue
    for (const key of RESOURCE_KEYS) {
      const value = part[key]
      if (typeof value === 'number' || (typeof value === 'string' && value !== ''))
        return String(value).slice(0, 128)
    }
  }
  return null
}

interface RouteFacts {
  summary: string | null
  resourceType: string | null
}

/** The route's summary and group name, from its description in the contract (lib/route.ts). */
const routeFacts = (req: FastifyRequest): RouteFacts => {
  const description = req.routeOptions.config.route
  return { summary: description?.summary ?? null, resourceType: description?.group ?? null }
}

async function writeRow(
  db: DbOrTx,
  req: FastifyRequest,
  row: {
    result: 'success' | 'denied' | 'failed'
    status: number
    msg: string | null
    answer?: unknown
  },
  events = true,
): Promise<number> {
  const facts = routeFacts(req)
  let summary = facts.summary
  let drafts: ChangeEventDraft[] = []
  if (row.result === 'success') {
    // what the change staged, read once: its name (冻结用户 …) and its events (DESIGN.md §17) come from it
    const staged = await readStaged(db)
    if (mayRename(facts.summary)) summary = preciseName(staged.rows, facts.summary, facts.resourceType)
    if (events) drafts = await draftEvents(db, staged)
  }
  const values = {
    operatorId: req.user?.id ?? null,
    operatorName: req.user?.nickName ?? null,
    ip: req.ip?.slice(0, 64) ?? null,
    userAgent: (req.headers['user-agent'] ?? '').slice(0, 512) || null,
    method: req.method,
    path: req.url.split('?')[0].slice(0, 512),
    summary,
    resourceType: facts.resourceType,
    resourceId: resourceIdOf(req, row.answer),
    result: row.result,
    status: row.status,
    msg: row.msg?.slice(0, 512) ?? null,
  }
  return insertLogRow(db, values, drafts)
}

type LogRowValues = Omit<typeof operationLogs.$inferInsert, 'id' | 'time' | 'rowChanges'>

/**
 * Inserts a log row with what this transaction's triggers staged (migration 0007; a refusal's own
 * transaction staged nothing) and, in the same statement, the change events and their deliveries
 * (events/outbox.ts); answers how many deliveries it wrote.
 */
async function insertLogRow(
  db: DbOrTx,
  values: LogRowValues,
  drafts: readonly ChangeEventDraft[],
): Promise<number> {
  const staged = sql`nullif(current_setting('amg.staged', true), '')::jsonb`
  if (drafts.length === 0) {
    await db.insert(operationLogs).values({ ...values, rowChanges: staged })
    return 0
  }
  const [written] = await queryRows<{ deliveries: number | string }>(
    db,
    sql`${withEvents(drafts)}
      insert into operation_logs (operator_id, operator_name, ip, user_agent, method, path, summary,
        resource_type, resource_id, result, status, msg, row_changes)
      values (${values.operatorId}, ${values.operatorName}, ${values.ip}, ${values.userAgent},
        ${values.method}, ${values.path}, ${values.summary}, ${values.resourceType}, ${values.resourceId},
        ${values.result}, ${values.status}, ${values.msg}, ${staged})
      returning (select count(*) from delivered) as deliveries`,
  )
  return Number(written?.deliveries ?? 0)
}

/** An update's or an enable's name from what it changed (audit/action-name.ts: 冻结用户, 重置密码 …). */
function preciseName(staged: StagedChange[], summary: string, group: string | null): string | null {
  if (staged.length === 0) return summary
  try {
    return actionName(summary, describeChanges(staged, resourceOfGroup(group)))
  } catch {
    // naming is a nicety: a change it cannot read keeps the route's name, never fails the write
    return summary
  }
}

/** The msg of an answer on its way out (the envelope as JSON text). */
function msgOf(payload: unknown): string | null {
  if (typeof payload !== 'string') return null
  try {
    const msg = (JSON.parse(payload) as { msg?: unknown }).msg
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
