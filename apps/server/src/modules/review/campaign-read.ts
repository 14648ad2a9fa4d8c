import { sql, type SQL } from 'drizzle-orm'
import {
  REVIEW_MSG,
  type ReviewCampaignRow,
  type ReviewItemRow,
  type ReviewItemsBody,
  type ReviewListBody,
} from '@amg/contract'
import { queryRows, type DbOrTx } from '../../db/connection'
import { containsPattern } from '../../lib/like'
import { notFound } from '../../lib/errors'
import { visibleUser, type Caller } from '../../auth/user-scope'

interface CampaignDbRow {
  id: number
  name: string
  status: 'open' | 'closed'
  role_ids: number[]
  org_ids: number[]
  due_at: Date | string
  default_decision: 'keep' | 'revoke'
  auto_apply: boolean
  create_time: Date | string
  create_user_id: number | null
  create_user_name: string | null
  closed_at: Date | string | null
  closed_by: number | null
  closed_by_name: string | null
  total: number
  decided: number
  revoked: number
  reviewers: { id: number; nickName: string }[] | null
}

const operator = (id: number | null, name: string | null) =>
  id === null ? null : { id: Number(id), nickName: name ?? '' }

/** Campaigns, newest first, each with its progress; `mine`: only those the user reviews (the inbox). */
export async function listCampaigns(
  db: DbOrTx,
  body: ReviewListBody,
  mine?: number,
): Promise<{ list: ReviewCampaignRow[]; total: number }> {
  const pageNum = body.pageNum ?? 1
  const pageSize = body.pageSize ?? 10
  const conds: SQL[] = []
  if (body.name) conds.push(sql`c.name ilike ${containsPattern(body.name)}`)
  if (body.status) conds.push(sql`c.status = ${body.status}`)
  if (mine !== undefined)
    conds.push(
      sql`exists (select 1 from review_reviewers rr where rr.campaign_id = c.id and rr.user_id = ${mine})`,
    )
  const where = conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from review_campaigns c ${where}`,
  )
  const rows = await queryRows<CampaignDbRow>(
    db,
    sql`select c.id, c.name, c.status, c.role_ids, c.org_ids, c.due_at, c.default_decision, c.auto_apply,
        c.create_time, c.create_user_id, cu.nick_name as create_user_name, c.closed_at, c.closed_by,
        bu.nick_name as closed_by_name,
        (select count(*)::int from review_items i where i.campaign_id = c.id) as total,
        (select count(*)::int from review_items i where i.campaign_id = c.id and i.decision is not null) as decided,
        (select count(*)::int from review_items i where i.campaign_id = c.id and i.applied) as revoked,
        (select json_agg(json_build_object('id', u.id, 'nickName', u.nick_name) order by u.id)
           from review_reviewers rr join users u on u.id = rr.user_id where rr.campaign_id = c.id) as reviewers
      from review_campaigns c
      left join users cu on cu.id = c.create_user_id
      left join users bu on bu.id = c.closed_by
      ${where}
      order by c.id desc limit ${pageSize} offset ${(pageNum - 1) * pageSize}`,
  )
  return {
    total: Number(n),
    list: rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      status: r.status,
      roleIds: (r.role_ids ?? []).map(Number),
      orgIds: (r.org_ids ?? []).map(Number),
      reviewers: r.reviewers ?? [],
      dueAt: new Date(r.due_at),
      defaultDecision: r.default_decision,
      autoApply: r.auto_apply,
      total: Number(r.total),
      decided: Number(r.decided),
      revoked: Number(r.revoked),
      createTime: new Date(r.create_time),
      createUser: operator(r.create_user_id, r.create_user_name),
      closedAt: r.closed_at ? new Date(r.closed_at) : null,
      closedBy: operator(r.closed_by, r.closed_by_name),
    })),
  }
}

/** The campaign's status, or 404. */
export async function campaignStatus(db: DbOrTx, id: number): Promise<CampaignDbRow> {
  const [row] = await queryRows<CampaignDbRow>(db, sql`select * from review_campaigns where id = ${id}`)
  if (!row) throw notFound(REVIEW_MSG.campaignNotFound)
  return row
}

interface ItemDbRow {
  id: number
  user_id: number
  nick_name: string
  role_id: number
  role_name: string
  via: 'direct' | 'group' | 'position'
  via_id: number | null
  via_name: string | null
  last_used_at: Date | string | null
  recommendation: 'keep' | 'revoke'
  decision: 'keep' | 'revoke' | null
  comment: string | null
  decided_by: number | null
  decided_by_name: string | null
  decided_at: Date | string | null
  applied: boolean
}

const ITEM_COLUMNS = sql`i.id, i.user_id, i.nick_name, i.role_id, i.role_name, i.via, i.via_id, i.via_name,
  i.last_used_at, i.recommendation, i.decision, i.comment, i.decided_by, du.nick_name as decided_by_name,
  i.decided_at, i.applied`

export const itemOf = (r: ItemDbRow): ReviewItemRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  nickName: r.nick_name,
  roleId: Number(r.role_id),
  roleName: r.role_name,
  via: r.via,
  viaId: r.via_id === null ? null : Number(r.via_id),
  viaName: r.via_name,
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  recommendation: r.recommendation,
  decision: r.decision,
  comment: r.comment,
  decidedBy: operator(r.decided_by, r.decided_by_name),
  decidedAt: r.decided_at ? new Date(r.decided_at) : null,
  applied: r.applied,
})

/** A campaign's items the caller may read (DESIGN.md §13), in order; `decided` filters. */
export async function listItems(
  db: DbOrTx,
  body: ReviewItemsBody,
  caller: Caller,
): Promise<{ list: ReviewItemRow[]; total: number }> {
  await campaignStatus(db, body.campaignId)
  const pageNum = body.pageNum ?? 1
  const pageSize = body.pageSize ?? 10
  const conds: SQL[] = [sql`i.campaign_id = ${body.campaignId}`]
  const visible = visibleUser(caller, sql`i.user_id`)
  if (visible) conds.push(visible)
  if (body.decided === true) conds.push(sql`i.decision is not null`)
  if (body.decided === false) conds.push(sql`i.decision is null`)
  const where = sql`where ${sql.join(conds, sql` and `)}`
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from review_items i ${where}`,
  )
  const rows = await queryRows<ItemDbRow>(
    db,
    sql`select ${ITEM_COLUMNS} from review_items i left join users du on du.id = i.decided_by ${where}
      order by i.id limit ${pageSize} offset ${(pageNum - 1) * pageSize}`,
  )
  return { total: Number(n), list: rows.map(itemOf) }
}

/** Every item of a campaign, for the export (read in pages, so a large campaign streams). */
export async function* allItems(
  db: DbOrTx,
  campaignId: number,
  caller: Caller,
): AsyncGenerator<ReviewItemRow> {
  const visible = visibleUser(caller, sql`i.user_id`) ?? sql`true`
  let after = 0
  for (;;) {
    const rows = await queryRows<ItemDbRow>(
      db,
      sql`select ${ITEM_COLUMNS} from review_items i left join users du on du.id = i.decided_by
        where i.campaign_id = ${campaignId} and ${visible} and i.id > ${after} order by i.id limit 1000`,
    )
    for (const r of rows) yield itemOf(r)
    if (rows.length < 1000) return
    after = Number(rows[rows.length - 1].id)
  }
}
