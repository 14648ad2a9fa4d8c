/**
 * Role types and record statuses with the labels the console shows them by (SPEC.md §3, §4, §6).
 * Kept apart from the schemas so the console can read them without bundling the schema library.
 */

/** Role types: a super admin holds all power; built-in roles are managed apart from ordinary ones. */
export const ROLE_TYPE = { superAdmin: 1, builtIn: 2, ordinary: 3 } as const
export type RoleType = (typeof ROLE_TYPE)[keyof typeof ROLE_TYPE]

export const ROLE_TYPE_LABEL: Readonly<Record<RoleType, string>> = {
  1: '超级管理员',
  2: '内置角色',
  3: '普通角色',
}

/** The label of a role type; any other value reads as ordinary (SPEC.md §2). */
export const roleTypeLabel = (type: number): string =>
  ROLE_TYPE_LABEL[type as RoleType] ?? ROLE_TYPE_LABEL[ROLE_TYPE.ordinary]

/** Status of roles, permission nodes, groups and positions. */
export const STATUS = { enabled: 1, disabled: 2 } as const
type StatusValue = (typeof STATUS)[keyof typeof STATUS]

export const STATUS_LABEL: Readonly<Record<StatusValue, string>> = { 1: '启用', 2: '禁用' }

/** Status of users: a frozen user can neither sign in nor call anything. */
export const USER_STATUS = { active: 1, frozen: 2 } as const
type UserStatusValue = (typeof USER_STATUS)[keyof typeof USER_STATUS]

export const USER_STATUS_LABEL: Readonly<Record<UserStatusValue, string>> = { 1: '正常', 2: '冻结' }

/** DESIGN.md §16: the kinds of application that sign in here (a `spa` signs in with PKCE alone). */
export const OIDC_CLIENT_TYPES = ['web', 'spa', 'machine'] as const
export type OidcClientType = (typeof OIDC_CLIENT_TYPES)[number]
