import {
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  uniqueIndex,
  varchar,
  boolean,
} from 'drizzle-orm/pg-core'
import { roles, users } from './schema'
import { at, belongsTo, created, id, times } from './columns'

/** DESIGN.md §20 (migration 0032): eligibility (just-in-time roles) and access requests. */

/** A user may activate a role for up to `maxMinutes`, as its granter set. */
export const eligibilities = pgTable(
  'eligibilities',
  {
    id: id(),
    userId: belongsTo('user_id', () => users.id),
    roleId: belongsTo('role_id', () => roles.id),
    maxMinutes: smallint('max_minutes').notNull(),
    requireReason: boolean('require_reason').notNull().default(true),
    requireMfa: boolean('require_mfa').notNull().default(false),
    /** 0: activation links at once (in the granter's name); 1 or 2: it makes an access request */
    approvals: smallint('approvals').notNull().default(0),
    grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
    ...times,
  },
  (t) => [
    uniqueIndex('eligibilities_user_role_key').on(t.userId, t.roleId),
    index('eligibilities_role_id_idx').on(t.roleId),
  ],
)

export const ACCESS_REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'cancelled', 'expired'] as const

export const accessRequests = pgTable(
  'access_requests',
  {
    id: id(),
    requesterId: belongsTo('requester_id', () => users.id),
    roleId: belongsTo('role_id', () => roles.id),
    /** null: the link is made without an end */
    minutes: smallint('minutes'),
    reason: varchar('reason', { length: 500 }).notNull(),
    eligibilityId: integer('eligibility_id').references(() => eligibilities.id, { onDelete: 'set null' }),
    approvalsNeeded: smallint('approvals_needed').notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decisionComment: varchar('decision_comment', { length: 500 }),
    createTime: created(),
    decideTime: at('decide_time'),
    /** the end of the link the approval made */
    linkExpiresAt: at('link_expires_at'),
  },
  (t) => [
    index('access_requests_requester_idx').on(t.requesterId, t.id),
    index('access_requests_pending_idx').on(t.status, t.createTime),
  ],
)

export const accessRequestApprovals = pgTable(
  'access_request_approvals',
  {
    requestId: belongsTo('request_id', () => accessRequests.id),
    approverId: belongsTo('approver_id', () => users.id),
    comment: varchar('comment', { length: 500 }),
    createTime: created(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.approverId] })],
)
