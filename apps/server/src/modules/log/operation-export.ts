import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm'
import { logTimeText, zonedIso, type OperationLogExportQuery } from '@amg/contract'
import type { Db } from '../../db/connection'
import { operationLogs } from '../../db/audit-schema'
import type { Caller } from '../../auth/user-scope'
import { operationFilters } from './filters'
import {
  changeColumns,
  changesOf,
  resourceNameOf,
  rowColumns,
  type LogReader,
  type RawRow,
  type StoredChanges,
} from './operations'

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
