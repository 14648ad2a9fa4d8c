import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { asc, eq } from 'drizzle-orm'
import { MSG, throttledMessage } from '@amg/contract'
import { LoginThrottle, ThrottledError } from '../src/auth/login-throttle'
import { MemoryThrottleCounters } from '../src/auth/memory-throttle'
import { loginLogs } from '../src/db/audit-schema'
import { loadConfig, parseTrustProxy, type Config } from '../src/config'
import { createTestApp, type CallResult, type TestApp } from './helpers/app'
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from './helpers/constants'

// Sign-in throttling (DESIGN.md §11): refusals per account and address, never a lock-out.
// Only Date is faked, to step over the waits; timers stay real for the database clients.
const A = '198.51.100.1'
const B = '198.51.100.2'
const C = '198.51.100.3'

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
  const retryAfter = Number(res.headers['retry-after'])
  // the message says how long to wait, as the header does
  expect(res.json()).toEqual({ code: 429, msg: throttledMessage(retryAfter), data: null })
  return retryAfter
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
    // a wrong guess at a new account is refused like every throttled attempt, and counted
    expectThrottled(await signIn(t, 'guess_new', 'Wrong#Pass0', A))
    expectThrottled(await signIn(t, 'sprayed', 'Wrong#Pass0', A))
    // that account has now failed from this address: even the right password waits for the address
    expectThrottled(await signIn(t, 'sprayed', TEST_USER_PASSWORD, A))
    expect((await signIn(t, 'sprayed', TEST_USER_PASSWORD, B)).statusCode).toBe(200)
  })

  // DESIGN.md §11: one stranger behind a company's NAT must not lock every colleague out.
  it('lets the right password through a throttled address for an account that has not failed from it', async () => {
    const t = await app()
    await t.userWithCodes([], 'colleague')
    await t.userWithCodes([], 'typist')
    await failTimes(t, 1, 'typist', A) // one typo from the office earlier
    for (let i = 0; i < 19; i++) await failTimes(t, 1, `stranger_${i}`, A) // the address is now throttled
    expectThrottled(await signIn(t, 'stranger_new', 'Wrong#Pass0', A))

    const admin = await signIn(t, 'admin', TEST_ADMIN_PASSWORD, A)
    expect(admin.statusCode).toBe(200)
    expect(admin.json().data.token).toBeTruthy()
    expect((await signIn(t, 'colleague', TEST_USER_PASSWORD, A)).statusCode).toBe(200)
    // the account that failed from this address waits for the address, as the rule says
    expectThrottled(await signIn(t, 'typist', TEST_USER_PASSWORD, A))
    // signed in, the admin's pair has no failures: again and again it gets in
    expect((await signIn(t, 'admin', TEST_ADMIN_PASSWORD, A)).statusCode).toBe(200)

    // the address keeps being throttled for guesses: a failed pair waits, then counts and waits longer
    const wait = expectThrottled(await signIn(t, 'stranger_0', 'Wrong#Pass0', A))
    advance(wait)
    expect((await signIn(t, 'stranger_0', 'Wrong#Pass0', A)).statusCode).toBe(401)
    expect(expectThrottled(await signIn(t, 'stranger_0', 'Wrong#Pass0', A))).toBe(2 * wait)
  })

  it('answers a guess let through a throttled address exactly like any throttled attempt, and logs it so', async () => {
    const t = await app()
    await t.userWithCodes([], 'known_one')
    // two addresses with the same history of guesses
    for (let i = 0; i < 20; i++) for (const address of [A, C]) await failTimes(t, 1, `spray_${i}`, address)
    const same = (res: Awaited<ReturnType<typeof signIn>>) => {
      const { date: _date, ...headers } = res.headers
      return { status: res.statusCode, body: res.json(), headers }
    }
    const checked = same(await signIn(t, 'known_one', 'Wrong#Pass0', A)) // a new pair: checked, wrong
    const refused = same(await signIn(t, 'known_one', 'Wrong#Pass0', A)) // a failed pair: not checked
    const unknown = same(await signIn(t, 'nobody_at_all', 'Wrong#Pass0', C)) // a new pair too: checked
    expect(checked.status).toBe(429)
    expect(refused).toEqual(checked)
    expect(unknown).toEqual(checked)
    const rows = await t.db
      .select()
      .from(loginLogs)
      .where(eq(loginLogs.nickName, 'known_one'))
      .orderBy(asc(loginLogs.id))
    expect(rows.map((r) => r.result)).toEqual(['success', 'locked', 'locked'])
  })

  it('checks one attempt of a pair at a time on a throttled address', async () => {
    const t = await app()
    await t.userWithCodes([], 'double_click')
    await t.userWithCodes([], 'other_victim')
    for (let i = 0; i < 20; i++) await failTimes(t, 1, `noise_${i}`, A)
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => signIn(t, 'double_click', TEST_USER_PASSWORD, A)),
    )
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 429, 429, 429, 429, 429])
    const guesses = await Promise.all(
      Array.from({ length: 6 }, () => signIn(t, 'other_victim', 'Wrong#Pass0', A)),
    )
    expect(guesses.map((r) => r.statusCode)).toEqual([429, 429, 429, 429, 429, 429])
    // one of those was checked: the pair has failed, and the right password waits for the address
    expectThrottled(await signIn(t, 'other_victim', TEST_USER_PASSWORD, A))
  })

  it('lets no more than the free failures through when many attempts arrive at once', async () => {
    const t = await app()
    const answers = await Promise.all(Array.from({ length: 12 }, () => signIn(t, 'admin', 'Wrong#Pass0', A)))
    const statuses = answers.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 401)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(7)
  })
})

