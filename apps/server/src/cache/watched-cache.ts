import type { Database } from '../db/connection'
import { inRequestTransaction } from '../db/request-transaction'
import type { ChangeWatch } from './change-watch'

/**
 * What a cache is kept for. Each names a sequence the database's statement triggers bump on every
 * change that makes it stale (`<family>_version_seq`) and the payload they NOTIFY every instance
 * (migrations 0001, 0004, 0005, 0008): 'authz' the access answers and the permission tree, 'session'
 * the signed-in sessions, 'org' the department tree, 'lists' the users, groups and positions the lists
 * count and the roles the role list shows.
 */
export type CacheFamily = 'authz' | 'session' | 'org' | 'lists'

/** Where a cache hears of changes. */
export interface CacheHost {
  database: Pick<Database, 'onNotify' | 'hearsEveryChange'>
  /**
   * The app's change watch. Absent where no request of this instance writes (a second instance in a
   * test, a measuring script): notifications alone clear the cache then.
   */
  changes?: ChangeWatch
}

/**
 * The base of the caches of values read from the database (access, sessions, lists): values are kept
 * in memory until the rows under them change. The triggers notify every instance whichever route or
 * script made the change, and the notification clears the cache. After a request that may have
 * written, the change watch (change-watch.ts) also reads the sequences and clears what they say is
 * stale before the answer leaves, so this instance's own writes show on the very next request even if
 * the notification were late.
 *
 * The keep guard: a value read from the database may be kept only if nothing that could make it stale
 * was heard between the start of the read and now, every change is heard at all (a PostgreSQL
 * listener may be reconnecting), and it was not read inside a request's transaction, which may still
 * roll back. A read takes a `token()` before it starts and asks `mayKeep` with it afterwards.
 */
export abstract class WatchedCache {
  /** bumped by every clear: a token taken before it no longer lets a value be kept */
  private generation = 0
  private readonly database: CacheHost['database']
  private readonly changes: ChangeWatch | undefined

  constructor({ database, changes }: CacheHost, family: CacheFamily) {
    this.database = database
    this.changes = changes
    database.onNotify((payload) => {
      if (payload === family || payload === '*') this.clear()
    })
    changes?.watch(family, () => this.clear())
  }

  /** Drops everything held here: something changed, and what was read before now may be stale. */
  clear(): void {
    this.generation++
    this.forget()
  }

  /** Drops the values held (`clear` has already stopped any read under way from keeping its value). */
  protected abstract forget(): void

  /** Taken before a read, and handed to `mayKeep` after it. */
  token(): number {
    return this.generation
  }

  /**
   * Whether what is held may answer now: always while every change is heard; while the listener is
   * lost, only once a look at the change counters vouches for it (ChangeWatch.current). A reader that
   * is told no asks the database, or awaits `whenCurrent` first.
   */
  protected current(): boolean {
    return this.changes?.current() ?? true
  }

  /** Resolves once what is held may answer (at once, or after the shared look at the counters). */
  protected whenCurrent(): Promise<void> {
    return this.changes?.whenCurrent() ?? Promise.resolve()
  }

  protected mayKeep(token: number): boolean {
    return token === this.generation && this.database.hearsEveryChange() && !inRequestTransaction()
  }
}
