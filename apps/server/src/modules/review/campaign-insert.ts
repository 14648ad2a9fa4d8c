import { sql } from 'drizzle-orm'
import { REVIEW_MSG, type ReviewInsertBody } from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { reviewCampaigns, reviewItems, reviewReviewers } from '../../db/schema'
import { badRequest } from '../../lib/errors'
import { visibleUser, type Caller } from '../../auth/user-scope'
import type { UsageRecorder } from '../../auth/usage'
import { loadSources } from '../authz/sources'
import { lastUsesOfRoles, recommendationOf } from './role-use'

/** Item rows inserted per statement. */
const CHUNK = 500

/** 400 unless every id names a row of `table` (its own message). */
async function requireAll(db: Db, table: string, ids: readonly number[], message: string) {
  if (ids.length === 0) return
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where id = any(${intArray(ids)})`,
  )
  if (Number(rows[0].n) !== new Set(ids).size) throw badRequest(message)
}

/** Checks a campaign's input before anything is written: 400 with the reason, nothing changed. */
async function checkInput(db: Db, body: ReviewInsertBody, now: number) {
  const roleIds = [...new Set(body.roleIds ?? [])]
  const orgIds = [...new Set(body.orgIds ?? [])]
  const reviewerIds = [...new Set(body.reviewerIds)]
  if (roleIds.length === 0 && orgIds.length === 0) throw badRequest(REVIEW_MSG.scopeRequired)
  if (reviewerIds.length === 0) throw badRequest(REVIEW_MSG.reviewersRequired)
  const dueAt = new Date(body.dueAt)
  if (Number.isNaN(dueAt.getTime())) throw badRequest(REVIEW_MSG.dueAtInvalid)
  if (dueAt.getTime() <= now) throw badRequest(REVIEW_MSG.dueAtPast)
  await requireAll(db, 'roles', roleIds, REVIEW_MSG.roleNotFound)
  await requireAll(db, 'organizations', orgIds, REVIEW_MSG.orgNotFound)
  await requireAll(db, 'users', reviewerIds, REVIEW_MSG.reviewerNotFound)
  return { roleIds, orgIds, reviewerIds, dueAt }
}

/** The departments and every department below them. */
async function subtreeOf(db: Db, orgIds: readonly number[]): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with recursive tree as (
        select id from organizations where id = any(${intArray(orgIds)})
        union select o.id from organizations o join tree on o.parent = tree.id)
      select id from tree`,
  )
  return rows.map((r) => Number(r.id))
}

/**
 * The users a campaign reviews: holders of a position in one of the departments (or below) when
 * departments are given, every user otherwise; only users the creator may read (DESIGN.md §13).
 */
async function usersInScope(db: Db, orgIds: readonly number[], caller: Caller) {
  const conds = [visibleUser(caller, sql`u.id`)]
  if (orgIds.length)
    conds.push(sql`exists (select 1 from position_users pu join positions p on p.id = pu.position_id
      where pu.user_id = u.id and p.org_id = any(${intArray(await subtreeOf(db, orgIds))}))`)
  const where = conds.filter((c) => c !== undefined)
  return sql`in (select u.id from users u ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``})`
}

/**
 * Makes a campaign (DESIGN.md §21): one item per user↔role link in scope as access is decided
 * (enabled roles, directly, through enabled groups and through enabled positions; a group or position
 * membership is an item of its own), each with the user's last use of the role and a recommendation.
 */
export async function insertCampaign(
  db: Db,
  usage: UsageRecorder,
  caller: Caller,
  body: ReviewInsertBody,
): Promise<{ id: number; items: number }> {
  const now = Date.now()
  const input = await checkInput(db, body, now)
  const sources = await loadSources(
    db,
    await usersInScope(db, input.orgIds, caller),
    input.roleIds.length ? sql`= any(${intArray(input.roleIds)})` : undefined,
  )
  const lastUses = await lastUsesOfRoles(db, usage, sources)
  const [campaign] = await db
    .insert(reviewCampaigns)
    .values({
      name: body.name,
      roleIds: input.roleIds,
      orgIds: input.orgIds,
      dueAt: input.dueAt,
      defaultDecision: body.defaultDecision,
      autoApply: body.autoApply,
      createUserId: caller.id,
    })
    .returning({ id: reviewCampaigns.id })
  await db
    .insert(reviewReviewers)
    .values(input.reviewerIds.map((userId) => ({ campaignId: campaign.id, userId })))
  const names = await nickNames(db, [...new Set(sources.map((s) => s.userId))])
  const rows = sources.map((s) => {
    const lastUsedAt = lastUses.get(`${s.userId}:${s.role.id}`) ?? null
    return {
      campaignId: campaign.id,
      userId: s.userId,
      nickName: names.get(s.userId) ?? '',
      roleId: s.role.id,
      roleName: s.role.roleName,
      via: s.via.kind,
      viaId: s.via.kind === 'direct' ? null : s.via.id,
      viaName: s.via.kind === 'direct' ? null : s.via.name.slice(0, 128),
      lastUsedAt,
      recommendation: recommendationOf(lastUsedAt, now),
    }
  })
  for (let i = 0; i < rows.length; i += CHUNK) await db.insert(reviewItems).values(rows.slice(i, i + CHUNK))
  return { id: campaign.id, items: rows.length }
}

async function nickNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await queryRows<{ id: number; nick_name: string }>(
    db,
    sql`select id, nick_name from users where id = any(${intArray(ids)})`,
  )
  return new Map(rows.map((r) => [Number(r.id), r.nick_name]))
}
