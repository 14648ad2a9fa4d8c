import { sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'

/**
 * Whether a name column holds this name ignoring letter case (DESIGN.md §11): the comparison the
 * names' unique indexes make (migration 0024, `amg_name_fold`), so it is answered by those indexes.
 */
export const sameName = (column: AnyPgColumn, name: string): SQL =>
  sql`amg_name_fold(${column}) = amg_name_fold(${name})`
