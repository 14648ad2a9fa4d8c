import { and, desc, eq, gte, inArray, like, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import type {
  LoginLogListBody,
  LoginLogRow,
  OperationLogDetail,
  OperationLogExportQuery,
  OperationLogListBody,
  OperationLogRow,
  PageResult,
} from '@amg/contract'
import { logTimeText, resourceOfGroup, storedGroupNames, zonedIso } from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import { loginLogs, operationLogs, type AuditChange, type StagedChange } from '../../db/audit-schema'
import { badRequest, notFound } from '../../lib/errors'
import { prefixPattern } from '../../lib/like'
import { pageTotal } from '../../lib/page-total'
import { describeChanges } from '../../audit/changes'
import { maskPersonalFields } from '../../audit/personal-fields'
import { resourceName } from '../../audit/resource-name'
import { visibleUser, type Caller } from '../../auth/user-scope'
import { RESOURCE_GROUPS } from '@amg/contract'

/**
 * Rows about a user are shown only when that user is in the caller's scope (DESIGN.md §13); other rows
 * are not about a user and stay. Undefined: no restriction.
 */
function rowsInScope(caller: Caller): SQL | undefined {
  const id = sql`(case when ${operationLogs.resourceId} ~ '^[0-9]{1,9}$' then ${operationLogs.resourceId}::int end)`
  const visible = visibleUser(caller, id)
  if (!visible) return undefined
  return sql`(case when ${operationLogs.resourceType} = ${RESOURCE_GROUPS.user} and ${operationLogs.resourceId} ~ '^[0-9]{1,9}$'
    then ${visible} else true end)`
}

export const LOG_NOT_FOUND = '日志不存在'
const BAD_TIME = (field: string) => `参数 ${field} 不正确：应为 ISO 8601 时间`

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== ''

function time(value: string | null | undefined, field: string): Date | null {
  if (!present(value)) return null
  const t = new Date(value)
  if (Number.isNaN(t.getTime())) throw badRequest(BAD_TIME(field))
  return t
}

function operationFilters(q: OperationLogExportQuery, caller: Caller): SQL | undefined {
  const where: SQL[] = []
  const inScope = rowsInScope(caller)
  if (inScope) where.push(inScope)
  // operator names match from their start (an index serves it at a million rows; a substring scan would
  // not), in the normalised form names are stored in (the schema marks the filter as a name search)
  if (present(q.operatorName))
    where.push(like(operationLogs.operatorName, prefixPattern(q.operatorName.trim())))
  // one operator exactly: two operators with look-alike names are told apart by id
  if (q.operatorId) where.push(eq(operationLogs.operatorId, q.operatorId))
  // rows written before a group was renamed carry its former name, and belong to it still
  if (present(q.resourceType))
    where.push(inArray(operationLogs.resourceType, storedGroupNames(q.resourceType.trim())))
  // a route's summary is one of a fixed set: matched whole, so 修改用户 is not 修改用户组
  if (present(q.summary)) where.push(eq(operationLogs.summary, q.summary.trim()))
  if (present(q.result)) where.push(eq(operationLogs.result, q.result))
  const from = time(q.from, 'from')
  const to = time(q.to, 'to')
  if (from) where.push(gte(operationLogs.time, from))
  if (to) where.push(lte(operationLogs.time, to))
  return where.length ? and(...where) : undefined
}

const rowColumns = {
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

type RawRow = { time: Date } & Omit<OperationLogRow, 'time' | 'resourceName'>
/** A row as answered: its time in the server's zone (the contract's `zonedIso`). */
const toRow = <T extends RawRow>(r: T, timeZone: string) => ({
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
const changeColumns = { changes: operationLogs.changes, rowChanges: operationLogs.rowChanges }
type StoredChanges = {
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
const changesOf = (r: StoredChanges, reader: LogReader): AuditChange[] => {
  const resource = resourceOfGroup(r.resourceType)
  return maskPersonalFields(
    r.rowChanges ? describeChanges(r.rowChanges, resource) : r.changes,
    resource,
    reader.mayReadUsers,
  )
}

/** The record the row is about, named as it was (audit/resource-name.ts). Names are not personal fields. */
const resourceNameOf = (r: StoredChanges & { resourceId: string | null }) =>
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

const RESULT_NAMES: Record<string, string> = { success: '成功', denied: '拒绝', failed: '失败' }
const CSV_HEADER = [
  '编号',
  '时间',
  '操作人',
  '操作人 ID',
  'IP 地址',
  '浏览器',
  '请求方法',
  '请求路径',
  '操作',
  '资源类型',
  '资源 ID',
  '资源',
  '结果',
  '状态码',
  '消息',
  '变更',
]

/** A CSV field: quoted when it holds a separator, a quote or a line break; formula starts neutralised. */
function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}` // a spreadsheet must not run it as a formula
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const EXPORT_BATCH = 1000

/**
 * GET /log/operation/export: UTF-8 with a BOM (so spreadsheet programs read the Chinese), Chinese
 * headers, newest first, streamed in batches by (time, id) so 100,000 rows never sit in memory. Times
 * are written as the console shows them: in the server's zone, with its offset.
 */
export function exportOperations(
  db: Db,
  q: OperationLogExportQuery,
  reader: LogReader,
  timeZone: string,
  caller: Caller,
): AsyncGenerator<string> {
  // the filters are checked before anything is sent: a bad one is the list's 400, not a broken file
  return operationRows(db, operationFilters(q, caller), reader, timeZone)
}

async function* operationRows(
  db: Db,
  filters: SQL | undefined,
  reader: LogReader,
  timeZone: string,
): AsyncGenerator<string> {
  yield `\uFEFF${CSV_HEADER.join(',')}\r\n`
  let after: { time: Date; id: number } | null = null
  for (;;) {
    const page: (RawRow & StoredChanges)[] = await db
      .select({ ...rowColumns, ...changeColumns })
      .from(operationLogs)
      .where(
        and(
          filters,
          after
            ? or(
                lt(operationLogs.time, after.time),
                and(eq(operationLogs.time, after.time), lt(operationLogs.id, after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(desc(operationLogs.time), desc(operationLogs.id))
      .limit(EXPORT_BATCH)
    if (page.length === 0) return
    yield page
      .map((r) =>
        [
          r.id,
          logTimeText(zonedIso(r.time, timeZone)),
          r.operatorName,
          r.operatorId,
          r.ip,
          r.userAgent,
          r.method,
          r.path,
          r.summary,
          r.resourceType,
          r.resourceId,
          resourceNameOf(r),
          RESULT_NAMES[r.result] ?? r.result,
          r.status,
          r.msg,
          JSON.stringify(changesOf(r, reader)),
        ]
          .map(csvField)
          .join(','),
      )
      .join('\r\n')
      .concat('\r\n')
    const last = page[page.length - 1]
    after = { time: last.time, id: Number(last.id) }
    if (page.length < EXPORT_BATCH) return
  }
}

/** POST /log/login/list: newest first; past 10,000 matches the total is an estimate. */
/**
 * Sign-ins of users in the caller's scope only (DESIGN.md §13); attempts on names that are no user
 * carry no user and reach only a caller whose scope is everything.
 */
export async function listLogins(
  db: Db,
  q: LoginLogListBody,
  timeZone: string,
  caller: Caller,
): Promise<PageResult<LoginLogRow> & { totalIsEstimate: boolean; timeZone: string }> {
  const where: SQL[] = []
  const inScope = visibleUser(caller, loginLogs.userId)
  if (inScope) where.push(inScope)
  if (present(q.nickName)) where.push(like(loginLogs.nickName, prefixPattern(q.nickName.trim())))
  if (present(q.result)) where.push(eq(loginLogs.result, q.result))
  const from = time(q.from, 'from')
  const to = time(q.to, 'to')
  if (from) where.push(gte(loginLogs.time, from))
  if (to) where.push(lte(loginLogs.time, to))
  const condition = where.length ? and(...where) : undefined
  const pageSize = q.pageSize ?? 10
  const rows = await db
    .select()
    .from(loginLogs)
    .where(condition)
    .orderBy(desc(loginLogs.time), desc(loginLogs.id))
    .limit(pageSize)
    .offset(((q.pageNum ?? 1) - 1) * pageSize)
  return {
    list: rows.map((r) => ({ ...r, id: Number(r.id), time: zonedIso(r.time, timeZone) })),
    ...(await pageTotal(db, 'login_logs', condition)),
    timeZone,
  }
}

/** Removes log rows older than the retention (AUDIT_RETENTION_DAYS); answers how many went. */
export async function sweepLogs(db: Db, retentionDays: number): Promise<number> {
  const cutoff = new Date(Date.now() - retentionDays * 86_400_000)
  let removed = 0
  for (const table of ['operation_logs', 'login_logs']) {
    const [row] = await queryRows<{ n: number | string }>(
      db,
      sql`with gone as (delete from ${sql.identifier(table)} where time < ${cutoff} returning 1) select count(*) as n from gone`,
    )
    removed += Number(row?.n ?? 0)
  }
  return removed
}
