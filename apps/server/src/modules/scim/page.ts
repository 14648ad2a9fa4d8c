import { asc, count, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core'
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types'
import type { Db } from '../../db/connection'
import { pagedList } from '../../lib/paged'
import type { Paging } from './http'

/** What a SCIM list reads: one table's rows meeting `where`, as `fields`, in `id` order. */
export interface ScimListQuery<F extends SelectedFields> {
  table: PgTable
  fields: F
  id: PgColumn
  where: SQL | undefined
}

/**
 * One SCIM page (RFC 7644 §3.4.2.4: `startIndex` from 1, `count` rows) with the total it is part of,
 * for Users and Groups alike. A count of 0 asks only for the total, so no row is read.
 */
export async function scimPage<F extends SelectedFields>(
  db: Db,
  q: ScimListQuery<F>,
  paging: Paging,
): Promise<{ rows: SelectResultFields<F>[]; total: number }> {
  const fields: SelectedFields = q.fields
  const { list, total } = await pagedList(
    { pageSize: paging.count, offset: paging.startIndex - 1 },
    (limit, offset) =>
      limit === 0
        ? Promise.resolve([])
        : db.select(fields).from(q.table).where(q.where).orderBy(asc(q.id)).limit(limit).offset(offset),
    () => db.select({ total: count() }).from(q.table).where(q.where),
  )
  // the builder cannot follow a generic selection; the rows are exactly `fields`
  return { rows: list as SelectResultFields<F>[], total }
}
