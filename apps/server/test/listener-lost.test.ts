import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { cutListener, msUntil, secondInstance, type SecondInstance } from './helpers/second-instance'
import { failOnUncaughtErrors } from './helpers/pg-faults'

/**
 * DESIGN.md §19: an instance whose change listener was lost (its LISTEN session terminated, as a
 * network reset or a failover does) looks at the change counters before answering from its caches,
 * so a session ended or a role taken away through another instance is refused there within 100 ms,
 * not a second or more later when the listener is back. The listener stays lost for each test.
 */
failOnUncaughtErrors()

describe.skipIf(!inject('pgTemplate'))('an instance that lost its listener', () => {
  let a: TestApp
  let b: SecondInstance | undefined
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  beforeAll(async () => {
    await admin.connect()
    a = await createTestApp()
  })
  afterEach(async () => {
    await b?.close()
    b = undefined
  })
  afterAll(async () => {
    await a?.close()
    await admin.end()
  })

  /** B's forward-auth answer for the token (the gateway's question: may this caller list users?). */
  const forwardAtB = async (token: string) =>
    (
      await b!.app.inject({
        method: 'GET',
        url: '/api/authz/forward',
        headers: { 'x-auth-token': token, 'x-original-method': 'POST', 'x-original-uri': '/user/list' },
      })
    ).statusCode

  /**
   * A new B and a user warm there (the session and its decision held), then B's listener cut: the user
   * is still served while it is lost. A retry starts with a user of its own.
   */
  async function userWarmAtLostB(prefix: string) {
    b = await secondInstance(a, admin)
    const name = `${prefix}_${randomBytes(3).toString('hex')}`
    const user = await a.userWithCodes(['user', 'authz'], name)
    expect(await forwardAtB(user.token)).toBe(200)
    await cutListener(admin, b)
    expect(await forwardAtB(user.token)).toBe(200)
    return { name, user }
  }

  it('refuses a session ended through another instance within 100 ms', async () => {
    const { name, user } = await userWarmAtLostB('lost_session')

    const online = await a.call('POST', '/api/session/online/list', {
      token: a.adminToken,
      body: { pageNum: 1, pageSize: 50, nickName: name },
    })
    const revoke = await a.call('DELETE', '/api/session/online/revoke', {
      token: a.adminToken,
      query: { id: online.body.data.list[0].id },
    })
    expect(revoke.status).toBe(200)
    const ms = await msUntil(async () => (await forwardAtB(user.token)) === 401)
    expect(ms).toBeLessThan(100)
    expect(b!.database.hearsEveryChange(), 'refused while the listener was still lost').toBe(false)
  })

  it('refuses a permission taken away (its role turned off) through another instance within 100 ms', async () => {
    const { name, user } = await userWarmAtLostB('lost_role')

    // the user's role is turned off, through A
    const taken = await a.call('PUT', '/api/role/update', {
      token: a.adminToken,
      body: { id: user.roleId, roleName: `r_${name}`, status: 2 },
    })
    expect(taken.status, taken.body.msg).toBe(200)
    const ms = await msUntil(async () => (await forwardAtB(user.token)) === 403)
    expect(ms).toBeLessThan(100)
    expect(b!.database.hearsEveryChange()).toBe(false)
  })
})
