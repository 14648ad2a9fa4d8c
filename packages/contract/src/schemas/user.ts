import { Type, type Static } from '@sinclair/typebox'
import { ExpiresAtField, LinkExpiresAt } from '../link-expiry'
import { MSG } from '../messages'
import { NAME_LABELS } from '../names'
import {
  DateTime,
  Id,
  IdList,
  LargePage,
  MESSAGE_KEYWORD,
  NameSearch,
  NameText,
  OptionalName,
  OptionalNameSearch,
  Page,
  PageQuery,
} from './common'

/** Users and their links (DESIGN.md §5). Passwords travel only inward; no answer carries one. */

/** 1 正常, 2 冻结 — one integer schema so a wrong value answers with the field's own message. */
export const UserStatus = Type.Integer({
  minimum: 1,
  maximum: 2,
  description: '1 正常, 2 冻结',
  [MESSAGE_KEYWORD]: MSG.statusRequired,
})

/** Checked by the rules (checkMobile, checkPassword) after the shape; generous lengths so the rule's message wins. */
const MobileInput = Type.Optional(
  Type.Union([Type.String({ maxLength: 64, [MESSAGE_KEYWORD]: MSG.mobileInvalid }), Type.Null()]),
)
const PasswordInput = Type.Optional(
  Type.Union([Type.String({ maxLength: 128, [MESSAGE_KEYWORD]: MSG.passwordPolicy }), Type.Null()]),
)
const RealNameInput = OptionalName(NAME_LABELS.realName)

/**
 * POST /user/list. `keyword` finds a substring of the nickName, realName or mobile; `nickName` (SPEC.md)
 * only of the nickName; both may be given. `orgId` keeps the users holding a position in that
 * department or any department below it (none for an unknown department).
 */
export const UserListBody = Type.Object({
  nickName: OptionalNameSearch(),
  keyword: OptionalNameSearch(),
  orgId: Type.Optional(Type.Union([Id, Type.Null()])),
  status: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 2 }), Type.Null()])),
  ...PageQuery,
})
export type UserListBody = Static<typeof UserListBody>

export const UserRow = Type.Object({
  id: Type.Integer(),
  nickName: Type.String(),
  realName: Type.Union([Type.String(), Type.Null()]),
  mobile: Type.Union([Type.String(), Type.Null()]),
  status: Type.Integer({ description: '1 正常, 2 冻结' }),
  serviceAccount: Type.Boolean({
    description: '机器客户端的服务账号：无密码，不能交互式登录（DESIGN.md §11, §16）',
  }),
  createTime: DateTime,
  updateTime: DateTime,
  source: Type.Optional(
    Type.String({ description: '来源：local 本地，ldap 目录同步，scim SCIM 客户端（DESIGN.md §22）' }),
  ),
})
export type UserRow = Static<typeof UserRow>

/** Whether the caller may change the user (the scope and power rules the writes enforce, DESIGN.md §6a, §13). */
const UserWritable = Type.Optional(
  Type.Boolean({
    description: '调用者能否修改、删除此用户或重置其密码（数据权限范围与权限均覆盖，DESIGN.md §6a、§13）',
  }),
)

/** A row of the user list: the user and, read per page, the positions and roles they hold directly. */
export const UserListRow = Type.Object({
  ...UserRow.properties,
  positions: Type.Array(Type.String(), { description: "岗位，'部门-职位'，按部门、职位排序" }),
  hiddenPositions: Type.Optional(
    Type.Integer({ description: '部门不在调用者数据权限范围内、未列出的岗位数（DESIGN.md §13）' }),
  ),
  roles: Type.Array(Type.String(), { description: '直接关联的角色名称' }),
  mfaEnabled: Type.Optional(Type.Boolean({ description: '已绑定两步验证（DESIGN.md §14）' })),
  writable: UserWritable,
})
export type UserListRow = Static<typeof UserListRow>
export const UserPage = LargePage(UserListRow)

/**
 * POST /user/namelist: the candidates of the group and position "link users" pickers. With
 * userGroupId or positionId it leaves out the users already in that group / holding that position.
 */
export const UserNameListBody = Type.Object({
  nickName: OptionalNameSearch(),
  userGroupId: Type.Optional(Type.Union([Type.Null(), Id])),
  positionId: Type.Optional(Type.Union([Type.Null(), Id])),
  ...PageQuery,
})
export type UserNameListBody = Static<typeof UserNameListBody>

export const UserSimple = Type.Object({
  id: Type.Integer(),
  nickName: Type.String(),
  realName: Type.Union([Type.String(), Type.Null()]),
  status: Type.Integer({ description: '1 正常, 2 冻结' }),
})
export type UserSimple = Static<typeof UserSimple>
export const UserSimplePage = Page(UserSimple)

