import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SECURITY_SETTINGS, routes, SIGN_IN_MSG } from '@amg/contract'
import { createTestApp, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

/** What a restricted session may call (DESIGN.md §14); everything else in the route table is refused. */
const ALLOWED = new Set([
  'GET /user/current',
  'PUT /user/password',
  'POST /logout',
  'POST /user/mfa/setup',
  'POST /user/mfa/enable',
  'GET /settings/password-policy',
])
/** Routes anyone may call (sign-in, health, …) need no session, so no session restricts them. */
const PUBLIC = new Set(
  Object.values(routes).flatMap((resource) =>
    Object.values(resource)
      .filter((r) => r.access === 'public')
      .flatMap((r) => [r.method].flat().map((m) => `${m} ${r.path}`)),
  ),
)
// the gateway's questions are public routes, but they answer about the session they carry
const GATEWAY = ['/authz/forward', '/authz/forward/:service']

describe('a restricted session, on every route of the server', () => {
  it('is refused everywhere but the current user, own password and its rules, MFA enrolment and logout', async () => {
    // a super admin whose password an administrator set: all power, none of it usable yet
    await t.call('PUT', '/api/settings/security', {
      token: t.adminToken,
      body: { ...DEFAULT_SECURITY_SETTINGS, forceChangeInitial: true },
    })
    const created = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'restricted_a' },
    })
    expect(created.status).toBe(200)
    const signedIn = await t.call('POST', '/api/login', {
      body: { nickName: 'restricted_a', password: TEST_USER_PASSWORD },
    })
    expect(signedIn.body.data.restricted).toBe('password_change')
    const token: string = signedIn.body.data.token

    const table = t.app.ctx.catalogue.entries
    expect(table.length).toBeGreaterThan(80)
    let refused = 0
    for (const entry of table) {
      const key = `${entry.method} ${entry.url}`
      if (ALLOWED.has(key) || (PUBLIC.has(key) && !GATEWAY.includes(entry.url))) continue
      const url = `/api${entry.url.replace(':service', 'ams')}`
      const res = GATEWAY.includes(entry.url)
        ? await t.call(entry.method, url, {
            headers: { 'x-auth-token': token, 'x-forwarded-method': 'GET', 'x-forwarded-uri': '/x' },
          })
        : await t.call(entry.method, url, { token, body: entry.method === 'GET' ? undefined : {} })
      expect({ key, status: res.status, msg: res.body.msg }).toEqual({
        key,
        status: 403,
        msg: SIGN_IN_MSG.mustChangePassword,
      })
      refused++
    }
    expect(refused).toBeGreaterThan(80)
    // and what it may do still works
    expect((await t.call('GET', '/api/user/current', { token })).status).toBe(200)
    expect((await t.call('POST', '/api/logout', { token })).status).toBe(200)
  })
})
