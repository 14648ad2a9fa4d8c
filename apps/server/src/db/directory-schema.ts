import { boolean, index, integer, jsonb, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core'
import { users } from './schema'
import { at } from './columns'

/** DESIGN.md §22: directory sync by LDAP (migration 0034). */

/** One row (id 1): the LDAP settings; the bind password sealed (lib/secret-box.ts). */
export const ldapSettings = pgTable('ldap_settings', {
  id: smallint('id').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  url: text('url').notNull(),
  bindDn: text('bind_dn').notNull(),
  bindPassword: text('bind_password'),
  baseDn: text('base_dn').notNull(),
  userFilter: text('user_filter').notNull(),
  groupFilter: text('group_filter').notNull(),
  attributes: jsonb('attributes').notNull(),
  departmentFrom: varchar('department_from', { length: 16 }).notNull().default('ou'),
  defaultStationName: varchar('default_station_name', { length: 64 }).notNull(),
  startTls: boolean('start_tls').notNull().default(false),
  syncMinutes: integer('sync_minutes').notNull().default(0),
  updateUserId: integer('update_user_id').references(() => users.id, { onDelete: 'set null' }),
  updateTime: at('update_time').notNull().defaultNow(),
})

/** The sync runs, with their diffs, for the settings page. */
export const directorySyncRuns = pgTable(
  'directory_sync_runs',
  {
    id: text('id').primaryKey(),
    dryRun: boolean('dry_run').notNull(),
    trigger: varchar('trigger', { length: 16 }).notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    msg: text('msg'),
    operatorId: integer('operator_id'),
    operatorName: varchar('operator_name', { length: 64 }),
    startedAt: at('started_at').notNull().defaultNow(),
    finishedAt: at('finished_at'),
    diff: jsonb('diff'),
  },
  (t) => [index('directory_sync_runs_started_at_idx').on(t.startedAt)],
)
