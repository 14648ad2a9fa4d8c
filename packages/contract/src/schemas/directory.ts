import { Type, type Static } from '@sinclair/typebox'
import { DIRECTORY_MSG } from '../messages'
import { withMessage } from './common'

/** Directory sync by LDAP (DESIGN.md §22): the settings, the connection test and the sync's diff. */

const Text = (max: number, message: string) => withMessage(Type.String({ maxLength: max }), message)

export const LdapAttributes = Type.Object({
  nickName: withMessage(
    Type.String({ minLength: 1, maxLength: 64 }),
    DIRECTORY_MSG.attributeRequired('登录名'),
  ),
  realName: Text(64, DIRECTORY_MSG.attributeRequired('姓名')),
  mobile: Text(64, DIRECTORY_MSG.attributeRequired('手机号')),
  /** with departmentFrom 'attribute': the attribute holding the department path (部门/子部门) */
  department: Type.Optional(Text(64, DIRECTORY_MSG.attributeRequired('部门'))),
})

/** GET and PUT /settings/ldap; the password is write-only (empty on PUT: keep the saved one). */
export const LdapSettingsBody = Type.Object({
  enabled: withMessage(Type.Boolean(), '请选择是否启用'),
  url: Text(500, DIRECTORY_MSG.urlInvalid),
  bindDn: Text(500, DIRECTORY_MSG.bindDnRequired),
  bindPassword: Type.Optional(Text(500, '绑定密码过长')),
  baseDn: Text(500, DIRECTORY_MSG.baseDnRequired),
  userFilter: Text(1000, DIRECTORY_MSG.filterInvalid('用户过滤条件')),
  groupFilter: Text(1000, DIRECTORY_MSG.filterInvalid('用户组过滤条件')),
  attributes: LdapAttributes,
  departmentFrom: withMessage(
    Type.Unsafe<'ou' | 'attribute'>(Type.String({ enum: ['ou', 'attribute'] })),
    '部门来源应为 ou 或 attribute',
  ),
  defaultStationName: Text(64, DIRECTORY_MSG.stationRequired),
  startTls: withMessage(Type.Boolean(), '请选择是否使用 StartTLS'),
  syncMinutes: withMessage(Type.Integer({ minimum: 0, maximum: 10080 }), DIRECTORY_MSG.syncMinutesInvalid),
})
export type LdapSettingsBody = Static<typeof LdapSettingsBody>

/** GET /settings/ldap: the settings without the password, and whether one is saved. */
export const LdapSettingsData = Type.Composite([
  Type.Omit(LdapSettingsBody, ['bindPassword']),
  Type.Object({ bindPasswordSet: Type.Boolean() }),
])
export type LdapSettingsData = Static<typeof LdapSettingsData>

export const LdapTestResult = Type.Object({
  ok: Type.Literal(true),
  users: Type.Integer(),
  groups: Type.Integer(),
})
export type LdapTestResult = Static<typeof LdapTestResult>

export const DirectorySyncBody = Type.Object({
  dryRun: Type.Optional(withMessage(Type.Boolean(), '请选择是否仅预览')),
})
export type DirectorySyncBody = Static<typeof DirectorySyncBody>

/** One entry of a sync's diff: whom it concerns (login name, group or department) and what changed. */
export const SyncDiffItem = Type.Object({
  kind: Type.Union([Type.Literal('user'), Type.Literal('group'), Type.Literal('department')]),
  name: Type.String(),
  /** the entry's DN */
  dn: Type.Union([Type.String(), Type.Null()]),
  /** updated: the fields changed; moved: 旧部门 → 新部门; failed: the reason */
  detail: Type.Union([Type.String(), Type.Null()]),
})
export type SyncDiffItem = Static<typeof SyncDiffItem>

/** The sync's diff (at most 500 items each; the counts are whole). */
export const SyncDiff = Type.Object({
  created: Type.Array(SyncDiffItem),
  updated: Type.Array(SyncDiffItem),
  moved: Type.Array(SyncDiffItem),
  frozen: Type.Array(SyncDiffItem),
  failed: Type.Array(SyncDiffItem),
  counts: Type.Object({
    created: Type.Integer(),
    updated: Type.Integer(),
    moved: Type.Integer(),
    frozen: Type.Integer(),
    failed: Type.Integer(),
    unchanged: Type.Integer(),
  }),
})
export type SyncDiff = Static<typeof SyncDiff>

/** One sync run as the settings page lists it. */
export const DirectoryRun = Type.Object({
  jobId: Type.String(),
  dryRun: Type.Boolean(),
  trigger: Type.Union([Type.Literal('manual'), Type.Literal('schedule')]),
  status: Type.String(),
  msg: Type.Union([Type.String(), Type.Null()]),
  operatorName: Type.Union([Type.String(), Type.Null()]),
  startedAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  diff: Type.Union([SyncDiff, Type.Null()]),
})
export type DirectoryRun = Static<typeof DirectoryRun>
