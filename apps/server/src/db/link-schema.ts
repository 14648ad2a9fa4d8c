import { sql } from 'drizzle-orm'
import { index, primaryKey, pgTable, varchar, type ExtraConfigColumn } from 'drizzle-orm/pg-core'
import { at, belongsTo, created } from './columns'
import { auths, organizations, positions, roles, userGroups, users } from './schema'

/** The links between records (DESIGN.md §7): each row pairs two, and goes when either does. */

/**
 * A user's link to a role, group or position may hold until a time (DESIGN.md §20; null: permanent).
 * Migration 0031; the partial index serves the sweeper and the earliest-expiry read.
 */
const expiresAt = () => at('expires_at')
const expiryIndex = (name: string, column: ExtraConfigColumn) =>
  index(name)
    .on(column)
    .where(sql`${column} is not null`)

export const roleAuths = pgTable(
  'role_auths',
  {
    roleId: belongsTo('role_id', () => roles.id),
    authCode: varchar('auth_code', { length: 64 })
      .notNull()
      .references(() => auths.code, { onDelete: 'cascade', onUpdate: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.authCode] }), index('role_auths_auth_code_idx').on(t.authCode)],
)

/** A 自定义部门 role's chosen departments, each reaching everything below it (DESIGN.md §13). */
export const roleScopeOrgs = pgTable(
  'role_scope_orgs',
  {
    roleId: belongsTo('role_id', () => roles.id),
    orgId: belongsTo('org_id', () => organizations.id),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.orgId] }), index('role_scope_orgs_org_id_idx').on(t.orgId)],
)

export const userRoles = pgTable(
  'user_roles',
  {
    userId: belongsTo('user_id', () => users.id),
    roleId: belongsTo('role_id', () => roles.id),
    createTime: created(),
    expiresAt: expiresAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.roleId] }),
    index('user_roles_role_id_idx').on(t.roleId),
    expiryIndex('user_roles_expires_at_idx', t.expiresAt),
  ],
)

export const userGroupUsers = pgTable(
  'user_group_users',
  {
    groupId: belongsTo('group_id', () => userGroups.id),
    userId: belongsTo('user_id', () => users.id),
    createTime: created(),
    expiresAt: expiresAt(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.userId] }),
    index('user_group_users_user_id_idx').on(t.userId),
    expiryIndex('user_group_users_expires_at_idx', t.expiresAt),
  ],
)

export const userGroupRoles = pgTable(
  'user_group_roles',
  {
    groupId: belongsTo('group_id', () => userGroups.id),
    roleId: belongsTo('role_id', () => roles.id),
    createTime: created(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.roleId] }), index('user_group_roles_role_id_idx').on(t.roleId)],
)

/** Users holding a position (the user–position and position–user links are this one table). */
export const positionUsers = pgTable(
  'position_users',
  {
    positionId: belongsTo('position_id', () => positions.id),
    userId: belongsTo('user_id', () => users.id),
    createTime: created(),
    expiresAt: expiresAt(),
  },
  (t) => [
    primaryKey({ columns: [t.positionId, t.userId] }),
    index('position_users_user_id_idx').on(t.userId),
    expiryIndex('position_users_expires_at_idx', t.expiresAt),
  ],
)

export const positionRoles = pgTable(
  'position_roles',
  {
    positionId: belongsTo('position_id', () => positions.id),
    roleId: belongsTo('role_id', () => roles.id),
    createTime: created(),
  },
  (t) => [
    primaryKey({ columns: [t.positionId, t.roleId] }),
    index('position_roles_role_id_idx').on(t.roleId),
  ],
)
