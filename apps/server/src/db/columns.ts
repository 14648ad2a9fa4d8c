import { integer, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'

/** Column shapes the schema files share. */

/** A point in time, with its zone, read as a Date. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** The generated integer key. */
export const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity()

/** When the row was made, set by the database. */
export const created = () => at('create_time').notNull().defaultNow()

export const times = {
  createTime: created(),
  updateTime: at('update_time').notNull().defaultNow(),
}

/** A name's case-free form (migration 0024): its unique index makes `Admin` beside `admin` a duplicate. */
export const folded = (column: AnyPgColumn) => sql`amg_name_fold(${column})`

/** A row belonging to a record (a link's side, a user's key): it goes when the record goes. */
export const belongsTo = (name: string, target: () => AnyPgColumn) =>
  integer(name).notNull().references(target, { onDelete: 'cascade' })
