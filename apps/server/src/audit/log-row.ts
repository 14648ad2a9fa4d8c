import type { FastifyRequest } from 'fastify'
import { sql } from 'drizzle-orm'
import { resourceOfGroup } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { operationLogs, type AuditChange, type StagedChange } from '../db/audit-schema'
import { actionName, mayRename } from './action-name'
import { describeChanges } from './changes'
import { draftEvents, readStaged, withEvents } from '../events/outbox'
import type { ChangeEventDraft } from '../events/derive'

/**
 * One row of the operation log (DESIGN.md §9): what it says of the request — its route, the record it
 * is about, its precise name — and its insert, which takes the staged rows and the change events along.
 */

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

/**
 * What a handler tells its own row that the route and the staged rows cannot: a dry run's name
 * (导入用户（仅校验）), the file an import read, the user a two-step change is about (its tables stage
 * nothing) and that change. Set by the handler before it answers; read for a success row only.
 */
export interface AuditNote {
  summary?: string
  msg?: string
  resourceId?: string
  changes?: AuditChange[]
}

interface RouteFacts {
  summary: string | null
  resourceType: string | null
}

/** The route's summary and group name, from its description in the contract (lib/route.ts). */
export const routeFacts = (req: FastifyRequest): RouteFacts => {
  const description = req.routeOptions.config.route
  return { summary: description?.summary ?? null, resourceType: description?.group ?? null }
}

export async function writeRow(
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
  const note = row.result === 'success' ? req.auditNote : undefined
  const values = {
    operatorId: req.user?.id ?? null,
    operatorName: req.user?.nickName ?? null,
    ip: req.ip?.slice(0, 64) ?? null,
    userAgent: (req.headers['user-agent'] ?? '').slice(0, 512) || null,
    method: req.method,
    path: req.url.split('?')[0].slice(0, 512),
    summary: note?.summary ?? summary,
    resourceType: facts.resourceType,
    resourceId: note?.resourceId ?? resourceIdOf(req, row.answer),
    result: row.result,
    status: row.status,
    msg: (note?.msg ?? row.msg)?.slice(0, 512) ?? null,
    ...(note?.changes ? { changes: note.changes } : {}),
  }
  return insertLogRow(db, values, drafts)
}

type LogRowValues = Omit<typeof operationLogs.$inferInsert, 'id' | 'time' | 'rowChanges'>

/**
 * Inserts a log row with what this transaction's triggers staged (migration 0007; a refusal's own
 * transaction staged nothing) and, in the same statement, the change events and their deliveries
 * (events/outbox.ts); answers how many deliveries it wrote.
 */
export async function insertLogRow(
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
        resource_type, resource_id, result, status, msg, changes, row_changes)
      values (${values.operatorId}, ${values.operatorName}, ${values.ip}, ${values.userAgent},
        ${values.method}, ${values.path}, ${values.summary}, ${values.resourceType}, ${values.resourceId},
        ${values.result}, ${values.status}, ${values.msg}, ${JSON.stringify(values.changes ?? [])}::jsonb, ${staged})
      returning (select count(*) from delivered) as deliveries`,
  )
  return Number(written?.deliveries ?? 0)
}

/**
 * The log row of a change the server makes on its own, on a timer (an expiry, a sweep): no operator
 * and no client made it, and it succeeded.
 */
export const insertSystemLogRow = (
  db: DbOrTx,
  row: Pick<LogRowValues, 'method' | 'path' | 'summary' | 'resourceType' | 'resourceId' | 'msg'>,
  drafts: readonly ChangeEventDraft[],
): Promise<number> =>
  insertLogRow(
    db,
    {
      operatorId: null,
      operatorName: null,
      ip: null,
      userAgent: null,
      ...row,
      result: 'success',
      status: 200,
    },
    drafts,
  )

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
