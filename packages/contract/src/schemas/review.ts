import { Type, type Static } from '@sinclair/typebox'
import { REVIEW_MSG } from '../messages'
import { DateTime, Id, NameText, OptionalNameSearch, Page, PageQuery, withMessage } from './common'

/**
 * DESIGN.md §21: access reviews (定期权限复核). A campaign holds one item per user↔role link in its
 * scope (a direct link, or a membership of a group or position carrying the role), each with the
 * user's last use of the role and a recommendation; reviewers decide, and closing applies the revokes
 * through the ordinary link path.
 */

export const REVIEW_DECISIONS = ['keep', 'revoke'] as const
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number]

/** A role unused this long (or never) is recommended for revoking. */
export const REVIEW_UNUSED_DAYS = 90

// the message on each branch too: a refusal names the first branch that failed
const Decision = Type.Union(
  [
    Type.Literal('keep', { 'x-message': REVIEW_MSG.decisionInvalid }),
    Type.Literal('revoke', { 'x-message': REVIEW_MSG.decisionInvalid }),
  ],
  { 'x-message': REVIEW_MSG.decisionInvalid },
)

const IdArray = (message: string) =>
  withMessage(Type.Array(withMessage(Id, message), { maxItems: 1000 }), message)

export const ReviewInsertBody = Type.Object({
  name: NameText(REVIEW_MSG.nameRequired, '复核名称', 64),
  roleIds: Type.Optional(IdArray(REVIEW_MSG.roleIdsInvalid)),
  orgIds: Type.Optional(IdArray(REVIEW_MSG.orgIdsInvalid)),
  reviewerIds: IdArray(REVIEW_MSG.reviewersRequired),
  dueAt: Type.String({ format: 'date-time', 'x-message': REVIEW_MSG.dueAtInvalid }),
  defaultDecision: Decision,
  autoApply: withMessage(Type.Boolean(), REVIEW_MSG.autoApplyRequired),
})
export type ReviewInsertBody = Static<typeof ReviewInsertBody>

export const ReviewCreated = Type.Object({ id: Type.Integer(), items: Type.Integer() })
export type ReviewCreated = Static<typeof ReviewCreated>

export const ReviewListBody = Type.Object({
  ...PageQuery,
  name: OptionalNameSearch(64),
  status: Type.Optional(Type.Union([Type.Null(), Type.Literal('open'), Type.Literal('closed')])),
})
export type ReviewListBody = Static<typeof ReviewListBody>

const Operator = Type.Union([Type.Object({ id: Type.Integer(), nickName: Type.String() }), Type.Null()])

export const ReviewCampaignRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  roleIds: Type.Array(Type.Integer()),
  orgIds: Type.Array(Type.Integer()),
  reviewers: Type.Array(Type.Object({ id: Type.Integer(), nickName: Type.String() })),
  dueAt: DateTime,
  defaultDecision: Decision,
  autoApply: Type.Boolean(),
  /** items in all, and how many have a decision */
  total: Type.Integer(),
  decided: Type.Integer(),
  createTime: DateTime,
  createUser: Operator,
  closedAt: Type.Union([DateTime, Type.Null()]),
  closedBy: Operator,
  /** revokes applied when the campaign was closed */
  revoked: Type.Integer(),
})
export type ReviewCampaignRow = Static<typeof ReviewCampaignRow>
export const ReviewCampaignPage = Page(ReviewCampaignRow)

export const ReviewItemsBody = Type.Object({
  ...PageQuery,
  campaignId: withMessage(Id, REVIEW_MSG.campaignRequired),
  /** true: only decided items; false: only undecided ones */
  decided: Type.Optional(Type.Union([Type.Null(), Type.Boolean()])),
})
export type ReviewItemsBody = Static<typeof ReviewItemsBody>

export const ReviewVia = Type.Union([Type.Literal('direct'), Type.Literal('group'), Type.Literal('position')])

export const ReviewItemRow = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  nickName: Type.String(),
  roleId: Type.Integer(),
  roleName: Type.String(),
  via: ReviewVia,
  /** the group or position the role comes through (null for a direct link) */
  viaId: Type.Union([Type.Integer(), Type.Null()]),
  viaName: Type.Union([Type.String(), Type.Null()]),
  lastUsedAt: Type.Union([DateTime, Type.Null()]),
  recommendation: Decision,
  decision: Type.Union([Decision, Type.Null()]),
  comment: Type.Union([Type.String(), Type.Null()]),
  decidedBy: Operator,
  decidedAt: Type.Union([DateTime, Type.Null()]),
  /** closing applied this item's revoke */
  applied: Type.Boolean(),
})
export type ReviewItemRow = Static<typeof ReviewItemRow>
export const ReviewItemPage = Page(ReviewItemRow)

export const ReviewDecideBody = Type.Object({
  itemIds: withMessage(
    Type.Array(withMessage(Id, REVIEW_MSG.itemsRequired), { minItems: 1, maxItems: 1000 }),
    REVIEW_MSG.itemsRequired,
  ),
  decision: Decision,
  comment: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 255 })])),
})
export type ReviewDecideBody = Static<typeof ReviewDecideBody>

export const ReviewCloseBody = Type.Object({ id: withMessage(Id, REVIEW_MSG.campaignRequired) })
export type ReviewCloseBody = Static<typeof ReviewCloseBody>

export const ReviewIdQuery = Type.Object({ id: withMessage(Id, REVIEW_MSG.campaignRequired) })
export type ReviewIdQuery = Static<typeof ReviewIdQuery>

export const UsageQuery = Type.Object({ userId: withMessage(Id, REVIEW_MSG.usageUserRequired) })
export type UsageQuery = Static<typeof UsageQuery>

export const UsageResult = Type.Object({
  list: Type.Array(Type.Object({ nodeCode: Type.String(), lastUsedAt: DateTime })),
})
export type UsageResult = Static<typeof UsageResult>
