import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MSG } from '@amg/contract'
import { THROTTLED_MSG } from '../src/auth/login-throttle'
import { loadConfig, parseTrustProxy, type Config } from '../src/config'
import { createTestApp, type CallResult, type TestApp } from './helpers/app'
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from './helpers/constants'

// Sign-in throttling (DESIGN.md §11): refusals per account and address, never a lock-out.
// Only Date is faked, to step over the waits; timers stay real for the database clients.
const A = '198.51.100.1'
const B = '198.51.100.2'

let apps: TestApp[] = []
const app = async (overrides: Partial<Config> = {}) => {
  const t = await createTestApp(overrides)
  apps.push(t)
  return t
}
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
})
afterEach(async () => {
  vi.useRealTimers()
  for (const t of apps) await t.close()
  apps = []
})
const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000)

const signIn = (t: TestApp, nickName: string, password: string, remoteAddress: string, headers = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { nickName, password },
    remoteAddress,
    headers,
  })

async function failTimes(t: TestApp, n: number, nickName: string, address: string) {
  for (let i = 0; i < n; i++) {
    const res = await signIn(t, nickName, 'Wrong#Pass0', address)
    expect(res.statusCode).toBe(401)
  }
}

function expectThrottled(res: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(429)
  expect(res.json()).toEqual({ code: 429, msg: THROTTLED_MSG, data: null })
  return Number(res.headers['retry-after'])
}

describe('sign-in throttling', () => {
  it("lets admin's right password in from another address while a stranger fails from one", async () => {
    const t = await app()
    await failTimes(t, 5, 'admin', A)
    expectThrottled(await signIn(t, 'admin', 'Wrong#Pass0', A))
    // Thirty more tries from the stranger's address change nothing for the admin elsewhere.
    for (let i = 0; i < 30; i++) expectThrottled(await signIn(t, 'admin', 'Wrong#Pass0', A))
    const admin = await signIn(t, 'admin', TEST_ADMIN_PASSWORD, B)
    expect(admin.statusCode).toBe(200)
    expect(admin.json().data.token).toBeTruthy()
  })

  it('refuses repeated failures from one address with 429 and a Retry-After that doubles, up to the cap', async () => {
    const t = await app()
    await failTimes(t, 5, 'admin', A)
    const waits: number[] = []
    for (let round = 0; round < 4; round++) {
      const wait = expectThrottled(await signIn(t, 'admin', 'Wrong#Pass0', A))
      waits.push(wait)
      advance(wait)
      await failTimes(t, 1, 'admin', A) // the wait is over: this failure counts and doubles the next wait
    }
    expect(waits).toEqual([1, 2, 4, 8])
    expect(expectThrottled(await signIn(t, 'admin', 'Wrong#Pass0', A))).toBe(16)
    // Half-way through a wait the header says what is left.
    advance(10)
    expect(expectThrottled(await signIn(t, 'admin', TEST_ADMIN_PASSWORD, A))).toBe(6)

    const capped = await app({ loginMaxWaitSeconds: 3 })
    await failTimes(capped, 5, 'nobody_here', A)
    const cappedWaits: number[] = []
    for (let round = 0; round < 4; round++) {
      const wait = expectThrottled(await signIn(capped, 'nobody_here', 'Wrong#Pass0', A))
      cappedWaits.push(wait)
      advance(wait)
      await failTimes(capped, 1, 'nobody_here', A)
    }
    expect(cappedWaits).toEqual([1, 2, 3, 3])
  })

  it('answers an unknown account exactly like a known one, before and while throttled', async () => {
    const t = await app()
    const same = (res: Awaited<ReturnType<typeof signIn>>) => {
      const { date: _date, ...headers } = res.headers
      return { status: res.statusCode, body: res.json(), headers }
    }
    for (let i = 0; i < 7; i++) {
      const known = same(await signIn(t, 'admin', 'Wrong#Pass0', A))
      const unknown = same(await signIn(t, 'no_such_user', 'Wrong#Pass0', A))
      expect(unknown).toEqual(known)
      if (i < 5) expect(known.body).toEqual({ code: 401, msg: MSG.loginFailed, data: null })
      else {
        expect(known.status).toBe(429)
        expect(known.headers['retry-after']).toBe('1')
      }
    }
  })

  it('lets the right password in from the failing address once the wait is over, and forgets its failures', async () => {
    const t = await app({ loginFreeFailures: 2 }) // LOGIN_FREE_FAILURES honoured, and the test stays short
    await t.userWithCodes([], 'typo_user')
    await failTimes(t, 2, 'typo_user', A)
    expectThrottled(await signIn(t, 'typo_user', TEST_USER_PASSWORD, A))
    advance(1)
    expect((await signIn(t, 'typo_user', TEST_USER_PASSWORD, A)).statusCode).toBe(200)
    // The counter of this account from this address starts again: the free failures are free again.
    await failTimes(t, 2, 'typo_user', A)
    expectThrottled(await signIn(t, 'typo_user', 'Wrong#Pass0', A))
  })

  it('throttles one address guessing across many accounts, not other addresses', async () => {
    const t = await app()
    await t.userWithCodes([], 'sprayed')
    for (let i = 0; i < 20; i++) await failTimes(t, 1, `guess_${i}`, A)
    expectThrottled(await signIn(t, 'guess_new', 'Wrong#Pass0', A))
    expectThrottled(await signIn(t, 'sprayed', TEST_USER_PASSWORD, A))
    expect((await signIn(t, 'sprayed', TEST_USER_PASSWORD, B)).statusCode).toBe(200)
  })

  it('lets no more than the free failures through when many attempts arrive at once', async () => {
    const t = await app()
    const answers = await Promise.all(Array.from({ length: 12 }, () => signIn(t, 'admin', 'Wrong#Pass0', A)))
    const statuses = answers.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 401)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(7)
  })
})

