import { Type, type Static } from '@sinclair/typebox'
import { ACCESS_MSG } from '../messages'
import { DateTime, Id, Page, PageQuery, withMessage } from './common'

/**
 * DESIGN.md §20: eligibility (a role a user may activate for a while) and access requests (a role
 * asked for, decided by one or two approvers who could make the link themselves).
 */

export const ACCESS_MINUTES = { min: 15, max: 1440 } as const

const Minutes = (message: string) =>
  Type.Integer({ minimum: ACCESS_MINUTES.min, maximum: ACCESS_MINUTES.max, 'x-message': message })
const Reason = Type.String({ maxLength: 500, 'x-message': ACCESS_MSG.reasonTooLong })
const Comment = Type.String({ maxLength: 500, 'x-message': ACCESS_MSG.reasonTooLong })

export const EligibilityInsertBody = Type.Object({
  userId: withMessage(Id, ACCESS_MSG.userNotFound),
  roleId: withMessage(Id, ACCESS_MSG.roleNotFound),
  maxMinutes: Minutes(ACCESS_MSG.maxMinutesInvalid),
  requireReason: Type.Optional(Type.Boolean({ default: true })),
  requireMfa: Type.Optional(Type.Boolean({ default: false })),
  approvals: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2, default: 0, 'x-message': ACCESS_MSG.approvalsInvalid }),
  ),
})
export type EligibilityInsertBody = Static<typeof EligibilityInsertBody>

/** absent `userId`: one's own eligibilities (a session is enough) */
export const EligibilityListBody = Type.Object({ userId: Type.Optional(Type.Union([Id, Type.Null()])) })
export type EligibilityListBody = Static<typeof EligibilityListBody>

export const EligibilityRow = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  nickName: Type.String(),
  roleId: Type.Integer(),
  roleName: Type.String(),
  maxMinutes: Type.Integer(),
  requireReason: Type.Boolean(),
  requireMfa: Type.Boolean(),
  approvals: Type.Integer(),
  grantedBy: Type.Union([Type.Integer(), Type.Null()]),
  grantedByName: Type.Union([Type.String(), Type.Null()]),
  createTime: DateTime,
})
export type EligibilityRow = Static<typeof EligibilityRow>

export const EligibilityIdQuery = Type.Object({ id: withMessage(Id, ACCESS_MSG.eligibilityNotFound) })

export const EligibilityActivateBody = Type.Object({
  id: withMessage(Id, ACCESS_MSG.eligibilityNotFound),
  minutes: Minutes(ACCESS_MSG.minutesInvalid),
  reason: Type.Optional(Reason),
  code: Type.Optional(Type.String({ maxLength: 16 })),
})
export type EligibilityActivateBody = Static<typeof EligibilityActivateBody>

/** approvals 0: linked until `expiresAt`; else the access request made */
export const EligibilityActivated = Type.Union([
  Type.Object({ active: Type.Literal(true), expiresAt: DateTime }),
  Type.Object({ requestId: Type.Integer() }),
])
export type EligibilityActivated = Static<typeof EligibilityActivated>

export const ACCESS_REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'cancelled', 'expired'] as const
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number]

export const AccessRequestInsertBody = Type.Object({
  roleId: withMessage(Id, ACCESS_MSG.roleNotFound),
  minutes: Type.Optional(
    // the message on each branch: a refusal names the first branch that failed
    Type.Union([Minutes(ACCESS_MSG.minutesInvalid), Type.Null({ 'x-message': ACCESS_MSG.minutesInvalid })]),
  ),
  reason: Reason,
})
export type AccessRequestInsertBody = Static<typeof AccessRequestInsertBody>

export const AccessRequestListBody = Type.Object({
  ...PageQuery,
  box: Type.Union([Type.Literal('mine'), Type.Literal('approve')], { 'x-message': '请选择申请列表' }),
  status: Type.Optional(
    Type.Union([Type.Null(), Type.Union(ACCESS_REQUEST_STATUSES.map((s) => Type.Literal(s)))]),
  ),
})
export type AccessRequestListBody = Static<typeof AccessRequestListBody>

export const AccessApproval = Type.Object({
  approverId: Type.Integer(),
  approverName: Type.Union([Type.String(), Type.Null()]),
  comment: Type.Union([Type.String(), Type.Null()]),
  time: DateTime,
})

export const AccessRequestRow = Type.Object({
  id: Type.Integer(),
  requesterId: Type.Integer(),
  requesterName: Type.String(),
  roleId: Type.Integer(),
  roleName: Type.String(),
  minutes: Type.Union([Type.Integer(), Type.Null()]),
  reason: Type.String(),
  eligibilityId: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.String(),
  approvalsNeeded: Type.Integer(),
  approvals: Type.Array(AccessApproval),
  decidedByName: Type.Union([Type.String(), Type.Null()]),
  decisionComment: Type.Union([Type.String(), Type.Null()]),
  createTime: DateTime,
  decideTime: Type.Union([DateTime, Type.Null()]),
  expiresAt: Type.Union([DateTime, Type.Null()]),
  linkExpiresAt: Type.Union([DateTime, Type.Null()]),
})
export type AccessRequestRow = Static<typeof AccessRequestRow>
export const AccessRequestPage = Page(AccessRequestRow)

export const AccessRequestApproveBody = Type.Object({
  id: withMessage(Id, ACCESS_MSG.requestNotFound),
  comment: Type.Optional(Type.Union([Type.Null(), Comment])),
})
export type AccessRequestApproveBody = Static<typeof AccessRequestApproveBody>

export const AccessRequestRejectBody = Type.Object({
  id: withMessage(Id, ACCESS_MSG.requestNotFound),
  comment: Type.String({
    minLength: 1,
    maxLength: 500,
    pattern: '\\S',
    'x-message': ACCESS_MSG.commentRequired,
  }),
})
export type AccessRequestRejectBody = Static<typeof AccessRequestRejectBody>

export const AccessRequestIdBody = Type.Object({ id: withMessage(Id, ACCESS_MSG.requestNotFound) })
export type AccessRequestIdBody = Static<typeof AccessRequestIdBody>

/** The requestable roles, optionally only those that open a console path (the 403 page's 申请权限). */
export const RequestableRolesBody = Type.Object({
  path: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 512 })])),
})
export type RequestableRolesBody = Static<typeof RequestableRolesBody>

export const RequestableRole = Type.Object({
  id: Type.Integer(),
  roleName: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  requestApprovals: Type.Integer(),
  /** already held (directly, or through a group or position) */
  held: Type.Boolean(),
  pending: Type.Boolean(),
})
export type RequestableRole = Static<typeof RequestableRole>

/** One's own roles, with the end of each direct link (我的权限). */
export const MyRole = Type.Object({
  roleId: Type.Integer(),
  roleName: Type.String(),
  /** direct, group or position */
  via: Type.String(),
  viaName: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.Union([DateTime, Type.Null()]),
})
export type MyRole = Static<typeof MyRole>
