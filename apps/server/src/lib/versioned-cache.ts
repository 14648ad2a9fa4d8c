import type { Database, Db } from '../db/connection'
import { ChangeWatch } from '../auth/change-watch'
import { inRequestTransaction } from '../audit/request-transaction'

/**
 * What the list caches are kept for (migration 0005): 'org' the department tree, 'lists' the users,
 * groups and positions the lists count. Each names a sequence the triggers bump and a NOTIFY payload.
 */
export type CacheFamily = 'org' | 'lists'

/** Beyond this many keys (distinct filters) the oldest are dropped; they are computed again when asked. */
const MAX_KEYS = 100

/**
 * Values read from the database and kept in memory until the rows under them change. Statement
 * triggers bump the family's sequence and NOTIFY every instance whichever route or script made the
 * change. `refresh()` compares the sequence (one cheap query), so this instance's own writes show on
 * the very next call even before the notification arrives; the notification, sent at commit, drops
 * what a read racing with a not-yet-committed change stored. As the access caches do, nothing is kept
 * from inside a request's transaction (it may roll back) or while notifications may be missed.
 */
export class VersionedCache {
  private readonly values = new Map<string, unknown>()
  private generation = 0
  private readonly watch: ChangeWatch

  constructor(
    db: Db,
    private readonly database: Pick<Database, 'onNotify' | 'hearsEveryChange'>,
    family: CacheFamily,
  ) {
    this.watch = new ChangeWatch(db, [{ sequence: `${family}_version_seq`, onChange: () => this.clear() }])
    database.onNotify((payload) => {
      if (payload === family || payload === '*') this.clear()
    })
  }

  clear() {
    this.generation++
    this.values.clear()
  }

  /** Drops everything when the family's sequence moved since the last look. */
  async refresh(): Promise<void> {
    await this.watch.refreshIfChanged()
  }

  /** A token to pass to `store` with a value read after taking it. */
  token(): number {
    return this.generation
  }

  peek<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined
  }

  /** Keeps `value` unless something changed since `token` was taken, or it may not be kept at all. */
  store(token: number, key: string, value: unknown): void {
    if (token !== this.generation || !this.database.hearsEveryChange() || inRequestTransaction()) return
    if (!this.values.has(key) && this.values.size >= MAX_KEYS)
      this.values.delete(this.values.keys().next().value!)
    this.values.set(key, value)
  }

  /** The value under `key`, computed (and kept when it may be) on a miss. */
  async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (this.values.has(key)) return this.values.get(key) as T
    const token = this.token()
    const value = await compute()
    this.store(token, key, value)
    return value
  }
}
