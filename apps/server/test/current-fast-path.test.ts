import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentFastPathCount } from '../src/modules/session/current-fast-path'
import { createTestApp, type TestApp } from './helpers/app'
import { TEST_ADMIN_PASSWORD } from './helpers/constants'
import { bothWays as bothWaysOf } from './helpers/both-ways'

/**
 * `GET /api/user/current` is kept as it goes on the wire, one answer per user's access
 * (modules/session/current-answer.ts), and over HTTP sent before Fastify once kept
 * (current-fast-path.ts); injected requests reach the route. After every change that alters the
 * answer, the HTTP answer is the route's, byte for byte, and shows the change.
 */
let t: TestApp
let base: string

beforeAll(async () => {
  t = await createTestApp()
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(async () => t.close())

/** The answer over HTTP and through the route, which must agree, as status and data. */
async function bothWays(token: string) {
  const headers = { 'x-auth-token': token, 'accept-encoding': 'gzip, br' }
  const http = await bothWaysOf(t.app, base, '/api/user/current', headers)
  return { status: http.status, data: JSON.parse(http.body.toString('utf8')).data }
}

/** The answer over HTTP when it must come from the fast path (it was kept by the read before). */
async function kept(token: string) {
  const before = currentFastPathCount.answered
  const answer = await bothWays(token)
  expect(currentFastPathCount.answered - before, 'answered before Fastify').toBe(1)
  return answer.data
}

async function call(method: string, url: string, body?: object) {
  const res = await t.call(method, url, { token: t.adminToken, body })
  expect(res.status, res.body.msg).toBe(200)
  return res.body.data
}

describe('GET /api/user/current kept', () => {
  it("is sent before Fastify once kept, the route's bytes, to every session of the user", async () => {
    await bothWays(t.adminToken)
    const admin = await kept(t.adminToken)
    expect(admin).toMatchObject({ nickName: 'admin', superAdmin: true, manageScope: null })
    // another session of the same user: looked up by the route first, then answered before Fastify
    const second = await t.login('admin', TEST_ADMIN_PASSWORD)
    expect((await bothWays(second)).data).toEqual(admin)
    expect(await kept(second)).toEqual(admin)
  })

  it('after every change that alters the answer, the next read shows it', async () => {
    const u = await t.userWithCodes(['access', 'role'], 'cur_fast')
    await bothWays(u.token)
    expect(await kept(u.token)).toMatchObject({ nickName: 'cur_fast', roles: [{ id: u.roleId }] })

    // the role renamed and given one more permission: the roles, auths and calls change
    await call('PUT', '/api/role/update', {
      id: u.roleId,
      roleName: '改名后的角色',
      status: 1,
      authCodes: ['access', 'role', 'user'],
    })
    const renamed = (await bothWays(u.token)).data
    expect(renamed.roles).toEqual([expect.objectContaining({ id: u.roleId, roleName: '改名后的角色' })])
    expect(renamed.authCodes).toContain('user')
    expect(await kept(u.token)).toEqual(renamed)

    // the user's own fields: the real name
    await call('PUT', '/api/user/update', { id: u.id, nickName: 'cur_fast', status: 1, realName: '新名字' })
    const named = (await bothWays(u.token)).data
    expect(named.realName).toBe('新名字')
    expect(await kept(u.token)).toEqual(named)

    // the role taken away: no roles, no permissions
    await call('PUT', '/api/rel/user-un-rel-role', { roleId: u.roleId, userId: u.id })
    const bare = (await bothWays(u.token)).data
    expect(bare.roles).toEqual([])
    expect(bare.authCodes).toEqual([])
    expect(await kept(u.token)).toEqual(bare)

    // the user frozen: the session ends, both ways alike, and nothing is answered before Fastify
    await call('PUT', '/api/user/update', { id: u.id, nickName: 'cur_fast', status: 2, realName: '新名字' })
    const before = currentFastPathCount.answered
    expect((await bothWays(u.token)).status).toBe(401)
    expect(currentFastPathCount.answered).toBe(before)
  })

  it('leaves to the route what it does not keep: a scoped 管理范围, an unknown or missing token', async () => {
    const [root] = await call('GET', '/api/org/tree')
    const scoped = await t.userWithCodes(['access', 'user'], 'cur_scoped')
    await call('PUT', '/api/role/update', {
      id: scoped.roleId,
      roleName: 'cur_scoped角色',
      status: 1,
      authCodes: ['access', 'user'],
      dataScope: 2,
      scopeOrgIds: [root.id],
    })
    const before = currentFastPathCount.answered
    for (let i = 0; i < 2; i++) {
      const { data } = await bothWays(scoped.token)
      expect(data.manageScope).toEqual({
        self: false,
        roots: [expect.objectContaining({ id: root.id, name: root.organizationName })],
      })
    }
    expect((await bothWays('not-a-session')).status).toBe(401)
    expect(currentFastPathCount.answered).toBe(before)
  })
})
