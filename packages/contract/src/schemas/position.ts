import { Type, type Static } from '@sinclair/typebox'
import { ExpiresAtField } from '../link-expiry'
import {
  Grantable,
  Id,
  IdList,
  LargePage,
  MAX_PAGE_NUM,
  NameSearch,
  OptionalNameSearch,
  Page,
  PageQuery,
} from './common'

const OptionalId = Type.Optional(Type.Union([Id, Type.Null()]))

export const PositionListBody = Type.Object({
  /** a department: its positions and those of all its sub-departments */
  orgId: OptionalId,
  stationId: OptionalId,
  ...PageQuery,
})
export type PositionListBody = Static<typeof PositionListBody>

export const PositionRow = Type.Object({
  id: Type.Integer(),
  orgId: Type.Integer(),
  stationId: Type.Integer(),
  organizationCompleteName: Type.String({ description: "部门从根起的名称路径，以 '-' 连接" }),
  stationName: Type.String(),
  status: Type.Integer({ description: '1 启用, 2 禁用' }),
  type: Type.Integer({ description: '1 普通职位' }),
})
export type PositionRow = Static<typeof PositionRow>
export const PositionPage = LargePage(PositionRow)

export const PositionForOrgBody = Type.Object({
  orgId: Id,
  stationName: OptionalNameSearch(),
  ...PageQuery,
})
export type PositionForOrgBody = Static<typeof PositionForOrgBody>

export const PositionForOrgRow = Type.Object({
  id: Type.Integer({ description: '岗位 id' }),
  stationId: Type.Integer(),
  stationName: Type.String(),
  status: Type.Integer({ description: '1 启用, 2 禁用' }),
})
export const PositionForOrgPage = Page(PositionForOrgRow)

export const PositionDeleteQuery = Type.Object({
  positionIds: Type.String({ minLength: 1, maxLength: 10000 }),
})

export const PositionBatchInsertBody = Type.Object({ orgId: Id, stationIds: IdList })
export type PositionBatchInsertBody = Static<typeof PositionBatchInsertBody>

export const PositionEnableQuery = Type.Object({
  positionId: Id,
  enable: Type.Boolean({ description: 'true 启用 (status 1), false 禁用 (status 2)' }),
})

export const PositionRoleLinkBody = Type.Object({ positionId: Id, roleIds: IdList })
export type PositionRoleLinkBody = Static<typeof PositionRoleLinkBody>
export const PositionUserLinkBody = Type.Object({
  positionId: Id,
  userIds: IdList,
  expiresAt: ExpiresAtField,
})
export type PositionUserLinkBody = Static<typeof PositionUserLinkBody>

export const PositionRoleListQuery = Type.Object({
  positionId: Id,
  roleName: Type.Optional(NameSearch()),
  ...PageQuery,
})
export type PositionRoleListQuery = Static<typeof PositionRoleListQuery>

/** `GET /rel/position/userlist`: SPEC.md spells the paging `pagenum`/`pagesize`; `pageNum`/`pageSize` also work. */
export const PositionUserListQuery = Type.Object({
  id: Id,
  pagenum: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM })),
  pagesize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  pageNum: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  nickName: Type.Optional(NameSearch()),
})
export type PositionUserListQuery = Static<typeof PositionUserListQuery>

export const PositionNameListBody = Type.Object({
  /** a department: its positions and those of all its sub-departments */
  orgId: OptionalId,
  stationId: OptionalId,
  /** with a user id: the positions that user does NOT hold (the candidates of the user's "link positions" popover) */
  userId: OptionalId,
})
export type PositionNameListBody = Static<typeof PositionNameListBody>

export const PositionSimple = Type.Object({ ...PositionRow.properties, ...Grantable })
export type PositionSimple = Static<typeof PositionSimple>
