import { sql } from 'drizzle-orm'
import { RESOURCE_GROUPS } from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import { insertSystemLogRow } from '../../audit/log-row'
import { accessEvent } from './events'
import { PENDING_DAYS } from './rules'

/**
 * Pending requests older than seven days expire (DESIGN.md §20). The lists and the decisions read such
 * a request as expired at once (lists.ts, requests.ts); this sweep writes the status, one operation-log
 * row per request with its `access.expired` event, in one transaction. Safe on every instance at
 * once: the update claims each row once.
 */
export async function expirePendingRequests(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = await queryRows<{ id: number; requester_id: number; role_id: number }>(
      tx,
      sql`update access_requests set status = 'expired', decide_time = now()
          where status = 'pending' and create_time <= now() - make_interval(days => ${PENDING_DAYS})
          returning id, requester_id, role_id`,
    )
    for (const r of expired) {
      const request = { id: Number(r.id), requesterId: Number(r.requester_id), roleId: Number(r.role_id) }
      await insertSystemLogRow(
        tx,
        {
          method: 'PUT',
          path: '/api/access-request/expire',
          summary: '权限申请过期',
          resourceType: RESOURCE_GROUPS.accessRequest,
          resourceId: String(request.id),
          msg: `待审批超过 ${PENDING_DAYS} 天，已过期`,
        },
        [accessEvent('access.expired', request)],
      )
    }
    return expired.length
  })
}
