import {
  delayOf,
  throttleRules,
  ThrottledError,
  waitOf,
  type Attempt,
  type CounterRule,
  type ThrottleCounters,
  type ThrottlePolicy,
} from './throttle-rule'

/** Bound on remembered keys, so a flood of made-up names cannot exhaust memory. */
const MAX_KEYS = 100_000
const SWEEP_EVERY_MS = 60_000

interface Entry {
  failures: number
  /** when the latest failure was counted (ms since the epoch) */
  last: number
}

/** One counted failure: the entry it made and the key's time before it. */
interface Counted {
  entry: Entry
  lastBefore: number | undefined
}

/** Failures per key with a doubling wait; forgets a key once it has been quiet for `forgetMs`. */
class FailureCounter {
  private readonly entries = new Map<string, Entry>()
  private lastSweep = 0

  constructor(
    private readonly rule: CounterRule,
    private readonly forgetMs: number,
  ) {}

  /** Milliseconds until the key may try again; 0 when it may try now. */
  waitMs(key: string, now: number): number {
    return waitOf(this.rule, this.live(key, now), now)
  }

  /** Whether the key has failures on record. */
  hasFailed(key: string, now: number): boolean {
    return this.live(key, now) !== undefined
  }

  /** The pause the key's failures call for right now (used by the slowing counter). */
  delayMs(key: string, now: number): number {
    const e = this.live(key, now)
    return e ? delayOf(this.rule, e.failures) : 0
  }

  /** Counts a failure; answers what `retract` needs to take it back. */
  fail(key: string, now: number): Counted {
    const e = this.live(key, now)
    this.entries.delete(key) // re-inserted at the end: the map stays ordered by last use
    if (this.entries.size >= MAX_KEYS) this.evict(now)
    const entry = { failures: (e?.failures ?? 0) + 1, last: now }
    this.entries.set(key, entry)
    return { entry, lastBefore: e?.last }
  }

  /**
   * Takes back a failure counted for an attempt that was never judged, leaving the key as it was:
   * with its earlier time too, unless a failure was counted on it since (that one's time stays).
   */
  retract(key: string, { entry, lastBefore }: Counted) {
    const e = this.entries.get(key)
    if (!e) return
    e.failures -= 1
    if (e.failures <= 0) this.entries.delete(key)
    else if (e === entry && lastBefore !== undefined) e.last = lastBefore
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

/**
 * The throttle's counters in this process's memory: the embedded database's engine, where one
 * instance answers every sign-in (login-throttle.ts has the rules).
 */
export class MemoryThrottleCounters implements ThrottleCounters {
  private readonly byAccountAddress: FailureCounter
  private readonly byAddress: FailureCounter
  private readonly byAccount: FailureCounter

  constructor(policy: ThrottlePolicy) {
    const rules = throttleRules(policy)
    this.byAccountAddress = new FailureCounter(rules.pair, rules.forgetMs)
    this.byAddress = new FailureCounter(rules.address, rules.forgetMs)
    this.byAccount = new FailureCounter(rules.account, rules.forgetMs)
  }

  async begin(account: string, address: string): Promise<Attempt> {
    return this.beginNow(account, address, Date.now())
  }

  private beginNow(account: string, address: string, now: number): Attempt {
    const pair = `${account}\u0000${address}`
    const pairWait = this.byAccountAddress.waitMs(pair, now)
    if (pairWait > 0) throw new ThrottledError(Math.ceil(pairWait / 1000))
    const addressWait = this.byAddress.waitMs(address, now)
    // A throttled address still lets a pair without failures be checked (login-throttle.ts).
    if (addressWait > 0 && this.byAccountAddress.hasFailed(pair, now))
      throw new ThrottledError(Math.ceil(addressWait / 1000))
    const pauseMs = this.byAccount.delayMs(account, now)
    const counted = [
      this.byAccountAddress.fail(pair, now),
      this.byAddress.fail(address, now),
      this.byAccount.fail(account, now),
    ] as const
    let settled = false
    return {
      pauseMs,
      succeeded: async () => {
        if (settled) return
        settled = true
        this.byAccountAddress.clear(pair)
        this.byAddress.undo(address)
        this.byAccount.undo(account)
      },
      unjudged: async () => {
        if (settled) return
        settled = true
        this.byAccountAddress.retract(pair, counted[0])
        this.byAddress.retract(address, counted[1])
        this.byAccount.retract(account, counted[2])
      },
      refusal: (wrong) => {
        if (addressWait <= 0) return wrong
        // answered as every throttled attempt is, with the wait the address has now
        return new ThrottledError(Math.max(1, Math.ceil(this.byAddress.waitMs(address, Date.now()) / 1000)))
      },
    }
  }
}
