import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, desc, eq, sql } from 'drizzle-orm'
import { ACCESS_MSG } from '@amg/contract'
import { accessRequests, events, operationLogs, userRoles } from '../src/db/schema'
import { expirePendingRequests } from '../src/modules/access-request/expiry'
import { createTestApp, type TestApp } from './helpers/app'
import { approve, ask, box, cancel, directLinks, reject, roleWith } from './helpers/access'

/**
 * Access requests (DESIGN.md §20): the requester asks with a session alone; an approver holds the
 * approve permission, never approves their own request, holds an approver role where one is named,
 * and could make the link themselves (power §6a and reach §13); two approvals are two people; a
 * request pending for 7 days expires. Each step answers a log row and an event.
 */
let t: TestApp
let requester: { id: number; token: string }
let approver: { id: number; token: string; roleId: number }
let second: { id: number; token: string; roleId: number }
let weak: { id: number; token: string }
let target: number

beforeAll(async () => {
  t = await createTestApp()
  // the role asked for opens 用户管理; the approvers hold that power, the weak one does not
  target = await roleWith(t, 'ar_target', ['user'])
  requester = await t.userWithCodes([], 'ar_requester')
  approver = await t.userWithCodes(['access-request:approve', 'user'], 'ar_approver')
  second = await t.userWithCodes(['access-request:approve', 'user'], 'ar_second')
  weak = await t.userWithCodes(['access-request:approve'], 'ar_weak')
})
afterAll(async () => t.close())

const statusOf = async (id: number) =>
  (await t.db.select().from(accessRequests).where(eq(accessRequests.id, id)))[0].status
const eventsOf = async (type: string, requestId: number) =>
  (await t.db.select().from(events).where(eq(events.type, type))).filter(
    (e) => (e.payload as { requestId: number }).requestId === requestId,
  )
const canListUsers = async (token: string) =>
  (await t.call('POST', '/api/user/list', { token, body: { pageNum: 1, pageSize: 1 } })).status

describe('asking', () => {
  it('a requestable role is asked for with a session alone; the request is logged with its event', async () => {
    const res = await ask(t, requester.token, { roleId: target, minutes: 60, reason: '排查工单' })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(ACCESS_MSG.requested)
    const id = res.body.data as number
    expect(await statusOf(id)).toBe('pending')
    expect(await eventsOf('access.requested', id)).toHaveLength(1)
    const [log] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(log.summary).toBe('提交权限申请')
    expect(log.result).toBe('success')
    const again = await ask(t, requester.token, { roleId: target, minutes: 60, reason: '再来一次' })
    expect(again.status).toBe(409)
    expect(again.body.msg).toBe(ACCESS_MSG.requestPendingExists)
    const mine = await box(t, requester.token, 'mine')
    expect(mine.body.data.list.map((r: { id: number }) => r.id)).toContain(id)
    await cancel(t, requester.token, id)
  })

  it('bad input is refused with a Chinese message and makes no request', async () => {
    const before = (await t.db.select().from(accessRequests)).length
    const other = await roleWith(t, 'ar_closed', ['user'], { requestable: false })
    const cases: [Record<string, unknown>, number, string][] = [
      [{ roleId: other, minutes: 60, reason: '想要' }, 409, ACCESS_MSG.roleNotRequestable],
      [{ roleId: target, minutes: 10, reason: '太短' }, 400, ACCESS_MSG.minutesInvalid],
      [{ roleId: target, minutes: 1441, reason: '太长' }, 400, ACCESS_MSG.minutesInvalid],
      [{ roleId: target, minutes: 60, reason: '   ' }, 400, ACCESS_MSG.reasonRequired],
      [{ roleId: 999999, minutes: 60, reason: '无此角色' }, 400, ACCESS_MSG.roleNotFound],
    ]
    for (const [body, status, msg] of cases) {
      const res = await ask(t, requester.token, body)
      expect([res.status, res.body.msg]).toEqual([status, msg])
    }
    expect((await t.db.select().from(accessRequests)).length).toBe(before)
  })
})

