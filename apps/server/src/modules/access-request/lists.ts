import { sql, type SQL } from 'drizzle-orm'
import {
  AMS_SERVICE_KEY,
  matchesPattern,
  type AccessRequestListBody,
  type AccessRequestRow,
  type MyRole,
  type PageResult,
  type RequestableRole,
} from '@amg/contract'
import { queryRows } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { reach } from '../../auth/reach'
import { visibleUser, type Caller } from '../../auth/user-scope'
import { paging } from '../../lib/paged'
import { PENDING_DAYS } from './rules'
import type { AccessCtx } from './context'

/** The reads of DESIGN.md §20: the two boxes of requests, the roles one may ask for, one's own roles. */

/** A pending request past its days reads as expired at once, whether or not the sweeper came by. */
const STATUS = sql`case when ar.status = 'pending' and ar.create_time <= now() - make_interval(days => ${PENDING_DAYS})
  then 'expired' else ar.status end`

interface RequestRecord {
  id: number
  requester_id: number
  requester_name: string
  role_id: number
  role_name: string
  minutes: number | null
  reason: string
  eligibility_id: number | null
  status: string
  approvals_needed: number
  decided_by_name: string | null
  decision_comment: string | null
  create_time: string | Date
  decide_time: string | Date | null
  link_expires_at: string | Date | null
  approvals:
    { approverId: number; approverName: string | null; comment: string | null; time: string }[] | null
  total: number | string
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v))

/**
 * `mine`: the caller's own requests. `approve`: others' requests the caller may decide — not their
 * own, whose requester lies in the caller's reach for approving (`linker`), whose role names no
 * approver role or one the caller holds, and that the caller has not approved already; the decision
 * itself still runs the full check. `linker` is null when the caller may not approve (403 upstream).
 */
export async function listRequests(
  ctx: AccessCtx,
  userId: number,
  body: AccessRequestListBody,
  linker: Caller | null,
): Promise<PageResult<AccessRequestRow>> {
  const { pageSize, offset } = paging(body)
  const conds: SQL[] = []
  if (body.box === 'mine') conds.push(sql`ar.requester_id = ${userId}`)
  else {
    const access = await ctx.authz.resolve(userId)
    const held = access.roles.map((r) => r.id)
    conds.push(sql`ar.requester_id <> ${userId}`)
    conds.push(sql`(cardinality(r.approver_role_ids) = 0 or r.approver_role_ids && ${intArray(held)})`)
    conds.push(
      sql`not exists (select 1 from access_request_approvals x where x.request_id = ar.id and x.approver_id = ${userId})`,
    )
    const visible = linker ? visibleUser(linker, sql`ar.requester_id`) : sql`false`
    if (visible) conds.push(visible)
  }
  if (body.status) conds.push(sql`${STATUS} = ${body.status}`)
  const rows = await queryRows<RequestRecord>(
    ctx.db,
    sql`select ar.id, ar.requester_id, u.nick_name as requester_name, ar.role_id, r.role_name, ar.minutes,
          ar.reason, ar.eligibility_id, ${STATUS} as status, ar.approvals_needed, d.nick_name as decided_by_name,
          ar.decision_comment, ar.create_time, ar.decide_time, ar.link_expires_at,
          (select json_agg(json_build_object('approverId', a.approver_id, 'approverName', au.nick_name,
              'comment', a.comment, 'time', a.create_time) order by a.create_time)
             from access_request_approvals a left join users au on au.id = a.approver_id
            where a.request_id = ar.id) as approvals,
          count(*) over () as total
        from access_requests ar
        join users u on u.id = ar.requester_id
        join roles r on r.id = ar.role_id
        left join users d on d.id = ar.decided_by
        where ${sql.join(conds, sql` and `)}
        order by ar.id desc limit ${pageSize} offset ${offset}`,
  )
  const total = rows.length
    ? Number(rows[0].total)
    : offset === 0
      ? 0
      : Number(
          (
            await queryRows<{ n: number }>(
              ctx.db,
              sql`select count(*)::int as n from access_requests ar join roles r on r.id = ar.role_id
                  where ${sql.join(conds, sql` and `)}`,
            )
          )[0].n,
        )
  const list = rows.map((r) => {
    const created = new Date(r.create_time)
    return {
      id: Number(r.id),
      requesterId: Number(r.requester_id),
      requesterName: r.requester_name,
      roleId: Number(r.role_id),
      roleName: r.role_name,
      minutes: r.minutes === null ? null : Number(r.minutes),
      reason: r.reason,
      eligibilityId: r.eligibility_id === null ? null : Number(r.eligibility_id),
      status: r.status,
      approvalsNeeded: Number(r.approvals_needed),
      approvals: (r.approvals ?? []).map((a) => ({ ...a, approverId: Number(a.approverId) })),
      decidedByName: r.decided_by_name,
      decisionComment: r.decision_comment,
      createTime: created,
      decideTime: iso(r.decide_time),
      expiresAt: new Date(created.getTime() + PENDING_DAYS * 86_400_000),
      linkExpiresAt: iso(r.link_expires_at),
    }
  })
  return { list, total }
}