export const UserDetail = Type.Object({
  ...UserRow.properties,
  passwordIsInitial: Type.Boolean({
    description: 'true while the password is still the configured initial one',
  }),
  writable: UserWritable,
})
export type UserDetail = Static<typeof UserDetail>

export const UserInsertBody = Type.Object({
  nickName: NameText(MSG.nickNameBlank, NAME_LABELS.nickName),
  status: Type.Optional(UserStatus),
  password: PasswordInput,
  mobile: MobileInput,
  realName: RealNameInput,
  positionIds: Type.Optional(
    Type.Array(Id, {
      maxItems: 100,
      description:
        '新用户在同一事务中关联的岗位；限定数据权限的管理员必须至少给出一个其范围内的岗位（DESIGN.md §13）',
    }),
  ),
})
export type UserInsertBody = Static<typeof UserInsertBody>

export const UserUpdateBody = Type.Object({
  id: Id,
  nickName: NameText(MSG.nickNameRequired, NAME_LABELS.nickName),
  status: UserStatus,
  password: PasswordInput,
  mobile: MobileInput,
  realName: RealNameInput,
})
export type UserUpdateBody = Static<typeof UserUpdateBody>

export const UserIdQuery = Type.Object({ userId: Id })
export type UserIdQuery = Static<typeof UserIdQuery>

export const UserRelRoleBody = Type.Object({ id: Id, roleIds: IdList, expiresAt: ExpiresAtField })
export type UserRelRoleBody = Static<typeof UserRelRoleBody>
export const UserUnRelRoleBody = Type.Object({ roleId: Id, userId: Id })
export type UserUnRelRoleBody = Static<typeof UserUnRelRoleBody>

/** `greoupIds` is SPEC.md's spelling; `groupIds` is accepted too. */
export const UserRelGroupsBody = Type.Object({
  id: Id,
  greoupIds: Type.Optional(IdList),
  groupIds: Type.Optional(IdList),
  expiresAt: ExpiresAtField,
})
export type UserRelGroupsBody = Static<typeof UserRelGroupsBody>
export const UserUnRelGroupsBody = Type.Object({ groupId: Id, userId: Id })
export type UserUnRelGroupsBody = Static<typeof UserUnRelGroupsBody>

export const UserRelPositionBody = Type.Object({ id: Id, positionIds: IdList, expiresAt: ExpiresAtField })
export type UserRelPositionBody = Static<typeof UserRelPositionBody>
export const UserUnRelPositionBody = Type.Object({ positionId: Id, userId: Id })
export type UserUnRelPositionBody = Static<typeof UserUnRelPositionBody>

export const UserRoleListQuery = Type.Object({
  userId: Id,
  roleName: Type.Optional(NameSearch()),
  ...PageQuery,
})
export type UserRoleListQuery = Static<typeof UserRoleListQuery>
export const UserRoleRow = Type.Object({
  id: Type.Integer(),
  roleName: Type.String(),
  type: Type.Integer({ description: '1 超级管理员, 2 内置, 3 普通' }),
  status: Type.Integer(),
  description: Type.Union([Type.String(), Type.Null()]),
  expiresAt: LinkExpiresAt,
})
export type UserRoleRow = Static<typeof UserRoleRow>
export const UserRolePage = Page(UserRoleRow)

export const UserGroupListQuery = Type.Object({
  userId: Id,
  groupName: Type.Optional(NameSearch()),
  ...PageQuery,
})
export type UserGroupListQuery = Static<typeof UserGroupListQuery>
export const UserGroupRow = Type.Object({
  id: Type.Integer(),
  groupName: Type.String(),
  status: Type.Integer(),
  description: Type.Union([Type.String(), Type.Null()]),
  expiresAt: LinkExpiresAt,
})
export type UserGroupRow = Static<typeof UserGroupRow>
export const UserGroupPage = Page(UserGroupRow)

export const UserPositionListQuery = Type.Object({
  userId: Id,
  orgId: Type.Optional(Id),
  stationId: Type.Optional(Id),
  ...PageQuery,
})
export type UserPositionListQuery = Static<typeof UserPositionListQuery>
export const UserPositionRow = Type.Object({
  id: Type.Integer(),
  orgId: Type.Integer(),
  stationId: Type.Integer(),
  organizationCompleteName: Type.String({ description: "部门路径名称，以 '-' 连接" }),
  stationName: Type.String(),
  status: Type.Integer(),
  type: Type.Integer(),
  expiresAt: LinkExpiresAt,
})
export type UserPositionRow = Static<typeof UserPositionRow>
export const UserPositionPage = Type.Object({
  ...Page(UserPositionRow).properties,
  hiddenPositions: Type.Optional(
    Type.Integer({ description: '部门不在调用者数据权限范围内、未列出的岗位数（DESIGN.md §13）' }),
  ),
})
