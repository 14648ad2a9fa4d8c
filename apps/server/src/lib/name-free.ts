import { and, ne, type SQL } from 'drizzle-orm'
import type { RecordType } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import { RECORDS } from '../db/tables'
import { conflict } from './errors'

/**
 * 409 `message` when a record of this type other than `ownKey` (null: a new record) meets `holds`:
 * a name taken (`sameName`, lib/same-name.ts) or another unique value. The check before the write;
 * the unique index catches two writes passing it at the same moment (`rethrowUnique`).
 */
export async function requireFree(
  db: DbOrTx,
  type: RecordType,
  holds: SQL,
  ownKey: number | string | null,
  message: string,
): Promise<void> {
  const { table, keyColumn } = RECORDS[type]
  const [taken] = await db
    .select({ key: keyColumn })
    .from(table)
    .where(and(holds, ownKey === null ? undefined : ne(keyColumn, ownKey)))
    .limit(1)
  if (taken) throw conflict(message)
}
