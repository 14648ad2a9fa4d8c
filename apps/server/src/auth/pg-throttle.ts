import { randomInt } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import { queryRows, type Db } from '../db/connection'
import {
  delayOf,
  throttleRules,
  ThrottledError,
  waitOf,
  type Attempt,
  type CounterRule,
  type KeyState,
  type ThrottleCounters,
  type ThrottlePolicy,
  type ThrottleRules,
} from './throttle-rule'

/** The three counters' rows in `login_throttle` (migration 0027). */
const PAIR = 0
const ADDRESS = 1
const ACCOUNT = 2
type Kind = typeof PAIR | typeof ADDRESS | typeof ACCOUNT

/** Quiet rows are deleted this often (by whichever instance sees an attempt first after it)… */
const SWEEP_EVERY_MS = 60_000
/** …and beyond this many rows the least recently failed go too, so a flood of made-up names stays bounded. */
const MAX_ROWS = 300_000

interface Row {
  /** 'seen': a counter before this attempt; 'counted': after it counted this attempt */
  part: 'seen' | 'counted'
  kind: Kind
  failures: number
  last: number
  prev: number | null
}

/** A counter's state at `now` as the rule reads it: none when it has no live failures. */
const live = (row: Row | undefined, forgetMs: number, now: number): KeyState | undefined =>
  row && row.failures > 0 && now - row.last <= forgetMs ? row : undefined

/**
 * The throttle's counters in PostgreSQL (DESIGN.md §19), shared by every instance: an UNLOGGED table
 * (a crash may forget them, the safe side; no WAL is written for a guess). An attempt costs one
 * statement: it reads the three counters, and one upsert counts the attempt on its account+address
 * pair only where the rule admits it, judged on that row's latest version under its row lock, so
 * attempts of one pair sent at once to any instances are admitted one after another, never more than
 * the free failures; the address and account counters are counted in the same statement. A refused
 * attempt writes nothing. Taking an attempt back (right password, or never judged) is one more
 * statement. Times are the server's clock (`Date.now()`), as in memory.
 */
export class PgThrottleCounters implements ThrottleCounters {
  private readonly rules: ThrottleRules
  private lastSweep = 0

  constructor(
    private readonly db: Db,
    policy: ThrottlePolicy,
  ) {
    this.rules = throttleRules(policy)
  }

  async begin(account: string, address: string): Promise<Attempt> {
    const now = Date.now()
    this.sweepNow(now)
    const keys = { [PAIR]: JSON.stringify([account, address]), [ADDRESS]: address, [ACCOUNT]: account }
    const stamp = randomInt(2 ** 47)
    const rows = await queryRows<Row>(this.db, this.beginStatement(keys, now, stamp))
    const find = (part: Row['part'], kind: Kind) => rows.find((r) => r.part === part && r.kind === kind)
    const { forgetMs } = this.rules
    const addressBefore = live(find('seen', ADDRESS), forgetMs, now)
    const addressWait = waitOf(this.rules.address, addressBefore, now)
    if (!find('counted', PAIR)) {
      // Refused: the pair's wait, else the address's (as seen when the statement began; a concurrent
      // attempt may have moved them since, hence at least a second).
      const pairWait = waitOf(this.rules.pair, live(find('seen', PAIR), forgetMs, now), now)
      throw new ThrottledError(Math.max(1, Math.ceil((pairWait > 0 ? pairWait : addressWait) / 1000)))
    }
    const accountBefore = live(find('seen', ACCOUNT), forgetMs, now)
    const addressAfter = find('counted', ADDRESS)
    const before = (kind: Kind) => find('counted', kind)?.prev ?? null
    let settled = false
    const settle = (work: SQL) => {
      if (settled) return Promise.resolve()
      settled = true
      return this.db.execute(work).then(() => {})
    }
    return {
      pauseMs: accountBefore ? delayOf(this.rules.account, accountBefore.failures) : 0,
      // the right password clears the pair; the address and account take back this attempt only
      succeeded: () => settle(this.takeBack(keys, stamp, null)),
      unjudged: () =>
        settle(
          this.takeBack(keys, stamp, {
            [PAIR]: before(PAIR),
            [ADDRESS]: before(ADDRESS),
            [ACCOUNT]: before(ACCOUNT),
          }),
        ),
      refusal: (wrong) => {
        if (addressWait <= 0) return wrong
        // answered as every throttled attempt is, with the wait the address has after this attempt
        return new ThrottledError(
          Math.max(1, Math.ceil(waitOf(this.rules.address, addressAfter, Date.now()) / 1000)),
        )
      },
    }
  }

  /** Whether a row `t` has live failures at `now`. */
  private liveSql(now: number): SQL {
    return sql`(t.failures > 0 and ${now}::bigint - t.last_ms <= ${this.rules.forgetMs}::bigint)`
  }

