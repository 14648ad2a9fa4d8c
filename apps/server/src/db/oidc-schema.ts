import { boolean, index, integer, jsonb, pgTable, primaryKey, text, varchar } from 'drizzle-orm/pg-core'
import { services, users } from './schema'
import { at, id } from './columns'

/** DESIGN.md §16: single sign-on (migration 0018). */

/** A service's sign-on settings: it is an OpenID Connect client whose client id is the service key. */
export const oidcClients = pgTable('oidc_clients', {
  serviceId: integer('service_id')
    .primaryKey()
    .references(() => services.id, { onDelete: 'cascade' }),
  /** 'web' (secret), 'spa' (public, PKCE), 'machine' (client credentials only) */
  type: varchar('type', { length: 16 }).notNull(),
  redirectUris: text('redirect_uris').array().notNull(),
  requireConsent: boolean('require_consent').notNull().default(true),
  enabled: boolean('enabled').notNull().default(true),
  /** the client secret, encrypted (lib/secret-box.ts); null for a public client */
  secretEnc: text('secret_enc'),
  /** a machine client's service account: its tokens act as this user */
  serviceUserId: integer('service_user_id').references(() => users.id, { onDelete: 'set null' }),
  createTime: at('create_time').notNull().defaultNow(),
  updateTime: at('update_time').notNull().defaultNow(),
})

/** oidc-provider's storage: one row per model instance, the payload as the provider gives it. */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    model: varchar('model', { length: 40 }).notNull(),
    id: varchar('id', { length: 255 }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: varchar('grant_id', { length: 255 }),
    userCode: varchar('user_code', { length: 255 }),
    uid: varchar('uid', { length: 255 }),
    /** the signed-in user (sessions, grants, tokens): what freezing or a forced sign-out ends */
    accountId: varchar('account_id', { length: 64 }),
    expiresAt: at('expires_at'),
    consumedAt: at('consumed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_payloads_grant_id_idx').on(t.grantId),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_user_code_idx').on(t.userCode),
    index('oidc_payloads_account_id_idx').on(t.accountId),
    index('oidc_payloads_expires_at_idx').on(t.expiresAt),
  ],
)

/** The provider's signing keys, shared by every instance; the newest signs. The private JWK encrypted. */
export const oidcKeys = pgTable('oidc_keys', {
  id: id(),
  kid: varchar('kid', { length: 64 }).notNull().unique(),
  jwkEnc: text('jwk_enc').notNull(),
  createTime: at('create_time').notNull().defaultNow(),
})

/**
 * DESIGN.md §19: machine tokens refused before they expire. `key` is `jti:<jti>` (one revoked token) or
 * `client:<client id>` (every token of the client issued up to `before`: sign-on turned off or the
 * service deleted). A row is of no use once every token it could refuse has expired (`expires_at`).
 * Its changes notify every instance as sessions' do (migration 0024).
 */
export const machineTokenDenials = pgTable('machine_token_denials', {
  key: varchar('key', { length: 160 }).primaryKey(),
  before: at('before').notNull(),
  expiresAt: at('expires_at').notNull(),
})
