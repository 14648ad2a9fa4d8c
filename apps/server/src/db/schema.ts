import {
  pgTable,
  integer,
  varchar,
  text,
  smallint,
  jsonb,
  index,
  uniqueIndex,
  bigint,
  pgSequence,
  uuid,
  boolean,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core'
import { at, belongsTo, created, folded, id, times } from './columns'

/** Every table of SPEC.md §3; the links between them are in link-schema.ts (DESIGN.md §7). */

const operators = {
  createUserId: integer('create_user_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  updateUserId: integer('update_user_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
}

export const users = pgTable(
  'users',
  {
    id: id(),
    nickName: varchar('nick_name', { length: 64 }).notNull(),
    realName: varchar('real_name', { length: 64 }),
    mobile: varchar('mobile', { length: 11 }),
    passwordHash: text('password_hash').notNull(),
    /** true while the password is the configured initial one (the console then warns). */
    passwordIsInitial: smallint('password_is_initial').notNull().default(1),
    /** DESIGN.md §14: set by someone else (initial, reset, import): to be changed at the next sign-in */
    mustChangePassword: smallint('must_change_password').notNull().default(0),
    /** when the password was last set: expiry counts from here (for older rows, from migration 0016) */
    passwordChangedAt: at('password_changed_at').notNull().defaultNow(),
    status: smallint('status').notNull().default(1),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: at('locked_until'),
    /**
     * DESIGN.md §11, §16: a machine client's service account, made only by turning its sign-on on; it
     * holds no password and never signs in interactively (migration 0024)
     */
    serviceAccount: boolean('service_account').notNull().default(false),
    /** DESIGN.md §22: 'local', 'ldap' or 'scim', and the id there (migration 0030) */
    source: varchar('source', { length: 16 }).notNull().default('local'),
    externalId: varchar('external_id', { length: 255 }),
    /** DESIGN.md §22: when a SCIM client deleted the user (frozen, kept; SCIM answers 404) (migration 0035) */
    scimDeletedAt: at('scim_deleted_at'),
    ...times,
    ...operators,
  },
  (t) => [
    uniqueIndex('users_nick_name_key').on(t.nickName),
    uniqueIndex('users_nick_name_fold_key').on(folded(t.nickName)),
    index('users_status_idx').on(t.status),
    // the list's order (newest first, id breaking ties), read from either end (lib/newest-first-page.ts)
    index('users_create_time_id_idx').on(t.createTime, t.id),
    // nickName contains-filters of 3+ characters (pg_trgm; migration 0005 creates the extension)
    index('users_nick_name_trgm_idx').using('gin', t.nickName.op('gin_trgm_ops')),
  ],
)

export const roles = pgTable(
  'roles',
  {
    id: id(),
    roleName: varchar('role_name', { length: 64 }).notNull(),
    type: smallint('type').notNull().default(3),
    status: smallint('status').notNull().default(1),
    description: varchar('description', { length: 500 }),
    /** DESIGN.md §13: 1 全部数据, 2 自定义部门 (role_scope_orgs), 3 本部门, 4 本部门及以下, 5 仅本人 */
    dataScope: smallint('data_scope').notNull().default(1),
    /** DESIGN.md §20: may be asked for (权限申请), with 1 or 2 approvals, by holders of approverRoleIds */
    requestable: boolean('requestable').notNull().default(false),
    requestApprovals: smallint('request_approvals').notNull().default(1),
    approverRoleIds: integer('approver_role_ids').array().notNull().default([]),
    ...times,
    ...operators,
  },
  (t) => [
    uniqueIndex('roles_role_name_key').on(t.roleName),
    uniqueIndex('roles_role_name_fold_key').on(folded(t.roleName)),
    index('roles_type_idx').on(t.type),
    index('roles_status_idx').on(t.status),
  ],
)

export interface UrlPatternInfo {
  method: string
  uri: string
}

export const auths = pgTable(
  'auths',
  {
    code: varchar('code', { length: 64 }).primaryKey(),
    parentCode: varchar('parent_code', { length: 64 }).references((): AnyPgColumn => auths.code, {
      onDelete: 'restrict',
    }),
    level: integer('level').notNull().default(1),
    chName: varchar('ch_name', { length: 64 }).notNull(),
    enName: varchar('en_name', { length: 64 }).notNull(),
    description: varchar('description', { length: 500 }),
    seq: integer('seq').notNull().default(1),
    uniqueKey: varchar('unique_key', { length: 128 }),
    type: smallint('type').notNull(),
    status: smallint('status').notNull().default(1),
    frontEndAccess: jsonb('front_end_access').$type<string[]>().notNull().default([]),
    urlPatternInfos: jsonb('url_pattern_infos').$type<UrlPatternInfo[]>().notNull().default([]),
    ...times,
  },
  (t) => [
    index('auths_parent_code_idx').on(t.parentCode),
    index('auths_status_idx').on(t.status),
    // NULLs are distinct: only keys that are set must be unique (the service checks first, this catches races)
    uniqueIndex('auths_unique_key_key').on(t.uniqueKey),
  ],
)

export const userGroups = pgTable(
  'user_groups',
  {
    id: id(),
    groupName: varchar('group_name', { length: 64 }).notNull(),
    status: smallint('status').notNull().default(1),
    description: varchar('description', { length: 500 }),
    /** DESIGN.md §22: 'local', 'ldap' or 'scim', and the id there (migration 0030) */
    source: varchar('source', { length: 16 }).notNull().default('local'),
    externalId: varchar('external_id', { length: 255 }),
    ...times,
    ...operators,
  },
  (t) => [
    uniqueIndex('user_groups_group_name_key').on(t.groupName),
    uniqueIndex('user_groups_group_name_fold_key').on(folded(t.groupName)),
    index('user_groups_status_idx').on(t.status),
    index('user_groups_create_time_id_idx').on(t.createTime, t.id),
    index('user_groups_group_name_trgm_idx').using('gin', t.groupName.op('gin_trgm_ops')),
    index('user_groups_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

export const organizations = pgTable(
  'organizations',
  {
    id: id(),
    organizationName: varchar('organization_name', { length: 64 }).notNull(),
    description: varchar('description', { length: 500 }),
    parent: integer('parent').references((): AnyPgColumn => organizations.id, { onDelete: 'restrict' }),
    ...times,
    ...operators,
  },
  (t) => [
    index('organizations_parent_idx').on(t.parent),
    uniqueIndex('organizations_parent_name_key').on(t.parent, t.organizationName),
    uniqueIndex('organizations_parent_name_fold_key').on(t.parent, folded(t.organizationName)),
  ],
)

export const stations = pgTable(
  'stations',
  {
    id: id(),
    stationName: varchar('station_name', { length: 64 }).notNull(),
    type: smallint('type').notNull().default(1),
    ...times,
    ...operators,
  },
  (t) => [
    uniqueIndex('stations_station_name_key').on(t.stationName),
    uniqueIndex('stations_station_name_fold_key').on(folded(t.stationName)),
    index('stations_type_idx').on(t.type),
  ],
)

/** A position is one (department, job title) pair. */
export const positions = pgTable(
  'positions',
  {
    id: id(),
    orgId: belongsTo('org_id', () => organizations.id),
    stationId: belongsTo('station_id', () => stations.id),
    status: smallint('status').notNull().default(1),
    type: smallint('type').notNull().default(1),
    ...times,
  },
  (t) => [
    uniqueIndex('positions_org_station_key').on(t.orgId, t.stationId),
    index('positions_station_id_idx').on(t.stationId),
    index('positions_status_idx').on(t.status),
  ],
)

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    userId: belongsTo('user_id', () => users.id),
    createTime: created(),
    expiresAt: at('expires_at').notNull(),
    /** where and with what the session signed in, and when it was last used (at most once a minute) */
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 512 }),
    lastSeenTime: at('last_seen_time').notNull().defaultNow(),
    /** DESIGN.md §14: 'password_change' | 'mfa_enroll' while the session may only finish signing in */
    restricted: varchar('restricted', { length: 16 }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
)

export const files = pgTable(
  'files',
  {
    id: id(),
    /** The id the API and URLs use: random (122 bits), so files cannot be guessed or enumerated. */
    publicId: uuid('public_id').notNull().defaultRandom(),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    storageName: varchar('storage_name', { length: 128 }).notNull(),
    mimeType: varchar('mime_type', { length: 128 }),
    size: bigint('size', { mode: 'number' }).notNull(),
    uploaderId: integer('uploader_id').references(() => users.id, { onDelete: 'set null' }),
    createTime: created(),
    expireTime: at('expire_time').notNull(),
  },
  (t) => [
    uniqueIndex('files_public_id_key').on(t.publicId),
    uniqueIndex('files_storage_name_key').on(t.storageName),
    index('files_expire_time_idx').on(t.expireTime),
    index('files_uploader_id_idx').on(t.uploaderId),
  ],
)

/**
 * A service behind a gateway (DESIGN.md §10a): it owns the permission subtree under its root node,
 * a top-level node. The built-in `ams` (this server's own API) has no root: it owns every node that
 * lies in no other service's subtree (docs/decisions.md, "One namespace per service").
 */
export const services = pgTable(
  'services',
  {
    id: id(),
    key: varchar('key', { length: 32 }).notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    rootCode: varchar('root_code', { length: 64 }).references(() => auths.code, {
      onDelete: 'restrict',
      onUpdate: 'cascade',
    }),
    builtIn: smallint('built_in').notNull().default(0),
    ...times,
    ...operators,
  },
  (t) => [uniqueIndex('services_key_key').on(t.key), uniqueIndex('services_root_code_key').on(t.rootCode)],
)

/** Numbers for generated permission codes (insert generates the code, SPEC.md §7). */
export const authCodeSeq = pgSequence('auth_code_seq', { startWith: 1 })
export * from './link-schema'
export * from './audit-schema'
export * from './webhook-schema'
export * from './sign-in-schema'
export * from './apikey-schema'
export * from './oidc-schema'
export * from './review-schema'
export * from './access-request-schema'
export * from './directory-schema'
export * from './passkey-schema'
