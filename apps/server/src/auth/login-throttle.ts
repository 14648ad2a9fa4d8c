import { throttledMessage } from '@amg/contract'
import { AppError } from '../lib/errors'

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
 * The counters live in memory: with several server instances each one throttles on its own.
 */
/** A refused attempt: answered 429 in the envelope, saying how long to wait, with a Retry-After header (seconds). */
export class ThrottledError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, throttledMessage(retryAfterSeconds))
  }
}

export interface ThrottlePolicy {
  /** failures per account and address before attempts are refused (LOGIN_FREE_FAILURES) */
  loginFreeFailures: number
  /** the longest refusal, in seconds (LOGIN_MAX_WAIT_SECONDS) */
  loginMaxWaitSeconds: number
}

/** The first refusal lasts this long; each further failure doubles it. */
const FIRST_WAIT_MS = 1000
/** One address may fail this many times as many sign-ins, across all accounts, as one account. */
const ADDRESS_FACTOR = 4
/** The pause an account gets across all addresses starts here and never exceeds the cap. */
const FIRST_PAUSE_MS = 250
const PAUSE_CAP_MS = 3000
/** Bound on remembered keys, so a flood of made-up names cannot exhaust memory. */
const MAX_KEYS = 100_000
const SWEEP_EVERY_MS = 60_000

interface Entry {
  failures: number
  /** when the latest failure was counted (ms since the epoch) */
  last: number
}

/** Failures per key with a doubling wait; forgets a key once it has been quiet for `forgetMs`. */
class FailureCounter {
  private readonly entries = new Map<string, Entry>()
  private lastSweep = 0

  constructor(
    private readonly free: number,
    private readonly firstMs: number,
    private readonly capMs: number,
    private readonly forgetMs: number,
  ) {}

  /** How long the key must wait after its latest failure (0 while failures are still free). */
  private delayOf(failures: number): number {
    if (failures < this.free || this.capMs <= 0) return 0
    return Math.min(this.capMs, this.firstMs * 2 ** Math.min(failures - this.free, 40))
  }

  /** Milliseconds until the key may try again; 0 when it may try now. */
  waitMs(key: string, now: number): number {
    const e = this.live(key, now)
    return e ? Math.max(0, e.last + this.delayOf(e.failures) - now) : 0
  }

  /** Whether the key has failures on record. */
  hasFailed(key: string, now: number): boolean {
    return this.live(key, now) !== undefined
  }

  /** The pause the key's failures call for right now (used by the slowing counter). */
  delayMs(key: string, now: number): number {
    const e = this.live(key, now)
    return e ? this.delayOf(e.failures) : 0
  }

  fail(key: string, now: number) {
    const e = this.live(key, now)
    this.entries.delete(key) // re-inserted at the end: the map stays ordered by last use
    if (this.entries.size >= MAX_KEYS) this.evict(now)
    this.entries.set(key, { failures: (e?.failures ?? 0) + 1, last: now })
  }

  /** Takes back one failure counted in advance for an attempt that turned out right. */
  undo(key: string) {
    const e = this.entries.get(key)
    if (!e) return
    if (e.failures <= 1) this.entries.delete(key)
    else e.failures -= 1
  }

  clear(key: string) {
    this.entries.delete(key)
  }

  private live(key: string, now: number): Entry | undefined {
    this.sweep(now)
    const e = this.entries.get(key)
    if (e && this.expired(e, now)) {
      this.entries.delete(key)
      return undefined
    }
    return e
  }

  private expired(e: Entry, now: number) {
    return now - e.last > this.forgetMs
  }

  private sweep(now: number) {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return
    this.lastSweep = now
    for (const [key, e] of this.entries) if (this.expired(e, now)) this.entries.delete(key)
  }

  private evict(now: number) {
    this.lastSweep = 0
    this.sweep(now)
    // Still full: drop the least recently failed keys (the map's first entries).
    for (const key of this.entries.keys()) {
      if (this.entries.size < MAX_KEYS) break
      this.entries.delete(key)
    }
  }
}

