import { and, desc, eq } from 'drizzle-orm'
import { resourceOfGroup, zonedIso } from '@amg/contract'
import type { OperationLogDetail, OperationLogListBody, OperationLogRow, PageResult } from '@amg/contract'
import type { Db } from '../../db/connection'
import { operationLogs, type AuditChange, type StagedChange } from '../../db/audit-schema'
import { notFound } from '../../lib/errors'
import { pageTotal } from '../../lib/page-total'
import { describeChanges } from '../../audit/changes'
import { maskPersonalFields } from '../../audit/personal-fields'
import { resourceName } from '../../audit/resource-name'
import type { Caller } from '../../auth/user-scope'
import { operationFilters, rowsInScope } from './filters'

/** The operation log as the console reads it: the list and one row's detail. */

export const LOG_NOT_FOUND = '日志不存在'

export const rowColumns = {
  id: operationLogs.id,
  time: operationLogs.time,
  operatorId: operationLogs.operatorId,
  operatorName: operationLogs.operatorName,
  ip: operationLogs.ip,
  userAgent: operationLogs.userAgent,
  method: operationLogs.method,
  path: operationLogs.path,
  summary: operationLogs.summary,
  resourceType: operationLogs.resourceType,
  resourceId: operationLogs.resourceId,
  result: operationLogs.result,
  status: operationLogs.status,
  msg: operationLogs.msg,
}

export type RawRow = { time: Date } & Omit<OperationLogRow, 'time' | 'resourceName'>
/** A row as answered: its time in the server's zone (the contract's `zonedIso`). */
export const toRow = <T extends RawRow>(r: T, timeZone: string) => ({
  ...r,
  id: Number(r.id),
  time: zonedIso(r.time, timeZone),
})

/** POST /log/operation/list: newest first; past 10,000 matches the total is an estimate. */
export async function listOperations(
  db: Db,
  q: OperationLogListBody,
  timeZone: string,
  caller: Caller,
): Promise<PageResult<OperationLogRow> & { totalIsEstimate: boolean; timeZone: string }> {
  const where = operationFilters(q, caller)
  const pageSize = q.pageSize ?? 10
  const offset = ((q.pageNum ?? 1) - 1) * pageSize
  const rows = await db
    .select({ ...rowColumns, ...changeColumns })
    .from(operationLogs)
    .where(where)
    .orderBy(desc(operationLogs.time), desc(operationLogs.id))
    .limit(pageSize)
    .offset(offset)
  const list = rows.map(({ changes: _described, rowChanges: _staged, ...row }, i) => ({
    ...toRow(row, timeZone),
    resourceName: resourceNameOf(rows[i]),
  }))
  return { list, ...(await pageTotal(db, 'operation_logs', where)), timeZone }
}

/** A row's changes: what its triggers staged, described now; older rows were stored described. */
export const changeColumns = { changes: operationLogs.changes, rowChanges: operationLogs.rowChanges }
export type StoredChanges = {
  changes: AuditChange[]
  rowChanges: StagedChange[] | null
  resourceType: string | null
}
/**
 * What the reader may see of an operation's changes: `mayReadUsers` (personal-fields.ts) says
 * whether users' personal fields show or are masked.
 */
export interface LogReader {
  mayReadUsers: boolean
}

/** The stored `resourceType` is the resource's group name (kept as the API answers it); code uses the key. */
export const changesOf = (r: StoredChanges, reader: LogReader): AuditChange[] => {
  const resource = resourceOfGroup(r.resourceType)
  return maskPersonalFields(
    r.rowChanges ? describeChanges(r.rowChanges, resource) : r.changes,
    resource,
    reader.mayReadUsers,
  )
}

/** The record the row is about, named as it was (audit/resource-name.ts). Names are not personal fields. */
export const resourceNameOf = (r: StoredChanges & { resourceId: string | null }) =>
  resourceName(
    resourceOfGroup(r.resourceType),
    r.resourceId,
    r.rowChanges ? describeChanges(r.rowChanges, resourceOfGroup(r.resourceType)) : r.changes,
  )

export async function operationDetail(
  db: Db,
  id: number,
  reader: LogReader,
  timeZone: string,
  caller: Caller,
): Promise<OperationLogDetail> {
  const [row] = await db
    .select({ ...rowColumns, ...changeColumns })
    .from(operationLogs)
    .where(and(eq(operationLogs.id, id), rowsInScope(caller)))
  if (!row) throw notFound(LOG_NOT_FOUND)
  const { rowChanges: _staged, ...rest } = row
  return {
    ...toRow(rest, timeZone),
    resourceName: resourceNameOf(row),
    changes: changesOf(row, reader) as OperationLogDetail['changes'],
  }
}
