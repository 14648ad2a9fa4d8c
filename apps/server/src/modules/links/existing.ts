import { inArray } from 'drizzle-orm'
import type { RecordType } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import { RECORDS } from '../../db/tables'
import { notFound } from '../../lib/errors'

/**
 * 404 unless every id names a record of this type, in the product's words: '用户组不存在' for the one
 * record a call is about, or, with `named`, '角色不存在：7,8' naming the missing ones of a list.
 */
export async function requireExisting(
  db: DbOrTx,
  type: RecordType,
  ids: readonly number[],
  named = false,
): Promise<void> {
  const missing = await missingRecords(db, type, ids)
  const { label } = RECORDS[type]
  if (missing.length) throw notFound(named ? `${label}不存在：${missing.join(',')}` : `${label}不存在`)
}

/** The ids, in their order, that name no record of this type; for a caller refusing in its own words. */
export async function missingRecords(
  db: DbOrTx,
  type: RecordType,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return []
  const { table, keyColumn } = RECORDS[type]
  const rows = await db
    .select({ id: keyColumn })
    .from(table)
    .where(inArray(keyColumn, [...ids]))
  const have = new Set(rows.map((r) => Number(r.id)))
  return ids.filter((id) => !have.has(id))
}
