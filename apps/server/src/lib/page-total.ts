import { sql, type SQL } from 'drizzle-orm'
import { EXACT_TOTAL_LIMIT } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'

/**
 * The total of a paged list over a table that can grow without bound (the logs): counting a million
 * rows costs more than the page itself, so the count stops at EXACT_TOTAL_LIMIT + 1 and, past it,
 * answers the planner's row estimate, marked as such: the console then shows no number but 超过 10000 条.
 */
export async function pageTotal(
  db: DbOrTx,
  table: string,
  where: SQL | undefined,
): Promise<{ total: number; totalIsEstimate: boolean }> {
  const condition = where ?? sql`true`
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*) as n from (select 1 from ${sql.identifier(table)} where ${condition} limit ${
      EXACT_TOTAL_LIMIT + 1
    }) capped`,
  )
  const counted = Number(row?.n ?? 0)
  if (counted <= EXACT_TOTAL_LIMIT) return { total: counted, totalIsEstimate: false }
  return { total: await estimatedRows(db, table, where, counted), totalIsEstimate: true }
}

/** The planner's estimate of the rows matching `where` (EXPLAIN, no scan), never below `atLeast`. */
export async function estimatedRows(
  db: DbOrTx,
  table: string,
  where: SQL | undefined,
  atLeast: number,
): Promise<number> {
  const plan = await queryRows<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] | string }>(
    db,
    sql`explain (format json) select 1 from ${sql.identifier(table)} where ${where ?? sql`true`}`,
  )
  const raw = plan[0]?.['QUERY PLAN']
  const parsed = typeof raw === 'string' ? (JSON.parse(raw) as [{ Plan: { 'Plan Rows': number } }]) : raw
  const estimate = Math.round(Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? atLeast))
  return Math.max(estimate, atLeast)
}
