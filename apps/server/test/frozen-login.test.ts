import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { asc, eq } from 'drizzle-orm'
import { MSG, throttledMessage } from '@amg/contract'
import { users } from '../src/db/schema'
import { loginLogs } from '../src/db/audit-schema'
import { hashPassword } from '../src/auth/password'
import { createTestApp, TEST_PASSWORD_HASH_COST, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'

/**
 * DESIGN.md §11: a frozen account answers exactly like a wrong password until the password is right
 * (then 账号已冻结): same status, body and headers, the same throttling, the same login-log result, and
 * a password check that takes as long as for an unknown or an active account.
 */
let t: TestApp
beforeAll(async () => {
  // The first refusal lasts ten minutes rather than a second, so that however slow the machine, the
  // refused rounds below arrive while it lasts (a round arriving after a one-second wait was let
  // through and answered 401).
  t = await createTestApp({ loginFirstWaitSeconds: 600 })
  await t.userWithCodes([], 'active_one')
  await t.userWithCodes([], 'frozen_one')
  await t.db.update(users).set({ status: 2 }).where(eq(users.nickName, 'frozen_one'))
})
afterAll(async () => t.close())

const signIn = (nickName: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { nickName, password }, remoteAddress })

/** What a client can see of an answer, the date aside. */
const seen = (res: Awaited<ReturnType<typeof signIn>>) => {
  const { date: _date, ...headers } = res.headers
  return { status: res.statusCode, body: res.json(), headers }
}

const logRows = (nickName: string) =>
  t.db
    .select({ result: loginLogs.result, msg: loginLogs.msg })
    .from(loginLogs)
    .where(eq(loginLogs.nickName, nickName))
    .orderBy(asc(loginLogs.id))

describe('a frozen account with a wrong password', () => {
  it('answers like an active or unknown account, before and while throttled, until the password is right', async () => {
    // one address per account, so that each sees the same history; addresses of this attempt's own,
    // so that a retry starts without the first try's failures
    const net = `198.18.${Math.floor(Math.random() * 250) + 1}`
    const accounts = [
      ['frozen_one', `${net}.1`],
      ['active_one', `${net}.2`],
      ['never_existed', `${net}.3`],
    ] as const
    // The clock stands still during the rounds (only Date, as in login-throttle.test.ts): the three
    // accounts' failures are counted some milliseconds apart, and a round taking more than a second
    // could otherwise tell one of them a Retry-After a second shorter than the others.
    vi.useFakeTimers({ toFake: ['Date'] })
    onTestFinished(() => void vi.useRealTimers())
    for (let round = 0; round < 7; round++) {
      const [frozen, active, unknown] = await Promise.all(
        accounts.map(([name, address]) => signIn(name, 'Wrong#Pass0', address).then(seen)),
      )
      expect(frozen).toEqual(active)
      expect(frozen).toEqual(unknown)
      expect(frozen.body).toEqual(
        round < 5
          ? { code: 401, msg: MSG.loginFailed, data: null }
          : { code: 429, msg: throttledMessage(Number(frozen.headers['retry-after'])), data: null },
      )
    }
    // Throttled, the right password changes nothing: the frozen state stays hidden. Both asked at
    // once, as in the rounds: one after the other, the second could come after the wait had run out.
    const [frozen, active] = await Promise.all([
      signIn('frozen_one', TEST_USER_PASSWORD, `${net}.1`).then(seen),
      signIn('active_one', TEST_USER_PASSWORD, `${net}.2`).then(seen),
    ])
    expect(frozen).toEqual(active)
    expect(frozen.status).toBe(429)
    vi.useRealTimers()
    // From an address with no failures, the right password is the only way to learn it.
    const right = await signIn('frozen_one', TEST_USER_PASSWORD, '203.0.113.9')
    expect(right.statusCode).toBe(403)
    expect(right.json()).toEqual({ code: 403, msg: MSG.loginFrozen, data: null })
  })

  it('leaves the same login-log rows as a wrong password of an active account', async () => {
    await signIn('frozen_one', 'Wrong#Pass1', '203.0.113.20')
    await signIn('active_one', 'Wrong#Pass1', '203.0.113.21')
    await signIn('frozen_one', TEST_USER_PASSWORD, '203.0.113.20')
    const frozen = await logRows('frozen_one')
    const active = await logRows('active_one')
    expect(frozen.at(-2)).toEqual(active.at(-1))
    expect(frozen.at(-2)).toEqual({ result: 'failure', msg: MSG.loginFailed })
    expect(frozen.at(-1)).toEqual({ result: 'frozen', msg: MSG.loginFrozen })
  })

  it('costs a full password check, for unknown, frozen and active accounts alike', async () => {
    // A hash made at a lower cost than the current one: a frozen account never signs in, so its
    // hash is never brought up to date, and must not be checked faster than an unknown name.
    const cheap = await hashPassword(TEST_USER_PASSWORD, TEST_PASSWORD_HASH_COST)
    const slow = await createTestApp({ passwordHashCost: TEST_PASSWORD_HASH_COST + 2 })
    try {
      await slow.db.insert(users).values({ nickName: 'old_frozen', passwordHash: cheap, status: 2 })
      await slow.db.insert(users).values({ nickName: 'old_active', passwordHash: cheap, status: 1 })
      // the three asked in turn, each round, so that a busy moment of the machine weighs on all alike;
      // the fastest answer of each counts
      const accounts = [
        ['nobody_here', '203.0.113.30'],
        ['old_frozen', '203.0.113.31'],
        ['old_active', '203.0.113.32'],
      ] as const
      const best = [Infinity, Infinity, Infinity]
      for (let i = 0; i < 5; i++) {
        for (const [k, [nickName, address]] of accounts.entries()) {
          const started = performance.now()
          const res = await slow.app.inject({
            method: 'POST',
            url: '/api/login',
            payload: { nickName, password: `Wrong#Pass${i}` },
            remoteAddress: address,
          })
          best[k] = Math.min(best[k], performance.now() - started)
          expect(res.statusCode).toBe(401)
        }
      }
      const [unknown, frozen, active] = best
      // A check at 4× the work of the stored hash's: skipping it, or checking only the cheap hash,
      // would answer in a fraction of the time.
      expect(frozen).toBeGreaterThan(0.6 * unknown)
      expect(active).toBeGreaterThan(0.6 * unknown)
    } finally {
      await slow.close()
    }
  }, 180_000)
})
