import { sql } from 'drizzle-orm'
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core'

/** One change of an operation: a field's before and after, or the links added and removed (DESIGN.md §9). */
export type AuditChange =
  | { field: string; before: unknown; after: unknown; target?: AuditRef }
  | { field: 'links'; added: AuditRef[]; removed: AuditRef[]; target?: AuditRef }

/** A record named in a change: what it is, its id and its name at the time. */
export interface AuditRef {
  type: string
  id: number | string
  name: string | null
}

const at = () => timestamp('time', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

/** The operation log: a row for every write, written in the write's own transaction. Never edited. */
export const operationLogs = pgTable(
  'operation_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    time: at(),
    operatorId: integer('operator_id'),
    operatorName: varchar('operator_name', { length: 64 }),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 512 }),
    method: varchar('method', { length: 10 }).notNull(),
    path: varchar('path', { length: 512 }).notNull(),
    summary: varchar('summary', { length: 128 }),
    resourceType: varchar('resource_type', { length: 64 }),
    resourceId: varchar('resource_id', { length: 128 }),
    result: varchar('result', { length: 16 }).notNull(),
    status: smallint('status').notNull(),
    msg: varchar('msg', { length: 512 }),
    changes: jsonb('changes').$type<AuditChange[]>().notNull().default([]),
  },
  // ascending indexes: scanned backwards they give exactly `order by time desc, id desc` (NULLS FIRST)
  (t) => [
    index('operation_logs_time_idx').on(t.time, t.id),
    // text_pattern_ops: the operator and summary filters match from the start (LIKE 'x%')
    index('operation_logs_operator_time_idx').on(t.operatorName.op('text_pattern_ops'), t.time),
    index('operation_logs_summary_time_idx').on(t.summary.op('text_pattern_ops'), t.time),
    index('operation_logs_resource_time_idx').on(t.resourceType, t.time),
    index('operation_logs_result_time_idx').on(t.result, t.time),
  ],
)

/** Every sign-in attempt, sign-out and revocation. */
export const loginLogs = pgTable(
  'login_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    time: at(),
    nickName: varchar('nick_name', { length: 64 }),
    userId: integer('user_id'),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 512 }),
    result: varchar('result', { length: 16 }).notNull(),
    msg: varchar('msg', { length: 512 }),
  },
  (t) => [
    index('login_logs_time_idx').on(t.time, t.id),
    index('login_logs_nick_name_time_idx').on(t.nickName.op('text_pattern_ops'), t.time),
    index('login_logs_result_time_idx').on(t.result, t.time),
  ],
)

/**
 * Row changes of the running request's transaction, written by triggers and read back (then
 * deleted) before the transaction commits: how the operation log learns what a write changed
 * without any module describing it.
 */
export const auditChanges = pgTable('audit_changes', {
  seq: bigint('seq', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  tableName: text('table_name').notNull(),
  op: varchar('op', { length: 8 }).notNull(),
  oldRow: jsonb('old_row').$type<Record<string, unknown>>(),
  newRow: jsonb('new_row').$type<Record<string, unknown>>(),
  /**
   * the transaction that staged the row: a request takes only its own, so rows staged by a write
   * outside any request (the server's connections stage every audited change) are never taken for
   * another's, and the sweep clears them once their transaction has ended
   */
  tx: bigint('tx', { mode: 'number' })
    .notNull()
    .default(sql`txid_current()`),
})
