import type { Database } from '../db/connection'
import { MemoryThrottleCounters } from './memory-throttle'
import { PgThrottleCounters } from './pg-throttle'
import type { Attempt, ThrottleCounters, ThrottlePolicy } from './throttle-rule'

export { ThrottledError, type Attempt, type ThrottlePolicy } from './throttle-rule'

/**
 * Throttling of password guesses (sign-in and own-password change), DESIGN.md §11.
 *
 * Instead of locking an account (which lets any stranger lock `admin` out), failures are counted
 * per account *and client address*, and per address across all accounts. After a number of free
 * failures, further attempts on that key are refused with 429 for a wait that doubles with each
 * further failure, up to a cap. Failures from one address therefore never stop the right password
 * coming from another. Across all addresses an account is only *slowed* (a short pause before the
 * check, a few seconds at most), never refused, so a distributed guesser cannot lock it out either.
 *
 * The address-wide count must not become a lock-out either: behind a company's NAT everyone shares
 * one address, and one stranger's failures would refuse every colleague. So while only the address
 * is throttled, an account+address pair that has not failed is still checked: the right password
 * gets in, a wrong one is refused with the same 429 as any throttled attempt and counts, so that pair
 * is refused without a check from then on. A guesser thus gets one more guess per account from a
 * throttled address, never more.
 *
 * Keys use the submitted name, not the user id, so unknown and known accounts are throttled alike.
 * Where the counters live depends on the database (DESIGN.md §19): with PostgreSQL, in a table every
 * instance shares (pg-throttle.ts), so a guesser spread over several instances gets the same free
 * failures as at one; with the embedded database, in this process's memory (memory-throttle.ts). The
 * numbers are in throttle-rule.ts.
 */
export class LoginThrottle {
  constructor(private readonly counters: ThrottleCounters) {}

  /** The engine the database calls for: PostgreSQL's shared table, or memory for the embedded database. */
  static for(policy: ThrottlePolicy, database: Pick<Database, 'kind' | 'db'>): LoginThrottle {
    return new LoginThrottle(
      database.kind === 'postgres'
        ? new PgThrottleCounters(database.db, policy)
        : new MemoryThrottleCounters(policy),
    )
  }

  /**
   * A sign-in attempt for the submitted name (trimmed, as the lookup uses it). Admitted attempts are
   * counted as failures *before* the password is checked, so that many attempts sent at once cannot
   * all slip in under the limit; a refused one throws ThrottledError.
   */
  signIn(nickName: string, address: string): Promise<Attempt> {
    return this.counters.begin(`login:${nickName}`, address)
  }

  /** An own-password change by a signed-in user: the old password is a guess like any other. */
  passwordChange(userId: number, address: string): Promise<Attempt> {
    return this.counters.begin(`password:${userId}`, address)
  }

  /** A second-step code (DESIGN.md §14): six digits are a guess like a password, throttled alike. */
  secondStep(userId: number, address: string): Promise<Attempt> {
    return this.counters.begin(`mfa:${userId}`, address)
  }
}

export const pause = (ms: number) =>
  ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve()

/**
 * Pauses as the attempt asks, then runs its check (reading the account, hashing the guess). A check
 * that throws never judged the guess, so it is not a failure (DESIGN.md §11): under load, right
 * passwords answered 503 must not end up refused with 429 once the load is gone. The check answers
 * the verdict and reveals nothing when it throws, so taking it back buys a guesser nothing. Should
 * taking it back fail too (the database away), the check's own error is the answer.
 */
export async function judge<T>(attempt: Attempt, check: () => Promise<T>): Promise<T> {
  await pause(attempt.pauseMs)
  try {
    return await check()
  } catch (err) {
    await attempt.unjudged().catch(() => {})
    throw err
  }
}