/** One admitted attempt: its failure is already counted, `succeeded()` takes it back. */
export interface Attempt {
  /** pause before checking the password: the account's failures from all addresses slow it down */
  pauseMs: number
  succeeded(): void
  /**
   * What a wrong password answers: `wrong` itself, or 429 when the address was throttled and the
   * attempt was checked only because its account+address pair had not failed.
   */
  refusal(wrong: Error): Error
}

export class LoginThrottle {
  /** per account (or user, for password change) and client address: refuses */
  private readonly byAccountAddress: FailureCounter
  /** per client address across accounts: refuses, after more failures */
  private readonly byAddress: FailureCounter
  /** per account across addresses: only slows */
  private readonly byAccount: FailureCounter

  constructor(policy: ThrottlePolicy) {
    const free = policy.loginFreeFailures
    const capMs = policy.loginMaxWaitSeconds * 1000
    // A key is forgotten after twice the longest wait without failures: a guesser who keeps trying
    // at the capped pace is never forgotten, a user who mistyped long ago starts afresh.
    const forgetMs = 2 * Math.max(capMs, FIRST_WAIT_MS)
    this.byAccountAddress = new FailureCounter(free, FIRST_WAIT_MS, capMs, forgetMs)
    this.byAddress = new FailureCounter(free * ADDRESS_FACTOR, FIRST_WAIT_MS, capMs, forgetMs)
    this.byAccount = new FailureCounter(free, FIRST_PAUSE_MS, Math.min(PAUSE_CAP_MS, capMs), forgetMs)
  }

  /** A sign-in attempt for the submitted name (trimmed, as the lookup uses it). */
  signIn(nickName: string, address: string): Attempt {
    return this.begin(`login\u0000${nickName}`, address)
  }

  /** An own-password change by a signed-in user: the old password is a guess like any other. */
  passwordChange(userId: number, address: string): Attempt {
    return this.begin(`password\u0000${userId}`, address)
  }

  /** A second-step code (DESIGN.md §14): six digits are a guess like a password, throttled alike. */
  secondStep(userId: number, address: string): Attempt {
    return this.begin(`mfa\u0000${userId}`, address)
  }

  /**
   * Admits or refuses an attempt. An admitted attempt is counted as a failure *before* the password
   * is checked, so that many attempts sent at once cannot all slip in under the limit.
   */
  private begin(account: string, address: string, now = Date.now()): Attempt {
    const pair = `${account}\u0000${address}`
    const pairWait = this.byAccountAddress.waitMs(pair, now)
    if (pairWait > 0) throw new ThrottledError(Math.ceil(pairWait / 1000))
    const addressWait = this.byAddress.waitMs(address, now)
    // A throttled address still lets a pair without failures be checked (see above).
    if (addressWait > 0 && this.byAccountAddress.hasFailed(pair, now))
      throw new ThrottledError(Math.ceil(addressWait / 1000))
    const pauseMs = this.byAccount.delayMs(account, now)
    this.byAccountAddress.fail(pair, now)
    this.byAddress.fail(address, now)
    this.byAccount.fail(account, now)
    let settled = false
    return {
      pauseMs,
      succeeded: () => {
        if (settled) return
        settled = true
        // The right password from this address clears its counter for the account; the address and
        // account-wide counters only take back this attempt, so a valid account of one's own cannot
        // be used to wipe the record of guesses at others.
        this.byAccountAddress.clear(pair)
        this.byAddress.undo(address)
        this.byAccount.undo(account)
      },
      refusal: (wrong) => {
        if (addressWait <= 0) return wrong
        // answered as every throttled attempt is, with the wait the address has now
        return new ThrottledError(Math.max(1, Math.ceil(this.byAddress.waitMs(address, Date.now()) / 1000)))
      },
    }
  }
}

export const pause = (ms: number) =>
  ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve()
