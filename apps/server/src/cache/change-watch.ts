import { sql } from 'drizzle-orm'
import { queryRows, type Db } from '../db/connection'
import type { CacheFamily } from './watched-cache'

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

  constructor(private readonly db: Db) {}

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

  /** Answers whether anything watched changed since the last look. */
  async refreshIfChanged(): Promise<boolean> {
    const columns = this.watchers.map(
      (w, i) =>
        sql`(select last_value || ':' || is_called from ${sql.identifier(`${w.family}_version_seq`)}) as ${sql.identifier(`v${i}`)}`,
    )
    const [row] = await queryRows<Record<string, string>>(this.db, sql`select ${sql.join(columns, sql`, `)}`)
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
