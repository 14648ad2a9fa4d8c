import { bigint, index, integer, jsonb, pgTable, smallint, timestamp, varchar } from 'drizzle-orm/pg-core'

/** One change of an operation: a field's before and after, or the links added and removed (DESIGN.md §9). */
export type AuditChange =
  | { field: string; before: unknown; after: unknown; target?: AuditRef }
  | { field: 'links'; added: AuditRef[]; removed: AuditRef[]; target?: AuditRef }

/** A row change staged by the audit triggers in a write's transaction (migration 0007). */
export interface StagedChange {
  table: string
  op: 'INSERT' | 'UPDATE' | 'DELETE'
  old?: Record<string, unknown> | null
  new?: Record<string, unknown> | null
  /** the record's name when no column of its own holds it (a position: department-job title) */
  name?: string | null
  /** a link row's two records' names, by column, as they were when the link changed */
  names?: Record<string, string | null>
}

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
    /** described changes: rows written before the triggers staged whole rows, and refusals (empty) */
    changes: jsonb('changes').$type<AuditChange[]>().notNull().default([]),
    /**
     * What the write changed, as its triggers staged it (migration 0007): the rows before and after,
     * secrets left out, with the names of linked records at the time. Described when read
     * (audit/changes.ts), so the write pays one insert and nothing more.
     */
    rowChanges: jsonb('row_changes').$type<StagedChange[]>(),
  },
  // ascending indexes: scanned backwards they give exactly `order by time desc, id desc` (NULLS FIRST)
  (t) => [
    index('operation_logs_time_idx').on(t.time, t.id),
    // text_pattern_ops: the operator and summary filters match from the start (LIKE 'x%')
    index('operation_logs_operator_time_idx').on(t.operatorName.op('text_pattern_ops'), t.time),
    // the filter by operator id (two look-alike names told apart, migration 0013)
    index('operation_logs_operator_id_time_idx').on(t.operatorId, t.time),
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
