import { sql } from 'drizzle-orm'
import { queryRows, type Database, type Db } from '../db/connection'
import type { CacheFamily } from './watched-cache'

/** While the listener is lost, a look at the counters vouches for what caches hold this long… */
const LOOK_VOUCHES_MS = 50
/** …and after a look that failed (the database away), they answer this long before the next is tried. */
const FAILED_LOOK_RETRY_MS = 1000

interface Watcher {
  family: CacheFamily
  onChange: () => void
}

/**
 * After a request that may have written, one cheap query reads the change counters the triggers keep
 * (`<family>_version_seq`, migrations 0001, 0004 and 0005) and drops what they say is stale. NOTIFY
 * already does this for every instance; looking here as well makes this instance's own writes show on
 * the very next request even if the notification were late, and costs a read only to requests that
 * may write.
 */
export class ChangeWatch {
  private readonly watchers: Watcher[] = []
  /** per watcher (several caches may watch one family): the counter it last saw */
  private readonly seen = new Map<Watcher, string>()
  /** whether the listener was heard to be there at the last `current()` */
  private hearing = true
  private looking: Promise<void> | undefined
  private vouchedUntil = 0
  private lastLookFailed = false

  /**
   * `database`: where the listener is and the counters are read while it is lost; without it (a script)
   * what caches hold answers as NOTIFY leaves it.
   */
  constructor(
    private readonly db: Db,
    private readonly database?: Pick<Database, 'db' | 'hearsEveryChange' | 'heardAtCommit'>,
  ) {}

  /**
   * Whether a write needs a look at the counters after its commit. Not where the commit itself is
   * heard (the embedded database, `Database.heardAtCommit`): its notifications cleared what it made
   * stale before the committing statement returned, and none can be lost or come from elsewhere.
   */
  get looksAfterWrites(): boolean {
    return this.database?.heardAtCommit !== true
  }

  /**
   * Whether what caches hold may answer now without a look (DESIGN.md §19). Always while the listener
   * hears every change. While it is lost, only within 50 ms of the start of a look at the counters
   * (`whenCurrent`), so a change made through another instance is seen here within about that long;
   * or, when the last look failed (the database away: no change can be committed through it either),
   * for the outage's grace, with a look tried again in the background every second.
   */
  current(): boolean {
    if (!this.database || this.database.hearsEveryChange()) {
      this.hearing = true
      return true
    }
    if (this.hearing) {
      // Just lost. A change committed around the loss may have gone unheard, and the counters cannot
      // tell (a transaction moves them before it commits): the first look drops everything.
      this.hearing = false
      this.seen.clear()
      this.vouchedUntil = 0
      this.lastLookFailed = false
    }
    if (performance.now() < this.vouchedUntil) return true
    if (!this.lastLookFailed) return false
    void this.look()
    return true
  }

  /** Resolves once what caches hold may answer: at once, or after a look shared by every request waiting. */
  whenCurrent(): Promise<void> {
    return this.current() ? Promise.resolve() : this.look()
  }

  /** One look at the counters at a time, on the database itself (never a request's transaction). */
  private look(): Promise<void> {
    this.looking ??= (async () => {
      const started = performance.now()
      try {
        await this.compare(this.database!.db)
        this.lastLookFailed = false
        this.vouchedUntil = started + LOOK_VOUCHES_MS
      } catch {
        this.lastLookFailed = true
        this.vouchedUntil = performance.now() + FAILED_LOOK_RETRY_MS
      } finally {
        this.looking = undefined
      }
    })()
    return this.looking
  }

  /** Calls `onChange` when the family's counter moved: from the next look on (each cache, as it is made). */
  watch(family: CacheFamily, onChange: () => void) {
    this.watchers.push({ family, onChange })
  }

  /**
   * Drops everything watched, without looking: after a write whose changes cannot be looked up (the
   * database went away), what may be stale is dropped rather than kept. The next look re-reads every
   * counter.
   */
  dropAll() {
    for (const w of this.watchers) w.onChange()
    this.seen.clear()
  }

  /**
   * Answers whether anything watched changed since the last look; after a write where the commit was
   * heard, nothing is left to find and no query is made.
   */
  refreshIfChanged(): Promise<boolean> {
    return this.looksAfterWrites ? this.compare(this.db) : Promise.resolve(false)
  }

  private async compare(db: Db): Promise<boolean> {
    const columns = this.watchers.map(
      (w, i) =>
        sql`(select last_value || ':' || is_called from ${sql.identifier(`${w.family}_version_seq`)}) as ${sql.identifier(`v${i}`)}`,
    )
    const [row] = await queryRows<Record<string, string>>(db, sql`select ${sql.join(columns, sql`, `)}`)
    let changed = false
    this.watchers.forEach((w, i) => {
      const version = String(row?.[`v${i}`])
      // never looked at before: what was kept may predate any counter this instance saw, so drop it
      if (this.seen.get(w) !== version) {
        w.onChange()
        changed = true
      }
      this.seen.set(w, version)
    })
    return changed
  }
}