describe('own password change throttling', () => {
  it('counts a wrong old password as a failure, per user and address', async () => {
    const t = await app()
    const { token } = await t.userWithCodes([], 'changer')
    const change = (oldPassword: string, remoteAddress: string): Promise<CallResult> =>
      t.call('PUT', '/api/user/password', {
        token,
        body: { oldPassword, newPassword: 'Fresh#Pass2026x' },
        remoteAddress,
      })
    for (let i = 0; i < 5; i++) {
      const wrong = await change('Wrong#Pass0', A)
      expect(wrong.status).toBe(400)
      expect(wrong.body.msg).toBe(MSG.oldPasswordWrong)
    }
    const throttled = await t.app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: { 'x-auth-token': token },
      payload: { oldPassword: TEST_USER_PASSWORD, newPassword: 'Fresh#Pass2026x' },
      remoteAddress: A,
    })
    expect(expectThrottled(throttled)).toBe(1)
    const elsewhere = await change(TEST_USER_PASSWORD, B)
    expect(elsewhere.status).toBe(200)
  })
})

describe('client address behind a proxy (TRUST_PROXY)', () => {
  it('reads TRUST_PROXY as off, true, a hop count or a list of addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(parseTrustProxy('false')).toBe(false)
    expect(parseTrustProxy('true')).toBe(true)
    expect(parseTrustProxy('2')).toBe(2)
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8, ::1, loopback')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ])
    expect(() => parseTrustProxy('127.0.0.1, nginx')).toThrow(/TRUST_PROXY 取值不正确: nginx/)
    const defaults = loadConfig({})
    expect([defaults.loginFreeFailures, defaults.loginMaxWaitSeconds]).toEqual([5, 900])
  })

  it('takes the client address from X-Forwarded-For when the proxy is trusted', async () => {
    const proxy = '10.0.0.5'
    const behindProxy = await app({ trustProxy: parseTrustProxy(proxy) })
    const fromClient = (nickName: string, client: string, password: string, socket = proxy) =>
      signIn(behindProxy, nickName, password, socket, { 'x-forwarded-for': client })
    for (let i = 0; i < 5; i++) expect((await fromClient('admin', A, 'Wrong#Pass0')).statusCode).toBe(401)
    expectThrottled(await fromClient('admin', A, TEST_ADMIN_PASSWORD))
    expect((await fromClient('admin', B, TEST_ADMIN_PASSWORD)).statusCode).toBe(200)
    // A socket that is not the trusted proxy cannot name another address: its failures add up.
    for (let i = 0; i < 5; i++)
      expect((await fromClient('ghost', `192.0.2.${i}`, 'Wrong#Pass0', '203.0.113.9')).statusCode).toBe(401)
    expectThrottled(await fromClient('ghost', '192.0.2.99', 'Wrong#Pass0', '203.0.113.9'))

    const hops = await app({ trustProxy: parseTrustProxy('1') })
    await failTimes(hops, 5, 'admin', proxy) // no header: the proxy's own address
    const viaHop = await signIn(hops, 'admin', TEST_ADMIN_PASSWORD, proxy, { 'x-forwarded-for': B })
    expect(viaHop.statusCode).toBe(200)
  })

  it('ignores X-Forwarded-For by default', async () => {
    const direct = await app()
    for (let i = 0; i < 5; i++)
      expect(
        (await signIn(direct, 'admin', 'Wrong#Pass0', A, { 'x-forwarded-for': `192.0.2.${i}` })).statusCode,
      ).toBe(401)
    expectThrottled(await signIn(direct, 'admin', TEST_ADMIN_PASSWORD, A, { 'x-forwarded-for': B }))
  })
})
