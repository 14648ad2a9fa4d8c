import { boolean, index, integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core'
import { at, belongsTo, id } from './columns'

/** DESIGN.md §21 (migration 0033). */

/**
 * When each user last used each permission node: an allowed decision made for the user's own call
 * names the nodes that allowed it. Kept in memory and flushed once a minute (auth/usage.ts), each
 * flush keeping the later of the stored and the new time. No foreign keys: a row of a user or node
 * deleted since is harmless and the flush never fails on one.
 */
export const permissionUsage = pgTable(
  'permission_usage',
  {
    userId: integer('user_id').notNull(),
    nodeCode: varchar('node_code', { length: 64 }).notNull(),
    lastUsedAt: at('last_used_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.nodeCode] })],
)

/** A review campaign: its scope, reviewers, due date and what happens to undecided items. */
export const reviewCampaigns = pgTable('review_campaigns', {
  id: id(),
  name: varchar('name', { length: 64 }).notNull(),
  roleIds: integer('role_ids').array().notNull(),
  orgIds: integer('org_ids').array().notNull(),
  dueAt: at('due_at').notNull(),
  defaultDecision: varchar('default_decision', { length: 8 }).notNull(),
  autoApply: boolean('auto_apply').notNull(),
  status: varchar('status', { length: 8 }).notNull().default('open'),
  createTime: at('create_time').notNull().defaultNow(),
  createUserId: integer('create_user_id'),
  closedAt: at('closed_at'),
  closedBy: integer('closed_by'),
})

/** Who reviews a campaign (their inbox). */
export const reviewReviewers = pgTable(
  'review_reviewers',
  {
    campaignId: belongsTo('campaign_id', () => reviewCampaigns.id),
    userId: integer('user_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.userId] }),
    index('review_reviewers_user_id_idx').on(t.userId),
  ],
)

/**
 * One user↔role link in a campaign's scope, as it stood when the campaign was made: the names are
 * kept with it, so the record an auditor exports still reads after a user or role is gone.
 */
export const reviewItems = pgTable(
  'review_items',
  {
    id: id(),
    campaignId: belongsTo('campaign_id', () => reviewCampaigns.id),
    userId: integer('user_id').notNull(),
    nickName: varchar('nick_name', { length: 64 }).notNull(),
    roleId: integer('role_id').notNull(),
    roleName: varchar('role_name', { length: 64 }).notNull(),
    via: varchar('via', { length: 8 }).notNull(),
    viaId: integer('via_id'),
    viaName: varchar('via_name', { length: 128 }),
    lastUsedAt: at('last_used_at'),
    recommendation: varchar('recommendation', { length: 8 }).notNull(),
    decision: varchar('decision', { length: 8 }),
    comment: varchar('comment', { length: 255 }),
    decidedBy: integer('decided_by'),
    decidedAt: at('decided_at'),
    applied: boolean('applied').notNull().default(false),
  },
  (t) => [
    index('review_items_campaign_id_idx').on(t.campaignId, t.id),
    index('review_items_user_id_idx').on(t.userId),
  ],
)
