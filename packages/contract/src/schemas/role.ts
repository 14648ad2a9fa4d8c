import { Type, type Static } from '@sinclair/typebox'
import { ACCESS_MSG, MSG } from '../messages'
import { NAME_LABELS } from '../names'
import {
  DateTime,
  Grantable,
  Id,
  MESSAGE_KEYWORD,
  OperatorVo,
  OptionalText,
  PageQuery,
  NameText,
  OptionalNameSearch,
} from './common'

const OptionalId = Type.Optional(Type.Union([Id, Type.Null()]))
const OptionalStatus = Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 2 }), Type.Null()]))
const RequiredStatus = Type.Integer({
  minimum: 1,
  maximum: 2,
  description: '1 启用, 2 禁用',
  [MESSAGE_KEYWORD]: MSG.statusRequired,
})
const AdminType = Type.Integer({
  minimum: 1,
  maximum: 2,
  description: '1 超级管理员, 2 内置角色',
  [MESSAGE_KEYWORD]: MSG.roleTypeRequired,
})
const AuthCodes = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 2000,
  description: 'permission codes',
})

/**
 * DESIGN.md §13: the role's data scope (1 全部数据, 2 自定义部门, 3 本部门, 4 本部门及以下, 5 仅本人)
 * and, for 2, the chosen departments (each with everything below it; ignored for the other scopes).
 */
const DataScopeField = Type.Integer({
  minimum: 1,
  maximum: 5,
  description: '数据权限：1 全部数据, 2 自定义部门, 3 本部门, 4 本部门及以下, 5 仅本人',
  [MESSAGE_KEYWORD]: MSG.dataScopeInvalid,
})
const ScopeOrgIds = Type.Array(Id, {
  maxItems: 1000,
  description: '自定义部门的部门 id（数据权限为 2 时有效，各含其下级部门）',
  [MESSAGE_KEYWORD]: MSG.scopeOrgIdsInvalid,
})
/**
 * DESIGN.md §20: whether users may ask for the role, how many approvals a request needs, and the roles
 * an approver must hold one of (none: anyone able to link the role). Absent on update: kept.
 */
const RequestFields = {
  requestable: Type.Optional(Type.Boolean()),
  requestApprovals: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2, [MESSAGE_KEYWORD]: ACCESS_MSG.requestApprovalsInvalid }),
  ),
  approverRoleIds: Type.Optional(
    Type.Array(Id, { maxItems: 100, [MESSAGE_KEYWORD]: ACCESS_MSG.approverRolesInvalid }),
  ),
}

/** On insert: absent means 1 (全部数据). */
const InsertScope = {
  dataScope: Type.Optional({ ...DataScopeField, default: 1 }),
  scopeOrgIds: Type.Optional(ScopeOrgIds),
}
/** On update: absent leaves the stored scope as it is (older clients keep working). */
const UpdateScope = {
  dataScope: Type.Optional(DataScopeField),
  scopeOrgIds: Type.Optional(ScopeOrgIds),
}

/**
 * POST /role/namelist. With userGroupId, positionId or userId it answers the roles not yet
 * linked to that group, position or user (the candidates of the "link roles" popover).
 */
export const RoleNameListBody = Type.Object({
  roleName: OptionalNameSearch(),
  status: OptionalStatus,
  userGroupId: OptionalId,
  positionId: OptionalId,
  userId: OptionalId,
})
export type RoleNameListBody = Static<typeof RoleNameListBody>

export const RoleSimple = Type.Object({
  id: Type.Integer(),
  roleName: Type.String(),
  type: Type.Integer(),
  status: Type.Integer(),
  ...Grantable,
})
export type RoleSimple = Static<typeof RoleSimple>

/** POST /role/listall; empty or absent `types` means every type. */
export const RoleListBody = Type.Object({
  ...PageQuery,
  roleName: OptionalNameSearch(),
  status: OptionalStatus,
  types: Type.Optional(
    Type.Union([Type.Array(Type.Integer({ minimum: 1, maximum: 3 }), { maxItems: 3 }), Type.Null()]),
  ),
})
export type RoleListBody = Static<typeof RoleListBody>

export const RoleRow = Type.Object({
  id: Type.Integer(),
  roleName: Type.String(),
  type: Type.Integer({ description: '1 超级管理员, 2 内置角色, 3 普通角色' }),
  status: Type.Integer({ description: '1 启用, 2 禁用' }),
  description: Type.Union([Type.String(), Type.Null()]),
  createTime: DateTime,
  updateTime: DateTime,
  createUserVo: OperatorVo,
  updateUserVo: OperatorVo,
  dataScope: Type.Integer({
    description: '数据权限：1 全部数据, 2 自定义部门, 3 本部门, 4 本部门及以下, 5 仅本人',
  }),
  scopeOrgIds: Type.Array(Type.Integer(), { description: '自定义部门的部门 id（数据权限为 2 时）' }),
  requestable: Type.Boolean({ description: '可申请' }),
  requestApprovals: Type.Integer({ description: '审批人数：1 或 2' }),
  approverRoleIds: Type.Array(Type.Integer(), { description: '审批角色' }),
})
export type RoleRow = Static<typeof RoleRow>

export const RoleDetail = Type.Object({ ...RoleRow.properties, authCodes: Type.Array(Type.String()) })
export type RoleDetail = Static<typeof RoleDetail>

export const RoleIdQuery = Type.Object({ id: Id })

export const RoleInsertBody = Type.Object({
  authCodes: Type.Optional(AuthCodes),
  ...InsertScope,
  ...RequestFields,
  description: OptionalText(500),
  roleName: NameText(MSG.roleNameRequired, NAME_LABELS.roleName),
})
export type RoleInsertBody = Static<typeof RoleInsertBody>

export const RoleUpdateBody = Type.Object({
  id: Id,
  authCodes: Type.Optional(AuthCodes),
  ...UpdateScope,
  ...RequestFields,
  description: OptionalText(500),
  roleName: NameText(MSG.roleNameRequired, NAME_LABELS.roleName),
  status: RequiredStatus,
})
export type RoleUpdateBody = Static<typeof RoleUpdateBody>

/** POST /role/admin/insert: a new built-in role defaults to type 2, status 1. */
export const AdminRoleInsertBody = Type.Object({
  authCodes: Type.Optional(AuthCodes),
  ...InsertScope,
  ...RequestFields,
  description: OptionalText(500),
  roleName: NameText(MSG.roleNameRequired, NAME_LABELS.roleName),
  type: Type.Optional({ ...AdminType, default: 2 }),
  status: Type.Optional({ ...RequiredStatus, default: 1 }),
})
export type AdminRoleInsertBody = Static<typeof AdminRoleInsertBody>

export const AdminRoleUpdateBody = Type.Object({
  id: Id,
  authCodes: Type.Optional(AuthCodes),
  ...UpdateScope,
  ...RequestFields,
  description: OptionalText(500),
  roleName: NameText(MSG.roleNameRequired, NAME_LABELS.roleName),
  status: RequiredStatus,
  type: AdminType,
})
export type AdminRoleUpdateBody = Static<typeof AdminRoleUpdateBody>
