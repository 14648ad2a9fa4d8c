import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/connection'
import { apiKeys, sessions } from '../db/schema'

/** How often a session's last-seen time is written: the online list needs minutes, not requests. */
export const LAST_SEEN_EVERY_MS = 60_000

/**
 * Records when each session was last used, at most once a minute per session and instance, so a
 * busy session costs one small write a minute rather than one per request.
 */
export class LastSeen {
  private readonly written = new Map<string, number>()

  /** `apiKeys`: the times are an API key's last use (DESIGN.md §16), the key given by its hash. */
  constructor(
    private readonly db: Db,
    private readonly of: 'sessions' | 'apiKeys' = 'sessions',
  ) {}

  /**
   * `tokenHash`: the session's token as stored (`hashToken`). The write when one is due, else nothing
   * (no promise for the requests in between).
   */
  touch(tokenHash: string, now = Date.now()): Promise<void> | undefined {
    const last = this.written.get(tokenHash)
    if (last !== undefined && now - last < LAST_SEEN_EVERY_MS) return undefined
    this.written.set(tokenHash, now)
    if (this.written.size > 50_000) this.forgetOlderThan(now - LAST_SEEN_EVERY_MS)
    return this.write(tokenHash)
  }

  private async write(tokenHash: string) {
    if (this.of === 'apiKeys') {
      await this.db
        .update(apiKeys)
        .set({ lastUsedTime: sql`now()` })
        .where(eq(apiKeys.keyHash, tokenHash))
      return
    }
    await this.db
      .update(sessions)
      .set({ lastSeenTime: sql`now()` })
      .where(eq(sessions.tokenHash, tokenHash))
  }

  private forgetOlderThan(cutoff: number) {
    for (const [key, at] of this.written) if (at < cutoff) this.written.delete(key)
  }
}