describe('the throttle rule, for any sequence of attempts (property)', () => {
  it('never refuses the right password of a pair without failures, and checks at most one guess per pair on a throttled address', async () => {
    const policy = { loginFreeFailures: 2, loginMaxWaitSeconds: 60, loginFirstWaitSeconds: 1 }
    const forgetMs = 2 * policy.loginMaxWaitSeconds * 1000
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            name: fc.constantFrom('admin', 'bob', 'x', 'y', 'z', 'q'),
            address: fc.constantFrom(A, B),
            right: fc.boolean(),
            seconds: fc.nat(3),
          }),
          { maxLength: 150 },
        ),
        async (steps) => {
          const throttle = new LoginThrottle(new MemoryThrottleCounters(policy))
          const lastFailure = new Map<string, number>() // per pair, as the test sees its answers
          const checkedWhileThrottled = new Map<string, number>()
          const hasFailed = (pair: string) => {
            const last = lastFailure.get(pair)
            if (last !== undefined && Date.now() - last > forgetMs) {
              lastFailure.delete(pair)
              checkedWhileThrottled.delete(pair)
            }
            return lastFailure.has(pair)
          }
          for (const step of steps) {
            advance(step.seconds)
            const pair = `${step.name}@${step.address}`
            let attempt
            try {
              attempt = await throttle.signIn(step.name, step.address)
            } catch (refused) {
              expect(refused).toBeInstanceOf(ThrottledError)
              expect(step.right && !hasFailed(pair), 'the right password of a clean pair refused').toBe(false)
              continue
            }
            if (step.right) {
              await attempt.succeeded()
              lastFailure.delete(pair)
              checkedWhileThrottled.delete(pair)
              continue
            }
            hasFailed(pair)
            lastFailure.set(pair, Date.now())
            if (attempt.refusal(new Error('wrong')) instanceof ThrottledError) {
              const checks = (checkedWhileThrottled.get(pair) ?? 0) + 1
              checkedWhileThrottled.set(pair, checks)
              expect(checks, 'a second guess of one pair checked on a throttled address').toBe(1)
            }
          }
        },
      ),
      { numRuns: 300 },
    )
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
