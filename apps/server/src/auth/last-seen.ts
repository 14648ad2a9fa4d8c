import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/connection'
import { sessions } from '../db/schema'

/** How often a session's last-seen time is written: the online list needs minutes, not requests. */
export const LAST_SEEN_EVERY_MS = 60_000

/**
 * Records when each session was last used, at most once a minute per session and instance, so a
 * busy session costs one small write a minute rather than one per request.
 */
export class LastSeen {
  private readonly written = new Map<string, number>()

  constructor(private readonly db: Db) {}

  /** `tokenHash`: the session's token as stored (`hashToken`). */
  async touch(tokenHash: string, now = Date.now()): Promise<void> {
    const key = tokenHash
    const last = this.written.get(key)
    if (last !== undefined && now - last < LAST_SEEN_EVERY_MS) return
    this.written.set(key, now)
    if (this.written.size > 50_000) this.forgetOlderThan(now - LAST_SEEN_EVERY_MS)
    await this.db
      .update(sessions)
      .set({ lastSeenTime: sql`now()` })
      .where(eq(sessions.tokenHash, key))
  }

  private forgetOlderThan(cutoff: number) {
    for (const [key, at] of this.written) if (at < cutoff) this.written.delete(key)
  }
}
