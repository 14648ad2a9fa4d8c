import { and, eq, gte, inArray, like, lte, sql, type Column, type SQL } from 'drizzle-orm'
import { RESOURCE_GROUPS, storedGroupNames, type OperationLogExportQuery } from '@amg/contract'
import { operationLogs } from '../../db/audit-schema'
import { badRequest } from '../../lib/errors'
import { prefixPattern } from '../../lib/like'
import { visibleUser, type Caller } from '../../auth/user-scope'

/** Which log rows a query reads: the caller's scope and the list's filters. */

/**
 * Rows about a user (用户管理, and 两步验证, whose rows name the user) are shown only when that user is
 * in the caller's scope (DESIGN.md §13); other rows are not about a user and stay. Undefined: no
 * restriction.
 */
export function rowsInScope(caller: Caller): SQL | undefined {
  const id = sql`(case when ${operationLogs.resourceId} ~ '^[0-9]{1,9}$' then ${operationLogs.resourceId}::int end)`
  const visible = visibleUser(caller, id)
  if (!visible) return undefined
  const aboutUsers = sql.join(
    [RESOURCE_GROUPS.user, RESOURCE_GROUPS.mfa].map((group) => sql`${group}`),
    sql`, `,
  )
  return sql`(case when ${operationLogs.resourceType} in (${aboutUsers}) and ${operationLogs.resourceId} ~ '^[0-9]{1,9}$'
    then ${visible} else true end)`
}

const BAD_TIME = (field: string) => `参数 ${field} 不正确：应为 ISO 8601 时间`

export const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== ''

/** A log query's 开始时间 and 结束时间, both inclusive; 400 for a time that does not parse. */
export function timeRange(column: Column, q: { from?: string | null; to?: string | null }): SQL[] {
  const from = time(q.from, 'from')
  const to = time(q.to, 'to')
  return [from ? gte(column, from) : undefined, to ? lte(column, to) : undefined].filter(
    (c): c is SQL => c !== undefined,
  )
}

function time(value: string | null | undefined, field: string): Date | null {
  if (!present(value)) return null
  const t = new Date(value)
  if (Number.isNaN(t.getTime())) throw badRequest(BAD_TIME(field))
  return t
}

export function operationFilters(q: OperationLogExportQuery, caller: Caller): SQL | undefined {
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
  where.push(...timeRange(operationLogs.time, q))
  return where.length ? and(...where) : undefined
}