describe('deciding', () => {
  it('the requester never approves their own request (409), even holding the power', async () => {
    const id = (await ask(t, approver.token, { roleId: target, minutes: 30, reason: '自己批' })).body.data
    const res = await approve(t, approver.token, id)
    expect([res.status, res.body.msg]).toEqual([409, ACCESS_MSG.selfApproval])
    expect(await statusOf(id)).toBe('pending')
    await cancel(t, approver.token, id)
  })

  it('an approver without the power to link the role is refused and nothing changes', async () => {
    const id = (await ask(t, requester.token, { roleId: target, minutes: 30, reason: '弱审批' })).body.data
    const res = await approve(t, weak.token, id)
    expect(res.status).toBe(403)
    expect(res.body.msg).toContain('不能授予或管理超出自己权限的内容')
    expect(await statusOf(id)).toBe('pending')
    expect((await directLinks(t, requester.id)).map((l) => l.role_id)).not.toContain(target)
    // rejecting needs the same standing
    expect((await reject(t, weak.token, id, '不行')).status).toBe(403)
    // the approve box needs the approve permission
    expect((await box(t, requester.token, 'approve')).status).toBe(403)
    await cancel(t, requester.token, id)
  })

  it("approval makes the time-bound link in the approver's name; the requester gets the power", async () => {
    expect(await canListUsers(requester.token)).toBe(403)
    const id = (await ask(t, requester.token, { roleId: target, minutes: 60, reason: '处理用户' })).body.data
    const waiting = await box(t, approver.token, 'approve', 'pending')
    expect(waiting.body.data.list.map((r: { id: number }) => r.id)).toContain(id)
    const res = await approve(t, approver.token, id, '同意')
    expect([res.status, res.body.msg]).toEqual([200, ACCESS_MSG.approved])
    const [row] = await t.db.select().from(accessRequests).where(eq(accessRequests.id, id))
    expect(row.status).toBe('approved')
    expect(row.decidedBy).toBe(approver.id)
    const end = row.linkExpiresAt!.getTime()
    expect(Math.abs(end - (Date.now() + 60 * 60_000))).toBeLessThan(60_000)
    const link = (await directLinks(t, requester.id)).find((l) => l.role_id === target)
    // the link ends when the request's time does
    expect(new Date(link!.expires_at!).getTime()).toBe(end)
    expect(await canListUsers(requester.token)).toBe(200)
    expect(await eventsOf('access.approved', id)).toHaveLength(1)
    const logs = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.summary, '批准权限申请'), eq(operationLogs.operatorId, approver.id)))
    expect(logs.length).toBeGreaterThan(0)
    // a decided request is not decided again
    const again = await approve(t, second.token, id)
    expect([again.status, again.body.msg]).toEqual([409, ACCESS_MSG.requestNotPending('已批准')])
    await t.db.delete(userRoles).where(and(eq(userRoles.userId, requester.id), eq(userRoles.roleId, target)))
    await t.app.ctx.authz.invalidate()
  })

  it('where approver roles are named, only their holders approve', async () => {
    const approverRole = await roleWith(t, 'ar_approver_role', [], { requestable: false })
    const guarded = await roleWith(t, 'ar_guarded', ['user'], { approverRoleIds: [approverRole] })
    const id = (await ask(t, requester.token, { roleId: guarded, minutes: 30, reason: '需审批角色' })).body
      .data
    const refused = await approve(t, approver.token, id)
    expect([refused.status, refused.body.msg]).toEqual([403, ACCESS_MSG.approverRoleRequired])
    expect(
      (await box(t, approver.token, 'approve')).body.data.list.map((r: { id: number }) => r.id),
    ).not.toContain(id)
    await t.db.insert(userRoles).values({ userId: second.id, roleId: approverRole })
    await t.app.ctx.authz.invalidate()
    const ok = await approve(t, second.token, id)
    expect(ok.status).toBe(200)
    expect(await statusOf(id)).toBe('approved')
  })

  it('two approvals need two different people', async () => {
    const two = await roleWith(t, 'ar_two', ['user'], { requestApprovals: 2 })
    const id = (await ask(t, requester.token, { roleId: two, minutes: 120, reason: '双人审批' })).body.data
    const first = await approve(t, approver.token, id, '一审')
    expect([first.status, first.body.msg]).toEqual([200, ACCESS_MSG.approvedOnce])
    expect(await statusOf(id)).toBe('pending')
    expect((await directLinks(t, requester.id)).map((l) => l.role_id)).not.toContain(two)
    const twice = await approve(t, approver.token, id)
    expect([twice.status, twice.body.msg]).toEqual([409, ACCESS_MSG.alreadyApproved])
    // the first approver no longer sees it in their box; the second does
    expect(
      (await box(t, approver.token, 'approve')).body.data.list.map((r: { id: number }) => r.id),
    ).not.toContain(id)
    const done = await approve(t, second.token, id, '二审')
    expect([done.status, done.body.msg]).toEqual([200, ACCESS_MSG.approved])
    expect(await statusOf(id)).toBe('approved')
    expect((await directLinks(t, requester.id)).map((l) => l.role_id)).toContain(two)
    const mine = (await box(t, requester.token, 'mine')).body.data.list.find(
      (r: { id: number }) => r.id === id,
    )
    expect(mine.approvals.map((a: { approverId: number }) => a.approverId)).toEqual([approver.id, second.id])
  })

  it('rejecting needs a comment, and is logged with its event', async () => {
    const id = (await ask(t, requester.token, { roleId: target, minutes: 30, reason: '被驳回' })).body.data
    const blank = await reject(t, approver.token, id, ' ')
    expect([blank.status, blank.body.msg]).toEqual([400, ACCESS_MSG.commentRequired])
    const res = await reject(t, approver.token, id, '理由不充分')
    expect([res.status, res.body.msg]).toEqual([200, ACCESS_MSG.rejected])
    expect(await statusOf(id)).toBe('rejected')
    expect(await eventsOf('access.rejected', id)).toHaveLength(1)
  })
})