  /** Milliseconds row `t` must still wait at `now` under `rule` (the SQL form of `waitOf`). */
  private waitSql(rule: CounterRule, now: number): SQL {
    const delay = sql`(case when t.failures < ${rule.free}::int or ${rule.capMs}::float8 <= 0 then 0
      else least(${rule.capMs}::float8, ${rule.firstMs}::float8 * power(2, least(t.failures - ${rule.free}::int, 40))) end)`
    return sql`(case when ${this.liveSql(now)} then least(${delay}, greatest(0, t.last_ms + ${delay} - ${now}::bigint)) else 0 end)`
  }

  /**
   * The attempt's statement: the three counters as they were (`seen`), the pair counted unless the
   * rule refuses (judged on the pair row's latest version, locked), then the address and account
   * counted when the pair was. Rows are locked pair, address, account, in that order, everywhere.
   */
  private beginStatement(keys: Record<Kind, string>, now: number, stamp: number): SQL {
    const counted = sql`failures = case when ${this.liveSql(now)} then t.failures else 0 end + 1,
      last_ms = case when ${this.liveSql(now)} then greatest(t.last_ms, ${now}::bigint) else ${now}::bigint end, prev_ms = case when ${this.liveSql(now)} then t.last_ms end, stamp = ${stamp}::bigint`
    const addressWait = sql`(select ${this.waitSql(this.rules.address, now)} from seen t where t.kind = ${ADDRESS})`
    return sql`with
      seen as (
        select kind, failures, last_ms from login_throttle
        where (kind, key) in ((${PAIR}, ${keys[PAIR]}), (${ADDRESS}, ${keys[ADDRESS]}), (${ACCOUNT}, ${keys[ACCOUNT]}))),
      pair as (
        insert into login_throttle as t (kind, key, failures, last_ms, stamp)
        values (${PAIR}, ${keys[PAIR]}, 1, ${now}::bigint, ${stamp}::bigint)
        on conflict (kind, key) do update set ${counted}
        where ${this.waitSql(this.rules.pair, now)} <= 0
          and (not ${this.liveSql(now)} or coalesce(${addressWait}, 0) <= 0)
        returning kind, failures, last_ms, prev_ms),
      others as (
        insert into login_throttle as t (kind, key, failures, last_ms, stamp)
        select v.kind, v.key, 1, ${now}::bigint, ${stamp}::bigint
        from (values (${ADDRESS}::smallint, ${keys[ADDRESS]}::text), (${ACCOUNT}::smallint, ${keys[ACCOUNT]}::text)) v (kind, key)
        where exists (select 1 from pair)
        order by v.kind
        on conflict (kind, key) do update set ${counted}
        returning kind, failures, last_ms, prev_ms)
      select 'seen' as part, kind, failures, last_ms::float8 as last, null::float8 as prev from seen
      union all select 'counted', kind, failures, last_ms::float8, prev_ms::float8 from pair
      union all select 'counted', kind, failures, last_ms::float8, prev_ms::float8 from others`
  }

  /**
   * Takes the attempt back. `before` null: it turned out right, so the pair is cleared and the address
   * and account lose one failure (a valid account of one's own cannot wipe the record of guesses at
   * others). Otherwise it was never judged: each counter loses one failure and gets its earlier time
   * back, unless a failure was counted on it since (its `stamp` is another attempt's). A row left with
   * no failures counts as none; the sweep deletes it.
   */
  private takeBack(
    keys: Record<Kind, string>,
    stamp: number,
    before: Record<Kind, number | null> | null,
  ): SQL {
    const prev = (kind: Kind) => (before ? before[kind] : null)
    return sql`with
      v (kind, key, prev) as (values
        (${PAIR}::smallint, ${keys[PAIR]}::text, ${prev(PAIR)}::bigint),
        (${ADDRESS}::smallint, ${keys[ADDRESS]}::text, ${prev(ADDRESS)}::bigint),
        (${ACCOUNT}::smallint, ${keys[ACCOUNT]}::text, ${prev(ACCOUNT)}::bigint)),
      locked as (
        select t.kind, t.key from login_throttle t join v using (kind, key) order by t.kind for update of t)
      update login_throttle t set
        failures = case when ${before === null} and t.kind = ${PAIR} then 0 else t.failures - 1 end,
        last_ms = case when t.stamp = ${stamp}::bigint and v.prev is not null then v.prev else t.last_ms end
      from locked join v using (kind, key)
      where t.kind = locked.kind and t.key = locked.key`
  }

  /** Once a minute: quiet rows (no failures, or none for `forgetMs`) go, and the oldest beyond MAX_ROWS. */
  private sweepNow(now: number) {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return
    this.lastSweep = now
    this.db
      .execute(
        sql`delete from login_throttle where failures <= 0 or last_ms < ${now - this.rules.forgetMs}::bigint
          or last_ms <= (select last_ms from login_throttle order by last_ms desc offset ${MAX_ROWS} limit 1)`,
      )
      .catch(() => {}) // the next sweep tries again; the rule reads quiet rows as none meanwhile
  }
}
