import net, { type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { and, eq, sql } from 'drizzle-orm'
import { MSG, REVIEW_MSG, USER_STATUS } from '@amg/contract'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app'
import {
  oidcClients,
  permissionUsage,
  reviewCampaigns,
  reviewItems,
  roleAuths,
  roles,
  userGroupRoles,
  userGroupUsers,
  userGroups,
  userRoles,
  users,
} from '../src/db/schema'
import { checkFastPathCount } from '../src/modules/authz/check-fast-path'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'

/**
 * DESIGN.md §21: usage is recorded for a user's own allowed calls (the API's hook, forward auth, and
 * check / check-batch asked by a machine client or API key), flushed to permission_usage, and access reviews make
 * items from it, decide them and close them through the ordinary link path.
 */
let t: TestApp
let base: string
let adminId: number
/** U holds A ('user': POST /user/list) and B ('role', never used) directly, C ('station') through group G */
let u: { id: number; token: string; roleId: number }
let roleB: number
let roleC: number
let groupG: number

const admin = (method: string, url: string, body?: unknown, query?: Record<string, string | number>) =>
  t.call(method, url, { token: t.adminToken, body, query })

async function makeRole(name: string, codes: string[]): Promise<number> {
  const [role] = await t.db
    .insert(roles)
    .values({ roleName: name, type: 3, status: 1 })
    .returning({ id: roles.id })
  await t.db.insert(roleAuths).values(codes.map((authCode) => ({ roleId: role.id, authCode })))
  return role.id
}

const future = () => new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString()

/** The stored usage rows of a user, by node code. */
async function storedUsage(userId: number): Promise<Map<string, Date>> {
  const rows = await t.db.select().from(permissionUsage).where(eq(permissionUsage.userId, userId))
  return new Map(rows.map((r) => [r.nodeCode, r.lastUsedAt]))
}

async function forward(token: string, method: string, uri: string) {
  return fetch(`${base}/api/authz/forward`, {
    headers: { 'x-auth-token': token, 'x-original-method': method, 'x-original-uri': uri },
  })
}

beforeAll(async () => {
  t = await createTestApp({ usageFlushSeconds: 1 })
  adminId = (await userIdByName(t.db, 'admin'))!
  u = await t.userWithCodes(['user'])
  roleB = await makeRole(`rb_${u.id}`, ['role'])
  roleC = await makeRole(`rc_${u.id}`, ['station'])
  const [g] = await t.db
    .insert(userGroups)
    .values({ groupName: `g_${u.id}`, status: 1 })
    .returning({ id: userGroups.id })
  groupG = g.id
  await t.db.insert(userRoles).values({ userId: u.id, roleId: roleB })
  await t.db.insert(userGroupRoles).values({ groupId: groupG, roleId: roleC })
  await t.db.insert(userGroupUsers).values({ groupId: groupG, userId: u.id })
  await t.app.ctx.authz.invalidate()
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(async () => t.close())

describe('usage', () => {
  it('records a forward-auth decision for the end user and flushes it within the interval', async () => {
    const before = Date.now()
    // twice: the first is decided cold (Fastify's path may load), the second from memory (the fast path)
    expect((await forward(u.token, 'POST', '/user/list')).status).toBe(200)
    expect((await forward(u.token, 'POST', '/user/list')).status).toBe(200)
    // a refused call records nothing
    expect((await forward(u.token, 'POST', '/org/insert')).status).toBe(403)
    await vi.waitFor(async () => expect((await storedUsage(u.id)).has('user')).toBe(true), {
      timeout: 5000,
      interval: 100,
    })
    const stored = await storedUsage(u.id)
    expect(stored.get('user')!.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(stored.has('org:add')).toBe(false)
    const res = await admin('GET', '/api/authz/usage', undefined, { userId: u.id })
    expect(res.status).toBe(200)
    expect(res.body.data.list.map((r: { nodeCode: string }) => r.nodeCode)).toContain('user')
  })

  it("records the API's own calls through the hook", async () => {
    const v = await t.userWithCodes(['org'])
    expect((await t.call('GET', '/api/org/tree', { token: v.token })).status).toBe(200)
    const res = await admin('GET', '/api/authz/usage', undefined, { userId: v.id })
    expect(res.body.data.list.map((r: { nodeCode: string }) => r.nodeCode)).toEqual(['org'])
  })

  it('counts a check asked with an API key as use, and not 权限分析 questions or a session asking "may I?"', async () => {
    const made = await admin('POST', '/api/apikey/insert', { userId: u.id, name: 'k' })
    const key = made.body.data.key as string
    const byKey = await t.call('POST', '/api/authz/check', {
      headers: { authorization: `Bearer ${key}` },
      body: { method: 'POST', path: '/station/list' },
    })
    expect(byKey.body.data.allowed).toBe(true)
    // questions about U from the console: not U's use
    expect(
      (await admin('POST', '/api/authz/explain', { userId: u.id, method: 'POST', path: '/role/listall' }))
        .status,
    ).toBe(200)
    expect(
      (await admin('POST', '/api/authz/check', { userId: u.id, method: 'POST', path: '/role/listall' })).body
        .data.allowed,
    ).toBe(true)
    // U's own session asking whether to show a button: not use either
    const self = await t.call('POST', '/api/authz/check', {
      token: u.token,
      body: { method: 'POST', path: '/role/listall' },
    })
    expect(self.body.data.allowed).toBe(true)
    const list = (await admin('GET', '/api/authz/usage', undefined, { userId: u.id })).body.data.list
    const codes = list.map((r: { nodeCode: string }) => r.nodeCode)
    expect(codes).toContain('station')
    expect(codes).not.toContain('role')
  })

  it('counts the allowed items of a check-batch asked with an API key as use, the denied ones not', async () => {
    const w = await t.userWithCodes(['org:add', 'station:delete'])
    const key = (await admin('POST', '/api/apikey/insert', { userId: w.id, name: 'batch' })).body.data
      .key as string
    const res = await t.call('POST', '/api/authz/check-batch', {
      headers: { authorization: `Bearer ${key}` },
      body: {
        checks: [
          { method: 'POST', path: '/org/insert' },
          { method: 'PUT', path: '/user/update' },
          { method: 'DELETE', path: '/station/delete' },
        ],
      },
    })
    expect(res.status, res.body.msg).toBe(200)
    expect(res.body.data.results).toEqual([true, false, true])
    // written by the flush (once a second here), and listed as stored
    await vi.waitFor(async () => expect((await storedUsage(w.id)).size).toBe(2), {
      timeout: 5000,
      interval: 100,
    })
    expect([...(await storedUsage(w.id)).keys()].sort()).toEqual(['org:add', 'station:delete'])
    const list = (await admin('GET', '/api/authz/usage', undefined, { userId: w.id })).body.data.list
    expect(list.map((r: { nodeCode: string }) => r.nodeCode).sort()).toEqual(['org:add', 'station:delete'])
  })

  it("counts a machine client's check-batch about a user as that user's use, not the client's", async () => {
    const made = await admin('POST', '/api/service/insert', { key: 'usage-batch', name: '机器 usage-batch' })
    expect(made.status, made.body.msg).toBe(200)
    const saved = await admin('PUT', '/api/service/oidc', {
      serviceId: made.body.data,
      type: 'machine',
      redirectUris: [],
    })
    expect(saved.status, saved.body.msg).toBe(200)
    const { clientId, clientSecret } = saved.body.data as { clientId: string; clientSecret: string }
    const granted = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    })
    expect(granted.status).toBe(200)
    const token = ((await granted.json()) as { access_token: string }).access_token
    // its service account may check others (authz:check); the user it serves holds org:add only
    const [client] = await t.db
      .select()
      .from(oidcClients)
      .where(eq(oidcClients.serviceId, made.body.data as number))
    const serviceUserId = client.serviceUserId!
    const checker = await makeRole(`checker_${serviceUserId}`, ['authz:check'])
    await t.db.insert(userRoles).values({ userId: serviceUserId, roleId: checker })
    await t.app.ctx.authz.invalidate()
    const x = await t.userWithCodes(['org:add'])
    const res = await t.call('POST', '/api/authz/check-batch', {
      headers: { authorization: `Bearer ${token}` },
      body: {
        userId: x.id,
        checks: [
          { method: 'POST', path: '/org/insert' },
          { method: 'DELETE', path: '/station/delete' },
        ],
      },
    })
    expect(res.status, res.body.msg).toBe(200)
    expect(res.body.data.results).toEqual([true, false])
    await vi.waitFor(async () => expect((await storedUsage(x.id)).has('org:add')).toBe(true), {
      timeout: 5000,
      interval: 100,
    })
    expect([...(await storedUsage(x.id)).keys()]).toEqual(['org:add'])
    const list = (await admin('GET', '/api/authz/usage', undefined, { userId: x.id })).body.data.list
    expect(list.map((r: { nodeCode: string }) => r.nodeCode)).toEqual(['org:add'])
    // a frozen user's calls are all refused, though their nodes match: nothing is recorded for them
    const z = await t.userWithCodes(['org:add'])
    // asked from the console first (not use), so Z's access is held when the client asks
    expect(
      (await admin('POST', '/api/authz/check', { userId: z.id, method: 'POST', path: '/org/insert' })).body
        .data.allowed,
    ).toBe(true)
    await t.db.update(users).set({ status: USER_STATUS.frozen }).where(eq(users.id, z.id))
    const refused = await t.call('POST', '/api/authz/check-batch', {
      headers: { authorization: `Bearer ${token}` },
      body: { userId: z.id, checks: [{ method: 'POST', path: '/org/insert' }] },
    })
    expect(refused.body.data.results).toEqual([false])
    await t.app.ctx.usage.flush()
    expect((await storedUsage(z.id)).size).toBe(0)
    // the client only asked: none of the checked nodes count as its own account's use
    const own = (await admin('GET', '/api/authz/usage', undefined, { userId: serviceUserId })).body.data.list
    expect(own.map((r: { nodeCode: string }) => r.nodeCode)).not.toContain('org:add')
  })

  it('does not count a check-batch asked from a console session (权限分析, or the user asking "may I?")', async () => {
    const y = await t.userWithCodes(['org:add', 'station:delete'])
    const checks = [
      { method: 'POST', path: '/org/insert' },
      { method: 'DELETE', path: '/station/delete' },
    ]
    const byAdmin = await admin('POST', '/api/authz/check-batch', { userId: y.id, checks })
    expect(byAdmin.body.data.results).toEqual([true, true])
    const bySelf = await t.call('POST', '/api/authz/check-batch', { token: y.token, body: { checks } })
    expect(bySelf.body.data.results).toEqual([true, true])
    // a flush, then both what is stored and what memory still holds (the list merges it) are empty
    await t.app.ctx.usage.flush()
    expect((await storedUsage(y.id)).size).toBe(0)
    const list = (await admin('GET', '/api/authz/usage', undefined, { userId: y.id })).body.data.list
    expect(list).toEqual([])
  })

  it('the check answered before Fastify tells a session from an API key as the hook does', async () => {
    const w = await t.userWithCodes(['org:add', 'station:delete'])
    const key = (await admin('POST', '/api/apikey/insert', { userId: w.id, name: 'fast' })).body.data
      .key as string
    // a session header blank to the hook (a no-break space: trimmed away) beside the key, written as
    // raw latin-1 bytes (an HTTP client would encode it otherwise)
    const { port } = new URL(base)
    const ask = (method: string, path: string) =>
      new Promise<string>((resolve, reject) => {
        const payload = JSON.stringify({ method, path })
        const socket = net.connect(Number(port), '127.0.0.1')
        let answer = ''
        socket.on('data', (c: Buffer) => (answer += c.toString('latin1')))
        socket.on('end', () => resolve(answer.split('\r\n')[0]))
        socket.on('error', reject)
        socket.write(
          Buffer.from(
            `POST /api/authz/check HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
              `x-auth-token: \u00a0\r\nAuthorization: Bearer ${key}\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
            'latin1',
          ),
        )
      })
    expect(await ask('DELETE', '/station/delete')).toBe('HTTP/1.1 200 OK') // the key and W's access now held in memory
    const before = checkFastPathCount.answered
    expect(await ask('POST', '/org/insert')).toBe('HTTP/1.1 200 OK')
    expect(checkFastPathCount.answered).toBe(before + 1)
    const list = (await admin('GET', '/api/authz/usage', undefined, { userId: w.id })).body.data.list
    expect(list.map((r: { nodeCode: string }) => r.nodeCode).sort()).toEqual(['org:add', 'station:delete'])
  })

  it('answers usage only to callers who hold the call, and only about users in their reach', async () => {
    const none = await t.userWithCodes(['org'])
    expect(
      (await t.call('GET', '/api/authz/usage', { token: none.token, query: { userId: u.id } })).status,
    ).toBe(403)
    const self = await t.userWithCodes(['review'])
    await t.db.update(roles).set({ dataScope: 5 }).where(eq(roles.id, self.roleId))
    await t.app.ctx.authz.invalidate()
    const out = await t.call('GET', '/api/authz/usage', { token: self.token, query: { userId: u.id } })
    expect(out.status).toBe(403)
    expect(out.body.msg).toBe(MSG.userOutOfScope)
    expect(
      (await t.call('GET', '/api/authz/usage', { token: self.token, query: { userId: self.id } })).status,
    ).toBe(200)
  })
})

/** Items of a campaign, all on one page. */
const itemsOf = async (campaignId: number, token = t.adminToken) =>
  (await t.call('POST', '/api/review/items', { token, body: { campaignId, pageNum: 1, pageSize: 100 } })).body
    .data.list as {
    id: number
    userId: number
    roleId: number
    via: string
    lastUsedAt: string | null
    recommendation: string
    decision: string | null
    applied: boolean
  }[]

const linked = async (roleId: number) =>
  (
    await t.db
      .select()
      .from(userRoles)
      .where(and(eq(userRoles.userId, u.id), eq(userRoles.roleId, roleId)))
  ).length > 0
const inGroup = async () =>
  (
    await t.db
      .select()
      .from(userGroupUsers)
      .where(and(eq(userGroupUsers.userId, u.id), eq(userGroupUsers.groupId, groupG)))
  ).length > 0

describe('campaigns', () => {
  it('refuses bad input with a Chinese message and writes nothing', async () => {
    const count = async () =>
      (await t.db.select({ n: sql<number>`count(*)::int` }).from(reviewCampaigns))[0].n
    const before = await count()
    const good = {
      name: '季度复核',
      roleIds: [u.roleId],
      reviewerIds: [adminId],
      dueAt: future(),
      defaultDecision: 'keep',
      autoApply: false,
    }
    const cases: [unknown, number, string][] = [
      [{ ...good, roleIds: [], orgIds: [] }, 400, REVIEW_MSG.scopeRequired],
      [{ ...good, roleIds: undefined }, 400, REVIEW_MSG.scopeRequired],
      [{ ...good, dueAt: new Date(Date.now() - 60_000).toISOString() }, 400, REVIEW_MSG.dueAtPast],
      [{ ...good, reviewerIds: [] }, 400, REVIEW_MSG.reviewersRequired],
      [{ ...good, defaultDecision: 'maybe' }, 400, REVIEW_MSG.decisionInvalid],
      [{ ...good, roleIds: [999999] }, 400, REVIEW_MSG.roleNotFound],
      [{ ...good, reviewerIds: [999999] }, 400, REVIEW_MSG.reviewerNotFound],
      [{ ...good, dueAt: 'soon' }, 400, REVIEW_MSG.dueAtInvalid],
    ]
    for (const [body, status, msg] of cases) {
      const res = await admin('POST', '/api/review/insert', body)
      expect([res.status, res.body.msg]).toEqual([status, msg])
    }
    expect(await count()).toBe(before)
  })

  it('makes an item per link with last use and recommendation; close applies only decided revokes', async () => {
    const made = await admin('POST', '/api/review/insert', {
      name: '季度复核',
      roleIds: [u.roleId, roleB, roleC],
      reviewerIds: [adminId],
      dueAt: future(),
      defaultDecision: 'revoke',
      autoApply: false,
    })
    expect(made.status).toBe(200)
    const id = made.body.data.id as number
    const items = (await itemsOf(id)).filter((i) => i.userId === u.id)
    const a = items.find((i) => i.roleId === u.roleId)!
    const b = items.find((i) => i.roleId === roleB)!
    const c = items.find((i) => i.roleId === roleC)!
    expect([a.via, b.via, c.via]).toEqual(['direct', 'direct', 'group'])
    // used through forward auth a moment ago: kept
    expect(Date.now() - new Date(a.lastUsedAt!).getTime()).toBeLessThan(60_000)
    expect(a.recommendation).toBe('keep')
    // never used: revoke
    expect([b.lastUsedAt, b.recommendation]).toEqual([null, 'revoke'])
    // used through the API key's check
    expect(c.recommendation).toBe('keep')

    expect(
      (await admin('PUT', '/api/review/decide', { itemIds: [b.id], decision: 'revoke', comment: '未使用' }))
        .status,
    ).toBe(200)
    expect((await admin('PUT', '/api/review/decide', { itemIds: [a.id], decision: 'keep' })).status).toBe(200)
    const listed = (await admin('POST', '/api/review/list', { pageNum: 1, pageSize: 10 })).body.data.list
    expect(listed.find((c: { id: number }) => c.id === id)).toMatchObject({ decided: 2, status: 'open' })
    // the reviewer's inbox
    const inbox = (await admin('POST', '/api/review/inbox', {})).body.data.list
    expect(inbox.map((c: { id: number }) => c.id)).toContain(id)

    const closed = await admin('PUT', '/api/review/close', { id })
    expect([closed.status, closed.body.msg]).toEqual([200, REVIEW_MSG.closed])
    expect(await linked(roleB)).toBe(false)
    expect(await linked(u.roleId)).toBe(true)
    // undecided, and no auto-apply: the group membership stays
    expect(await inGroup()).toBe(true)
    const after = await itemsOf(id)
    expect(after.find((i) => i.id === b.id)!.applied).toBe(true)
    expect(after.find((i) => i.id === c.id)!.decision).toBe(null)
    // the unlink is logged as a link change of the close, and its event is in the outbox
    const log = await t.db.execute(
      sql`select id, result from operation_logs where path = '/api/review/close' order by id desc limit 1`,
    )
    const row = (log as unknown as { rows: { id: number; result: string }[] }).rows[0]
    expect(row.result).toBe('success')
    const detail = await admin('GET', '/api/log/operation/detail', undefined, { id: Number(row.id) })
    expect(JSON.stringify(detail.body.data.changes)).toContain(`rb_${u.id}`)
    // deciding an item of a closed campaign: 409, nothing changed
    const late = await admin('PUT', '/api/review/decide', { itemIds: [c.id], decision: 'revoke' })
    expect([late.status, late.body.msg]).toEqual([409, REVIEW_MSG.campaignClosed])
    expect((await itemsOf(id)).find((i) => i.id === c.id)!.decision).toBe(null)
    expect((await admin('PUT', '/api/review/close', { id })).status).toBe(409)
    // the auditors' workbook
    const book = await t.app.inject({
      method: 'GET',
      url: `/api/review/export?id=${id}`,
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(book.statusCode).toBe(200)
    expect(book.headers['content-type']).toContain('spreadsheetml')
    expect(book.rawPayload.subarray(0, 2).toString()).toBe('PK')
  })

  it('with auto-apply, undecided items take the default: a via-group revoke takes the user out of the group', async () => {
    const made = await admin('POST', '/api/review/insert', {
      name: '用户组复核',
      roleIds: [roleC],
      reviewerIds: [adminId],
      dueAt: future(),
      defaultDecision: 'revoke',
      autoApply: true,
    })
    const id = made.body.data.id as number
    const items = await itemsOf(id)
    expect(items.map((i) => [i.userId, i.via])).toEqual([[u.id, 'group']])
    expect((await admin('PUT', '/api/review/close', { id })).status).toBe(200)
    expect(await inGroup()).toBe(false)
    expect((await itemsOf(id))[0]).toMatchObject({ decision: 'revoke', applied: true })
  })

  it('a reviewer without the power to unlink cannot close, and nothing changes', async () => {
    const reviewer = await t.userWithCodes(['review', 'review:decide', 'review:close'])
    const made = await admin('POST', '/api/review/insert', {
      name: '越权复核',
      roleIds: [u.roleId],
      reviewerIds: [reviewer.id],
      dueAt: future(),
      defaultDecision: 'keep',
      autoApply: false,
    })
    const id = made.body.data.id as number
    const item = (await itemsOf(id)).find((i) => i.userId === u.id)!
    // only reviewers decide
    const notMine = await admin('PUT', '/api/review/decide', { itemIds: [item.id], decision: 'revoke' })
    expect([notMine.status, notMine.body.msg]).toEqual([403, REVIEW_MSG.notReviewer])
    const decided = await t.call('PUT', '/api/review/decide', {
      token: reviewer.token,
      body: { itemIds: [item.id], decision: 'revoke' },
    })
    expect(decided.status).toBe(200)
    const refused = await t.call('PUT', '/api/review/close', { token: reviewer.token, body: { id } })
    expect(refused.status).toBe(403)
    expect(await linked(u.roleId)).toBe(true)
    const [campaign] = await t.db.select().from(reviewCampaigns).where(eq(reviewCampaigns.id, id))
    expect(campaign.status).toBe('open')
    const [row] = await t.db.select().from(reviewItems).where(eq(reviewItems.id, item.id))
    expect(row.applied).toBe(false)
    // the same close by someone who holds the power goes through
    expect((await admin('PUT', '/api/review/close', { id })).status).toBe(200)
    expect(await linked(u.roleId)).toBe(false)
  })
})

describe('restart', () => {
  let second: FastifyInstance | undefined
  afterAll(async () => second?.close())

  it('keeps the last use across a restart: the close flushes what memory held', async () => {
    const w = await t.userWithCodes(['station'])
    expect((await t.call('POST', '/api/station/list', { token: w.token, body: {} })).status).toBe(200)
    // straight away, before the interval: only the close writes it
    await t.app.close()
    expect((await storedUsage(w.id)).has('station')).toBe(true)
    second = await buildApp({ config: t.config, database: t.database, logger: false })
    await second.ready()
    const login = await second.inject({
      method: 'POST',
      url: '/api/login',
      payload: { nickName: 'admin', password: t.config.initialAdminPassword },
    })
    const token = login.json().data.token as string
    const res = await second.inject({
      method: 'GET',
      url: `/api/authz/usage?userId=${w.id}`,
      headers: { 'x-auth-token': token },
    })
    expect(res.json().data.list.map((r: { nodeCode: string }) => r.nodeCode)).toEqual(['station'])
  })
})
