import { getTableName } from 'drizzle-orm'
import { LINKS, RECORDS } from './tables'

/**
 * The triggers each registered table carries, derived from the table registry (db/tables.ts): the
 * access-change trigger on every table deciding access (migration 0001: bumps authz_version and
 * NOTIFYs every instance), and the audit triggers on every table of records or links (migration 0007:
 * each statement stages what it changed for the operation log). A migration that adds a table to the
 * registry creates that table's triggers from `triggerStatements`; the statements are spelled as
 * PostgreSQL prints them back (pg_get_triggerdef), so a test can hold the migrated database to them.
 */

/** A trigger with transition tables serves one event, so each audited table gets three. */
const AUDIT_EVENTS = [
  ['audit_inserted', 'AFTER INSERT', 'REFERENCING NEW TABLE AS new_rows'],
  ['audit_updated', 'AFTER UPDATE', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'],
  ['audit_deleted', 'AFTER DELETE', 'REFERENCING OLD TABLE AS old_rows'],
] as const

/** The names of the triggers this file derives (other triggers, of the caches and sessions, are not its business). */
export const REGISTRY_TRIGGER_NAMES = ['access_changed', ...AUDIT_EVENTS.map(([name]) => name)]

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`

function statements(table: string, decidesAccess: boolean, auditFunction: string, args: string[]): string[] {
  const on = `ON public.${table}`
  const audit = `${auditFunction}(${args.map(quote).join(', ')})`
  return [
    ...(decidesAccess
      ? [
          `CREATE TRIGGER access_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ${on} FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed()`,
        ]
      : []),
    ...AUDIT_EVENTS.map(
      ([name, event, transitions]) =>
        `CREATE TRIGGER ${name} ${event} ${on} ${transitions} FOR EACH STATEMENT EXECUTE FUNCTION ${audit}`,
    ),
  ]
}

/**
 * Per table, its CREATE TRIGGER statements: a record table's audit triggers pair an update's rows by
 * the record's key column; a link table's name both sides (each side's record type and column), and
 * every link decides access.
 */
export const TABLE_TRIGGERS: ReadonlyMap<string, readonly string[]> = new Map([
  ...Object.values(RECORDS).map((r): [string, string[]] => [
    getTableName(r.table),
    statements(getTableName(r.table), r.decidesAccess, 'amg_audit_records', [r.keyColumn.name]),
  ]),
  ...LINKS.map((l): [string, string[]] => [
    getTableName(l.table),
    statements(
      getTableName(l.table),
      true,
      'amg_audit_links',
      l.sides.flatMap((s) => [s.type, s.column.name]),
    ),
  ]),
])

/** The statements a migration runs to give one registered table its triggers. */
export function triggerStatements(table: string): readonly string[] {
  const found = TABLE_TRIGGERS.get(table)
  if (!found) throw new Error(`${table} is not in the table registry (db/tables.ts)`)
  return found
}