describe('cancel and expiry', () => {
  it('only the requester cancels; a cancelled request is not approved', async () => {
    const id = (await ask(t, requester.token, { roleId: target, minutes: 30, reason: '撤回' })).body.data
    expect((await cancel(t, approver.token, id)).status).toBe(403)
    const res = await cancel(t, requester.token, id)
    expect([res.status, res.body.msg]).toEqual([200, ACCESS_MSG.cancelled])
    expect(await statusOf(id)).toBe('cancelled')
    const late = await approve(t, approver.token, id)
    expect([late.status, late.body.msg]).toEqual([409, ACCESS_MSG.requestNotPending('已撤回')])
  })

  it('a request pending for 7 days expires: read so at once, swept with a log row and an event', async () => {
    const id = (await ask(t, requester.token, { roleId: target, minutes: 30, reason: '过期' })).body.data
    await t.db
      .update(accessRequests)
      .set({ createTime: sql`now() - interval '7 days 1 minute'` })
      .where(eq(accessRequests.id, id))
    const shown = (await box(t, requester.token, 'mine')).body.data.list.find(
      (r: { id: number }) => r.id === id,
    )
    expect(shown.status).toBe('expired')
    const late = await approve(t, approver.token, id)
    expect([late.status, late.body.msg]).toEqual([409, ACCESS_MSG.requestNotPending('已过期')])
    expect(await expirePendingRequests(t.db)).toBeGreaterThanOrEqual(1)
    expect(await statusOf(id)).toBe('expired')
    expect(await eventsOf('access.expired', id)).toHaveLength(1)
    const logs = await t.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.resourceId, String(id)))
    expect(logs.some((l) => l.summary === '权限申请过期')).toBe(true)
    // a fresh one may be asked for again
    expect((await ask(t, requester.token, { roleId: target, minutes: 30, reason: '重新申请' })).status).toBe(
      200,
    )
  })
})

describe('role request settings', () => {
  it('the role calls carry 可申请, 审批人数 and 审批角色; bad values are refused', async () => {
    const res = await t.call('POST', '/api/role/insert', {
      token: t.adminToken,
      body: { roleName: 'ar_form', requestable: true, requestApprovals: 2, approverRoleIds: [target] },
    })
    expect(res.status).toBe(200)
    const detail = await t.call('GET', '/api/role/detail', {
      token: t.adminToken,
      query: { id: res.body.data },
    })
    expect(detail.body.data).toMatchObject({
      requestable: true,
      requestApprovals: 2,
      approverRoleIds: [target],
    })
    const bad = await t.call('PUT', '/api/role/update', {
      token: t.adminToken,
      body: { id: res.body.data, roleName: 'ar_form', status: 1, requestApprovals: 3 },
    })
    expect([bad.status, bad.body.msg]).toEqual([400, ACCESS_MSG.requestApprovalsInvalid])
    const unknown = await t.call('PUT', '/api/role/update', {
      token: t.adminToken,
      body: { id: res.body.data, roleName: 'ar_form', status: 1, approverRoleIds: [999999] },
    })
    expect([unknown.status, unknown.body.msg]).toEqual([400, ACCESS_MSG.approverRolesInvalid])
  })

  it('the 403 page learns the requestable roles that would open a path', async () => {
    const res = await t.call('POST', '/api/access-request/requestable', {
      token: requester.token,
      body: { path: '/usermanage' },
    })
    expect(res.status).toBe(200)
    const names = res.body.data.map((r: { roleName: string }) => r.roleName)
    expect(names).toContain('ar_target')
    expect(names).not.toContain('ar_closed')
    const none = await t.call('POST', '/api/access-request/requestable', {
      token: requester.token,
      body: { path: '/webhookmanage' },
    })
    expect(none.body.data).toEqual([])
  })
})
