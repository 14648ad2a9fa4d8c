import { bigint, index, integer, pgTable, uniqueIndex, varchar, text } from 'drizzle-orm/pg-core'
import { users } from './schema'
import { at, belongsTo, id } from './columns'

/** DESIGN.md §23: passkeys and their challenges (migration 0036). */

/** A WebAuthn credential: its id and public key (base64url), the signature counter last seen. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: belongsTo('user_id', () => users.id),
    credentialId: varchar('credential_id', { length: 1024 }).notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** comma-separated, as the browser reported them */
    transports: varchar('transports', { length: 128 }),
    name: varchar('name', { length: 64 }).notNull(),
    createTime: at('create_time').notNull().defaultNow(),
    lastUsedTime: at('last_used_time'),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_key').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
  ],
)

/** A challenge handed out (register or login), shared by every instance, deleted as it is checked. */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    challenge: varchar('challenge', { length: 128 }).notNull(),
    /** 'register' | 'login' */
    purpose: varchar('purpose', { length: 16 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** a login challenge asked for the second step of this sign-in (hash of its mfaToken) */
    mfaTokenHash: varchar('mfa_token_hash', { length: 64 }),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('passkey_challenges_expires_idx').on(t.expiresAt)],
)
