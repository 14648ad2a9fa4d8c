import { eq } from 'drizzle-orm'
import type { SelectedFields } from 'drizzle-orm/pg-core'
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types'
import type { RecordType } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import { RECORDS } from '../db/tables'
import { notFound } from './errors'

/**
 * One record's `fields`, by its key, or 404 in the product's words ('用户不存在', from the table
 * registry) unless `message` says otherwise: the read before a record's change or its detail.
 */
export async function recordRow<F extends SelectedFields>(
  db: DbOrTx,
  type: RecordType,
  key: number | string,
  fields: F,
  message?: string,
): Promise<SelectResultFields<F>> {
  const { table, keyColumn, label } = RECORDS[type]
  const [row] = await db.select(fields).from(table).where(eq(keyColumn, key))
  if (!row) throw notFound(message ?? `${label}不存在`)
  // the builder cannot follow a generic selection; the row is exactly `fields`
  return row as SelectResultFields<F>
}
