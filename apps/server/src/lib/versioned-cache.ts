import type { Database } from '../db/connection'
import type { ChangeWatch } from '../auth/change-watch'
import { KeepGuard } from './keep-guard'

/**
 * What the list caches are kept for (migrations 0005, 0008): 'org' the department tree, 'lists' the
 * users, groups and positions the lists count and the roles the role list shows. Each names a sequence
 * the triggers bump and a NOTIFY payload.
 */
export type CacheFamily = 'org' | 'lists'

/** Beyond this many keys (distinct filters) the oldest are dropped; they are computed again when asked. */
const MAX_KEYS = 100

/**
 * Values read from the database and kept in memory until the rows under them change. Statement
 * triggers bump the family's sequence and NOTIFY every instance whichever route or script made the
 * change, and the notification drops what is kept. A read asks the database nothing: after a request
 * that may have written, the app's change watch (auth/hook.ts) reads the sequences and drops what they
 * say is stale before the answer leaves, so this instance's own writes show on the very next call even
 * if the notification were late, as the access caches do. A value read while a change was on its way is
 * not kept, nor anything read inside a request's transaction (it may roll back) or while notifications
 * may be missed: the keep guard decides.
 */
export class VersionedCache {
  private readonly values = new Map<string, unknown>()
  private readonly guard: KeepGuard

  constructor(
    app: { database: Pick<Database, 'onNotify' | 'hearsEveryChange'>; changes: ChangeWatch },
    family: CacheFamily,
  ) {
    this.guard = new KeepGuard(app.database)
    app.changes.watch({ sequence: `${family}_version_seq`, onChange: () => this.clear() })
    app.database.onNotify((payload) => {
      if (payload === family || payload === '*') this.clear()
    })
  }

  clear() {
    this.guard.changed()
    this.values.clear()
  }

  /** A token to pass to `store` with a value read after taking it. */
  token(): number {
    return this.guard.token()
  }

  peek<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined
  }

  /** Keeps `value` unless something changed since `token` was taken, or it may not be kept at all. */
  store(token: number, key: string, value: unknown): void {
    if (!this.guard.mayKeep(token)) return
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
