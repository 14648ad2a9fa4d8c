import { bigint, boolean, index, integer, pgTable, smallint, varchar, text } from 'drizzle-orm/pg-core'
import { users } from './schema'
import { at, belongsTo, id } from './columns'

/** DESIGN.md §14: the security settings, password history and two-step sign-in (migration 0016). */

/** One row (id 1): the password policy and who must use two-step sign-in. */
export const securitySettings = pgTable('security_settings', {
  id: smallint('id').primaryKey().default(1),
  minLength: smallint('min_length').notNull().default(12),
  minClasses: smallint('min_classes').notNull().default(3),
  notUsername: boolean('not_username').notNull().default(true),
  historyCount: smallint('history_count').notNull().default(5),
  expireDays: integer('expire_days').notNull().default(0),
  forceChangeInitial: boolean('force_change_initial').notNull().default(true),
  mfa: varchar('mfa', { length: 16 }).notNull().default('off'),
  updateTime: at('update_time').notNull().defaultNow(),
})

/** The hashes of a user's earlier passwords, newest last; only the policy's `historyCount` are kept. */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: id(),
    userId: belongsTo('user_id', () => users.id),
    passwordHash: text('password_hash').notNull(),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [index('password_history_user_idx').on(t.userId, t.id)],
)

/**
 * A user's TOTP key, encrypted (lib/secret-box.ts). `enabled` false while enrolment waits for its
 * first code; `lastStep`: the newest time step accepted, so a code is never accepted twice.
 */
export const userMfa = pgTable('user_mfa', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabled: boolean('enabled').notNull().default(false),
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
  createTime: at('create_time').notNull().defaultNow(),
})

/** Recovery codes as keyed hashes (HMAC), each usable once. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: id(),
    userId: belongsTo('user_id', () => users.id),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('mfa_recovery_codes_user_idx').on(t.userId)],
)

/** The second step of a sign-in: its token's hash, 5 minutes, 5 tries (shared by every instance). */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
    userId: belongsTo('user_id', () => users.id),
    tries: smallint('tries').notNull().default(0),
    /** the restriction the session will carry once the second step passes (password expired, …) */
    restricted: varchar('restricted', { length: 16 }),
    /** DESIGN.md §23: the second step must be a passkey (`mfa: admins-passkey`) */
    passkeyOnly: boolean('passkey_only').notNull().default(false),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('mfa_challenges_expires_idx').on(t.expiresAt)],
)
