import { throttledMessage } from '@amg/contract'
import { AppError } from '../lib/errors'

/**
 * The numbers of the sign-in throttle (login-throttle.ts), the same for both engines that keep its
 * counters (memory-throttle.ts, pg-throttle.ts): how many failures are free, how long the first refusal
 * lasts, how the wait grows, when a quiet key is forgotten; and what an attempt is to both.
 */
export interface ThrottlePolicy {
  /** failures per account and address before attempts are refused (LOGIN_FREE_FAILURES) */
  loginFreeFailures: number
  /** the longest refusal, in seconds (LOGIN_MAX_WAIT_SECONDS) */
  loginMaxWaitSeconds: number
  /** the first refusal, in seconds; each further failure doubles it (1; tests that must not outrun it lengthen it) */
  loginFirstWaitSeconds: number
}

/** One address may fail this many times as many sign-ins, across all accounts, as one account. */
const ADDRESS_FACTOR = 4
/** The pause an account gets across all addresses starts here and never exceeds the cap. */
const FIRST_PAUSE_MS = 250
const PAUSE_CAP_MS = 3000

/** One counter's rule: `free` failures, then a wait of `firstMs` doubling with each failure, up to `capMs`. */
export interface CounterRule {
  free: number
  firstMs: number
  capMs: number
}

export interface ThrottleRules {
  /** per account (or user) and client address: refuses */
  pair: CounterRule
  /** per client address across accounts: refuses, after more failures */
  address: CounterRule
  /** per account across addresses: only slows */
  account: CounterRule
  /** a key quiet for this long is forgotten */
  forgetMs: number
}

export function throttleRules(policy: ThrottlePolicy): ThrottleRules {
  const free = policy.loginFreeFailures
  const capMs = policy.loginMaxWaitSeconds * 1000
  const firstMs = policy.loginFirstWaitSeconds * 1000
  return {
    pair: { free, firstMs, capMs },
    address: { free: free * ADDRESS_FACTOR, firstMs, capMs },
    account: { free, firstMs: FIRST_PAUSE_MS, capMs: Math.min(PAUSE_CAP_MS, capMs) },
    // A key is forgotten after twice the longest wait without failures: a guesser who keeps trying at
    // the capped pace is never forgotten, a user who mistyped long ago starts afresh.
    forgetMs: 2 * Math.max(capMs, firstMs),
  }
}

/** How long a key with `failures` must wait after its latest failure (0 while failures are still free). */
export function delayOf(rule: CounterRule, failures: number): number {
  if (failures < rule.free || rule.capMs <= 0) return 0
  return Math.min(rule.capMs, rule.firstMs * 2 ** Math.min(failures - rule.free, 40))
}

/** A key's failures and the time of the latest (ms since the epoch); none when forgotten. */
export interface KeyState {
  failures: number
  last: number
}

/**
 * Milliseconds until a key in `state` may try again at `now`; 0 when it may try now. Never more than
 * the rule's delay: a failure counted by another instance whose clock runs a little ahead (or an
 * attempt that read the clock just before another counted) must not refuse free failures or lengthen
 * a wait.
 */
export function waitOf(rule: CounterRule, state: KeyState | undefined, now: number): number {
  if (!state) return 0
  const delay = delayOf(rule, state.failures)
  return Math.min(delay, Math.max(0, state.last + delay - now))
}

/** A refused attempt: answered 429 in the envelope, saying how long to wait, with a Retry-After header (seconds). */
export class ThrottledError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, throttledMessage(retryAfterSeconds))
  }
}

/** One admitted attempt: its failure is already counted, `succeeded()` takes it back. */
export interface Attempt {
  /** pause before checking the password: the account's failures from all addresses slow it down */
  pauseMs: number
  succeeded(): Promise<void>
  /**
   * What a wrong password answers: `wrong` itself, or 429 when the address was throttled and the
   * attempt was checked only because its account+address pair had not failed.
   */
  refusal(wrong: Error): Error
  /**
   * The attempt ended before its guess was judged (an answer of 503: hashing busy, the database
   * away; or any other error): it is taken back, leaving the throttle as it was. Use `judge`.
   */
  unjudged(): Promise<void>
}

/** Where the counters are kept: admits an attempt of `account` from `address` (counted) or refuses it (ThrottledError). */
export interface ThrottleCounters {
  begin(account: string, address: string): Promise<Attempt>
}
