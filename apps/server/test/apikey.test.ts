import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { desc, eq, sql } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, MSG } from '@amg/contract'
import { apiKeys, users } from '../src/db/schema'
import { operationLogs } from '../src/db/audit-schema'
import { hashToken } from '../src/lib/tokens'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'

/**
 * DESIGN.md §16: API keys (`Authorization: Bearer ak_…`) act as their user, are stored as hashes,
 * expire, are revocable at once, and no one makes a key stronger than themselves (§6a).
 */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const admin = (method: string, url: string, body?: unknown, query?: Record<string, string | number>) =>
  t.call(method, url, { token: t.adminToken, body, query })
const withKey = (key: string, method: string, url: string, body: unknown = {}) =>
  t.call(method, url, { headers: { authorization: `Bearer ${key}` }, body })

/** On PostgreSQL a change made outside the server arrives by NOTIFY, a moment after it commits. */
async function eventually(check: () => Promise<void>) {
  if (t.database.kind === 'pglite') return check()
  await vi.waitFor(check, { timeout: 2000, interval: 20 })
}

const keyRows = () => t.db.select().from(apiKeys)

describe('API keys', () => {
  it("finds keys by a part of the key's name or of its user's nickName", async () => {
    const user = await t.userWithCodes(['service'])
    const nick = (await t.db.select({ n: users.nickName }).from(users).where(eq(users.id, user.id)))[0].n
    const made = await admin('POST', '/api/apikey/insert', { userId: user.id, name: '对账_服务%' })
    expect(made.status).toBe(200)
    const id = (made.body.data as { id: number }).id
    const ids = async (keyword: string) => {
      const res = await admin('POST', '/api/apikey/list', { keyword })
      expect(res.status, res.body.msg).toBe(200)
      expect(res.body.data.total).toBe(res.body.data.list.length)
      return (res.body.data.list as { id: number }[]).map((r) => r.id)
    }
    expect(await ids('对账_服务%')).toEqual([id])
    expect(await ids(nick.toUpperCase())).toEqual([id])
    // % and _ are literal: '对账x服务' does not match '对账_服务'
    expect(await ids('对账x')).toEqual([])
    expect(await ids('')).toContain(id)
    expect((await admin('POST', '/api/apikey/list', { keyword: 'x'.repeat(65) })).status).toBe(400)
  })

  it('answers the key once, stores only its hash, and the key calls as its user with their permissions', async () => {
    const user = await t.userWithCodes(['service'])
    const made = await admin('POST', '/api/apikey/insert', { userId: user.id, name: '订单服务' })
    expect(made.status).toBe(200)
    const { id, key } = made.body.data as { id: number; key: string }
    expect(key).toMatch(/^ak_[A-Za-z0-9_-]{43}$/)
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id))
    expect(row.keyHash).toBe(hashToken(key))
    expect(JSON.stringify(row)).not.toContain(key.slice(3))

    // the list shows a prefix, never the key
    const list = await admin('POST', '/api/apikey/list', { userId: user.id })
    expect(list.status).toBe(200)
    expect(list.body.data.total).toBe(1)
    expect(list.body.data.list[0]).toMatchObject({ id, name: '订单服务', prefix: key.slice(0, 7) })
    expect(JSON.stringify(list.body)).not.toContain(key)

    // the user's permission (service list) and nothing more
    expect((await withKey(key, 'POST', '/api/service/list')).status).toBe(200)
    const refused = await withKey(key, 'POST', '/api/user/list')
    expect(refused.status).toBe(403)
    expect((await withKey(key, 'GET', '/api/user/current')).body.data.id).toBe(user.id)

    // warm: answered from memory, no lookup
    const lookup = vi.spyOn(t.app.ctx.sessions, 'lookupApiKey')
    expect((await withKey(key, 'POST', '/api/service/list')).status).toBe(200)
    expect(lookup).not.toHaveBeenCalled()
    lookup.mockRestore()

    // last use written (lazily, once a minute at most)
    await vi.waitFor(async () => {
      const [used] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id))
      expect(used.lastUsedTime).not.toBeNull()
    })
  })

  it('refuses unknown keys, a key sent as a session token, and other bearer tokens', async () => {
    const user = await t.userWithCodes(['service'])
    const { key } = (await admin('POST', '/api/apikey/insert', { userId: user.id, name: 'k' })).body.data
    expect((await withKey(`ak_${'x'.repeat(43)}`, 'POST', '/api/service/list')).status).toBe(401)
    expect((await t.call('POST', '/api/service/list', { token: key, body: {} })).status).toBe(401)
    expect((await withKey(user.token, 'POST', '/api/service/list')).status).toBe(401)
  })

  it('revoking ends the key on the very next call; freezing its user ends it too', async () => {
    const user = await t.userWithCodes(['service'])
    const { id, key } = (await admin('POST', '/api/apikey/insert', { userId: user.id, name: 'k' })).body.data
    expect((await withKey(key, 'POST', '/api/service/list')).status).toBe(200)
    const revoked = await admin('DELETE', '/api/apikey/revoke', undefined, { id })
    expect(revoked.status).toBe(200)
    expect((await withKey(key, 'POST', '/api/service/list')).status).toBe(401)
    expect((await admin('DELETE', '/api/apikey/revoke', undefined, { id })).status).toBe(404)

    const other = (await admin('POST', '/api/apikey/insert', { userId: user.id, name: 'k2' })).body.data
    expect((await withKey(other.key, 'POST', '/api/service/list')).status).toBe(200)
    await t.db.update(users).set({ status: 2 }).where(eq(users.id, user.id))
    await eventually(async () => {
      const res = await withKey(other.key, 'POST', '/api/service/list')
      expect(res.status).toBe(401)
      expect(res.body.msg).toBe(MSG.loginFrozen)
    })
  })

  it('expires: a past expiry is refused, a key past its expiry is refused', async () => {
    const user = await t.userWithCodes(['service'])
    const before = (await keyRows()).length
    const past = await admin('POST', '/api/apikey/insert', {
      userId: user.id,
      name: 'k',
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    })
    expect(past.status).toBe(400)
    expect(past.body.msg).toBe(MSG.apiKeyExpiryPast)
    expect((await keyRows()).length).toBe(before)

    const made = await admin('POST', '/api/apikey/insert', {
      userId: user.id,
      name: 'k',
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    })
    expect(made.status).toBe(200)
    const { id, key } = made.body.data
    expect((await withKey(key, 'POST', '/api/service/list')).status).toBe(200)
    await t.db
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiKeys.id, id))
    await eventually(async () => expect((await withKey(key, 'POST', '/api/service/list')).status).toBe(401))
  })

  it('answers bad input with 400 and a clear message, changing nothing', async () => {
    const before = (await keyRows()).length
    const cases: [unknown, string][] = [
      [{ name: 'k' }, MSG.apiKeyUserRequired],
      [{ userId: 1, name: '' }, MSG.apiKeyNameRequired],
      [{ userId: 99999, name: 'k' }, MSG.apiKeyUserNotFound],
      [{ userId: 1, name: 'k', expiresAt: 'tomorrow' }, MSG.apiKeyExpiryInvalid],
    ]
    for (const [body, msg] of cases) {
      const res = await admin('POST', '/api/apikey/insert', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.msg).toBe(msg)
    }
    expect((await keyRows()).length).toBe(before)
  })

  it('no one makes or revokes a key stronger than themselves (§6a)', async () => {
    const maker = await t.userWithCodes(['apikey', 'apikey:add', 'apikey:revoke', 'service'])
    const adminId = (await userIdByName(t.db, 'admin'))!
    const before = (await keyRows()).length
    const refused = await t.call('POST', '/api/apikey/insert', {
      token: maker.token,
      body: { userId: adminId, name: 'takeover' },
    })
    expect(refused.status).toBe(403)
    expect(refused.body.msg.startsWith(BEYOND_POWER_PREFIX)).toBe(true)
    expect((await keyRows()).length).toBe(before)

    // a key for oneself gives nothing one does not hold
    const own = await t.call('POST', '/api/apikey/insert', {
      token: maker.token,
      body: { userId: maker.id, name: 'mine' },
    })
    expect(own.status).toBe(200)

    // the admin's own key cannot be revoked by the weaker maker
    const adminKey = (await admin('POST', '/api/apikey/insert', { userId: adminId, name: 'ops' })).body.data
    const revoke = await t.call('DELETE', '/api/apikey/revoke', {
      token: maker.token,
      query: { id: adminKey.id },
    })
    expect(revoke.status).toBe(403)
    expect((await withKey(adminKey.key, 'POST', '/api/user/list')).status).toBe(200)
  })

  it('writes making and revoking to the operation log, without the key', async () => {
    const user = await t.userWithCodes(['service'])
    const { id, key } = (await admin('POST', '/api/apikey/insert', { userId: user.id, name: 'logged' })).body
      .data
    const [made] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(made).toMatchObject({ summary: '新建 API 密钥', resourceType: 'API 密钥管理', result: 'success' })
    expect(JSON.stringify(made)).not.toContain(key)
    await admin('DELETE', '/api/apikey/revoke', undefined, { id })
    const [revoked] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(revoked).toMatchObject({ summary: '吊销 API 密钥', resourceId: String(id), result: 'success' })
  })
})
