import { and, desc, eq, like, sql, type SQL } from 'drizzle-orm'
import { zonedIso, type LoginLogListBody, type LoginLogRow, type PageResult } from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import { loginLogs } from '../../db/audit-schema'
import { prefixPattern } from '../../lib/like'
import { paging } from '../../lib/paged'
import { pageTotal } from '../../lib/page-total'
import { visibleUser, type Caller } from '../../auth/user-scope'
import { present, timeRange } from './filters'

/** The login log as the console reads it, and both logs' retention. */

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
  where.push(...timeRange(loginLogs.time, q))
  const condition = where.length ? and(...where) : undefined
  const { pageSize, offset } = paging(q)
  const rows = await db
    .select()
    .from(loginLogs)
    .where(condition)
    .orderBy(desc(loginLogs.time), desc(loginLogs.id))
    .limit(pageSize)
    .offset(offset)
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
