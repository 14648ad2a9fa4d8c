import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/db/connection'
import { roleAuths, roles } from '../../src/db/schema'
import type { TestApp } from './app'

/** Helpers of the eligibility and access-request tests (DESIGN.md §20). */

/** An ordinary role holding these codes, with its request settings written directly. */
export async function roleWith(
  t: TestApp,
  name: string,
  codes: string[],
  opts: { requestable?: boolean; requestApprovals?: number; approverRoleIds?: number[] } = {},
): Promise<number> {
  const [role] = await t.db
    .insert(roles)
    .values({ roleName: name, type: 3, status: 1, requestable: opts.requestable ?? true, ...opts })
    .returning({ id: roles.id })
  if (codes.length)
    await t.db.insert(roleAuths).values(codes.map((authCode) => ({ roleId: role.id, authCode })))
  await t.app.ctx.authz.invalidate()
  return role.id
}

/** The role ids a user holds directly, with each link's end. */
export async function directLinks(t: TestApp, userId: number) {
  return queryRows<{ role_id: number; expires_at: Date | string | null }>(
    t.db,
    sql`select role_id, to_jsonb(ur) ->> 'expires_at' as expires_at from user_roles ur where user_id = ${userId} order by role_id`,
  )
}

export const ask = (t: TestApp, token: string, body: Record<string, unknown>) =>
  t.call('POST', '/api/access-request/insert', { token, body })
export const approve = (t: TestApp, token: string, id: number, comment?: string) =>
  t.call('PUT', '/api/access-request/approve', { token, body: { id, ...(comment ? { comment } : {}) } })
export const reject = (t: TestApp, token: string, id: number, comment: string) =>
  t.call('PUT', '/api/access-request/reject', { token, body: { id, comment } })
export const cancel = (t: TestApp, token: string, id: number) =>
  t.call('PUT', '/api/access-request/cancel', { token, body: { id } })
export const box = (t: TestApp, token: string, which: 'mine' | 'approve', status?: string) =>
  t.call('POST', '/api/access-request/list', {
    token,
    body: { box: which, pageNum: 1, pageSize: 50, status },
  })
