import { and, ne, type SQL } from 'drizzle-orm'
import type { RecordType } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import { RECORDS } from '../db/tables'
import { conflict } from './errors'
import { sameName } from './same-name'
import { rethrowUnique } from './unique-violation'

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

/**
 * A record type's name, unique ignoring letter case: `requireFree` is the check before a write (`ownId`:
 * the record written, null or absent for a new one), `rethrow` the write's `.catch` for two writes
 * passing that check at the same moment, answering the same 409 when the unique index on the name
 * (`<index>_key`) or on its folded form (`<index>_fold_key`) refuses the second.
 */
export function uniqueName(type: RecordType, index: string, message: string) {
  const { nameColumn } = RECORDS[type]
  if (!nameColumn) throw new Error(`a ${type} has no name of its own`)
  return {
    requireFree: (db: DbOrTx, name: string, ownId: number | null = null) =>
      requireFree(db, type, sameName(nameColumn, name), ownId, message),
    rethrow: rethrowUnique({ [`${index}_key`]: message, [`${index}_fold_key`]: message }),
  }
}