/**
 * The requestable, enabled roles; with `path` (a console path the caller was refused), only those
 * holding an enabled permission node whose front-end patterns open it — who-can's question turned
 * round: not who may, but which roles would let me.
 */
export async function requestableRoles(
  ctx: AccessCtx,
  userId: number,
  path: string | null | undefined,
): Promise<RequestableRole[]> {
  let codeFilter = sql``
  if (path) {
    const tree = await ctx.authz.loadEnabledTree()
    const codes = [...tree.values()]
      .filter((n) => n.service === AMS_SERVICE_KEY && n.frontEndAccess.some((p) => matchesPattern(p, path)))
      .map((n) => n.code)
    if (!codes.length) return []
    codeFilter = sql`and exists (select 1 from role_auths ra where ra.role_id = r.id
      and ra.auth_code in (${sql.join(codes, sql`, `)}))`
  }
  const rows = await queryRows<{
    id: number
    role_name: string
    description: string | null
    request_approvals: number
    held: boolean
    pending: boolean
  }>(
    ctx.db,
    sql`select r.id, r.role_name, r.description, r.request_approvals,
          exists (select 1 from (${reach({ users: sql`= ${userId}`, roles: sql`= r.id` })}) h) as held,
          exists (select 1 from access_requests ar where ar.requester_id = ${userId} and ar.role_id = r.id
            and ar.status = 'pending' and ar.create_time > now() - make_interval(days => ${PENDING_DAYS})) as pending
        from roles r where r.requestable and r.status = 1 ${codeFilter}
        order by r.id limit 200`,
  )
  return rows.map((r) => ({
    id: Number(r.id),
    roleName: r.role_name,
    description: r.description,
    requestApprovals: Number(r.request_approvals),
    held: !!r.held,
    pending: !!r.pending,
  }))
}

/** One's own enabled roles and how each is held, with the end of the link that gives it (我的权限). */
export async function myRoles(ctx: AccessCtx, userId: number): Promise<MyRole[]> {
  const rows = await queryRows<{
    role_id: number
    role_name: string
    kind: string
    via_name: string | null
    expires_at: string | Date | null
  }>(
    ctx.db,
    sql`select x.role_id, r.role_name, x.kind, x.via_name,
          coalesce(ur.expires_at, gu.expires_at, pu.expires_at) as expires_at
        from (${reach({ users: sql`= ${userId}`, named: true })}) x
        join roles r on r.id = x.role_id and r.status = 1
        left join user_roles ur on x.kind = 'direct' and ur.user_id = x.user_id and ur.role_id = x.role_id
        left join user_group_users gu on x.kind = 'group' and gu.group_id = x.via_id and gu.user_id = x.user_id
        left join position_users pu on x.kind = 'position' and pu.position_id = x.via_id and pu.user_id = x.user_id
        order by r.id, x.kind`,
  )
  return rows.map((r) => ({
    roleId: Number(r.role_id),
    roleName: r.role_name,
    via: r.kind,
    viaName: r.via_name,
    expiresAt: iso(r.expires_at),
  }))
}
