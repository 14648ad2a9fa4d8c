import { WatchedCache, type CacheHost } from './watched-cache'

/** Beyond this many keys (distinct filters) the oldest are dropped; they are computed again when asked. */
const MAX_KEYS = 100

/**
 * The list caches: values read from the database under a key (a list and its filters), kept until a
 * row under them changes (watched-cache.ts). 'org' keeps the department tree; 'lists' what the user,
 * group, position and role lists count and show. A read asks the database nothing.
 */
export class VersionedCache extends WatchedCache {
  private readonly values = new Map<string, unknown>()

  constructor(app: CacheHost, family: 'org' | 'lists') {
    super(app, family)
  }

  protected forget() {
    this.values.clear()
  }

  peek<T>(key: string): T | undefined {
    return this.current() ? (this.values.get(key) as T | undefined) : undefined
  }

  /** Keeps `value` unless something changed since `token` was taken, or it may not be kept at all. */
  store(token: number, key: string, value: unknown): void {
    if (!this.mayKeep(token)) return
    if (!this.values.has(key) && this.values.size >= MAX_KEYS)
      this.values.delete(this.values.keys().next().value!)
    this.values.set(key, value)
  }

  /** The value under `key`, computed (and kept when it may be) on a miss. */
  async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.current()) await this.whenCurrent()
    if (this.values.has(key)) return this.values.get(key) as T
    const token = this.token()
    const value = await compute()
    this.store(token, key, value)
    return value
  }
}
