import { index, integer, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { users } from './schema'
import { at, belongsTo, id } from './columns'

/** DESIGN.md §16 (migration 0018). */

/**
 * API keys: a service that cannot do OAuth calls as the key's user. Only the key's SHA-256 is kept
 * (like a session's token); `prefix` tells keys apart in the list. Deleting a row revokes the key, and
 * the session triggers tell every instance's cache at once.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    userId: belongsTo('user_id', () => users.id),
    name: varchar('name', { length: 64 }).notNull(),
    keyHash: varchar('key_hash', { length: 64 }).notNull(),
    prefix: varchar('prefix', { length: 16 }).notNull(),
    expiresAt: at('expires_at'),
    /** written at most once a minute per key and instance, never in the way of the call */
    lastUsedTime: at('last_used_time'),
    createTime: at('create_time').notNull().defaultNow(),
    createUserId: integer('create_user_id'),
  },
  (t) => [uniqueIndex('api_keys_key_hash_key').on(t.keyHash), index('api_keys_user_id_idx').on(t.userId)],
)
