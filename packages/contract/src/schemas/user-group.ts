import { Type, type Static } from '@sinclair/typebox'
import { ExpiresAtField, LinkExpiresAt } from '../link-expiry'
import { MSG } from '../messages'
import { NAME_LABELS } from '../names'
import {
  Grantable,
  DateTime,
  Id,
  IdList,
  LargePage,
  OperatorVo,
  OptionalText,
  Page,
  MAX_PAGE_NUM,
  PageQuery,
  NameSearch,
  NameText,
  OptionalNameSearch,
  withMessage,
} from './common'

/** Status of a form field with its SPEC.md §5 message (1 enabled, 2 disabled). */
const StatusField = withMessage(
  Type.Integer({ minimum: 1, maximum: 2, description: '1 启用, 2 禁用' }),
  MSG.statusRequired,
)
const OptionalFilter = (maxLength = 64) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]))

export const UserGroupListBody = Type.Object({
  groupName: OptionalNameSearch(),
  description: OptionalFilter(500),
  status: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 2 }), Type.Null()])),
  ...PageQuery,
})
export type UserGroupListBody = Static<typeof UserGroupListBody>

export const UserGroupListRow = Type.Object({
  id: Type.Integer(),
  groupName: Type.String(),
  status: Type.Integer({ description: '1 启用, 2 禁用' }),
  description: Type.Union([Type.String(), Type.Null()]),
  createTime: DateTime,
  updateTime: DateTime,
  createUserVo: OperatorVo,
  updateUserVo: OperatorVo,
})
export type UserGroupListRow = Static<typeof UserGroupListRow>

export const UserGroupListPage = LargePage(UserGroupListRow)

export const UserGroupIdQuery = Type.Object({ userGroupsId: Id })

export const UserGroupEnableQuery = Type.Object({
  userGroupsId: Id,
  enable: Type.Boolean({ description: 'true 启用 (status 1), false 禁用 (status 2)' }),
})

export const UserGroupInsertBody = Type.Object({
  groupName: NameText(MSG.groupNameRequired, NAME_LABELS.groupName),
  status: StatusField,
  description: OptionalText(500),
  roleIds: Type.Optional(Type.Union([IdList, Type.Null()])),
  userIds: Type.Optional(Type.Union([IdList, Type.Null()])),
})
export type UserGroupInsertBody = Static<typeof UserGroupInsertBody>

export const UserGroupUpdateBody = Type.Object({
  id: Id,
  groupName: NameText(MSG.groupNameRequired, NAME_LABELS.groupName),
  status: StatusField,
  description: OptionalText(500),
})
export type UserGroupUpdateBody = Static<typeof UserGroupUpdateBody>

export const UserGroupDetail = Type.Object({
  ...UserGroupListRow.properties,
  roleIds: Type.Array(Type.Integer()),
  userIds: Type.Array(Type.Integer()),
})
export type UserGroupDetail = Static<typeof UserGroupDetail>

/** `GET /rel/groups/userlist`: SPEC.md spells the paging `pagenum`/`pagesize`; `pageNum`/`pageSize` also work. */
export const GroupUserListQuery = Type.Object({
  id: Id,
  pagenum: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM })),
  pagesize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  pageNum: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  nickName: Type.Optional(NameSearch()),
})
export type GroupUserListQuery = Static<typeof GroupUserListQuery>

/** A user as the link tabs list it. */
export const RelUserRow = Type.Object({
  id: Type.Integer(),
  nickName: Type.String(),
  realName: Type.Union([Type.String(), Type.Null()]),
  status: Type.Integer({ description: '1 正常, 2 冻结' }),
  /** the user's membership of the group or holding of the position: until when (null: permanent) */
  expiresAt: LinkExpiresAt,
})
export const RelUserPage = Type.Object({
  ...Page(RelUserRow).properties,
  outsideCount: Type.Optional(
    Type.Integer({ description: '不在调用者数据权限范围内、未列出的成员数（DESIGN.md §13）' }),
  ),
})

/** A role as the link tabs list it. */
export const RelRoleRow = Type.Object({
  id: Type.Integer(),
  roleName: Type.String(),
  type: Type.Integer({ description: '1 超级管理员, 2 内置, 3 普通' }),
  status: Type.Integer({ description: '1 启用, 2 禁用' }),
})
export const RelRolePage = Page(RelRoleRow)

export const GroupRoleListQuery = Type.Object({
  userGroupId: Id,
  roleName: Type.Optional(NameSearch()),
  ...PageQuery,
})
export type GroupRoleListQuery = Static<typeof GroupRoleListQuery>

export const GroupRoleLinkBody = Type.Object({ userGroupsId: Id, roleIds: IdList })
export type GroupRoleLinkBody = Static<typeof GroupRoleLinkBody>
export const GroupUserLinkBody = Type.Object({ userGroupsId: Id, userIds: IdList, expiresAt: ExpiresAtField })
export type GroupUserLinkBody = Static<typeof GroupUserLinkBody>

export const UserGroupNameListBody = Type.Object({
  groupName: OptionalNameSearch(),
  /** with a user id: the groups that user is NOT in (the candidates of the user's "link groups" popover) */
  userId: Type.Optional(Type.Union([Id, Type.Null()])),
})
export type UserGroupNameListBody = Static<typeof UserGroupNameListBody>

export const UserGroupSimple = Type.Object({
  id: Type.Integer(),
  groupName: Type.String(),
  status: Type.Integer({ description: '1 启用, 2 禁用' }),
  ...Grantable,
})
export type UserGroupSimple = Static<typeof UserGroupSimple>
