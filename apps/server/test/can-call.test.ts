import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canCall, routes, type CurrentUser, type Route } from '@amg/contract'
import { DEMO_ACCOUNTS, seedDemo } from '../src/seed/demo'
import { createTestApp, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'

// The console shows an action only when `canCall` says its call would run (the contract's rule on the
// server's matcher). Here every route of the contract is asked of the server as each demo account, a
// limited administrator and the super admin: a 403 must come exactly when `canCall` said no, so no
// action is shown that the server refuses, and none is hidden that it would run.

let t: TestApp
const accounts: { name: string; token: string; current: CurrentUser }[] = []

/** Every route with each of its methods; public routes need no answer (a sign-out would end the test's session). */
const calls = Object.values(routes)
  .flatMap((resource) => Object.values(resource) as Route[])
  .filter((route) => route.access !== 'public')
  .flatMap((route) =>
    (typeof route.method === 'string' ? [route.method] : [...route.method]).map((method) => ({
      route,
      method,
    })),
  )

/** A concrete address for a path with parameters. */
const concrete = (path: string) => path.replace(/:[a-zA-Z]+/g, 'ams')

beforeAll(async () => {
  t = await createTestApp()
  await seedDemo(t.db, { users: 12, password: TEST_USER_PASSWORD })
  const limited = await t.userWithCodes(['access', 'user', 'user:add', 'user:edit'], 'can_call_limited')
  const signIns = [
    { name: 'admin', token: t.adminToken },
    { name: 'can_call_limited', token: limited.token },
    ...(await Promise.all(
      DEMO_ACCOUNTS.map(async (a) => ({
        name: a.nickName,
        token: await t.login(a.nickName, TEST_USER_PASSWORD),
      })),
    )),
  ]
  for (const { name, token } of signIns) {
    const res = await t.call<CurrentUser>('GET', '/api/user/current', { token })
    expect(res.status).toBe(200)
    accounts.push({ name, token, current: res.body.data })
  }
})
afterAll(async () => t.close())

describe('canCall against the server, route by route', () => {
  it('answers GET /user/current with the back-end patterns the server matches', () => {
    const limited = accounts.find((a) => a.name === 'can_call_limited')!.current
    expect(limited.superAdmin).toBe(false)
    expect(limited.calls.length).toBeGreaterThan(0)
    expect(limited.calls.every((p) => typeof p.method === 'string' && p.uri.startsWith('/'))).toBe(true)
    const keys = limited.calls.map((p) => `${p.method.toUpperCase()} ${p.uri}`)
    expect(new Set(keys).size).toBe(keys.length)
    // a super admin's answer lists no patterns: every call is theirs, which `superAdmin` already says
    const admin = accounts.find((a) => a.name === 'admin')!.current
    expect(admin.superAdmin).toBe(true)
    expect(admin.calls).toEqual([])
  })

  it('covers both answers: each limited account may make some calls and not others', () => {
    for (const { name, current } of accounts.filter((a) => a.name !== 'admin')) {
      const answers = calls.map(({ route }) => canCall(route, current, concrete(route.path)))
      expect(answers, name).toContain(false)
      expect(answers, name).toContain(true)
    }
  })

  it('refuses (403) exactly the calls canCall refuses, for every account and route', async () => {
    const mismatches: string[] = []
    for (const { name, token, current } of accounts) {
      for (const { route, method } of calls) {
        const path = concrete(route.path)
        const predicted = canCall({ ...route, method }, current, path)
        // a body no schema accepts and no query: a call that is let in stops at validation, so the
        // sweep changes nothing (only whether the hook let it in is read)
        const res = await t.call(method, `/api${path}`, {
          token,
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: [] }),
        })
        const refused = res.status === 403
        const writes = method !== 'GET' && method !== 'HEAD' && !route.readOnly
        if (writes && res.status < 400)
          mismatches.push(`${name} ${method} ${path}: a write let through (${res.status})`)
        if (refused === predicted)
          mismatches.push(`${name} ${method} ${path}: canCall ${predicted}, status ${res.status}`)
      }
    }
    expect(mismatches).toEqual([])
  })

  it('a signed-out caller may make no call but the public ones', () => {
    for (const { route } of calls) expect(canCall(route, null)).toBe(false)
    expect(canCall(routes.session.login, null)).toBe(true)
  })
})
