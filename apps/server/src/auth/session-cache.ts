import { and, eq, gt, sql } from 'drizzle-orm'
import type { Database, Db } from '../db/connection'
import { sessions, users } from '../db/schema'
import type { SessionUser } from './sessions'
import { hashToken } from './tokens'
import { KeepGuard } from '../lib/keep-guard'

interface CachedSession {
  user: SessionUser
  expiresAt: number
}

/** Beyond this many live sessions the oldest entries are dropped; they are read again when used. */
const MAX_ENTRIES = 200_000

/**
 * Signed-in sessions kept in memory once read, so a signed-in request costs no query. Invalidation
 * follows the data (migration 0004): ending or changing a session, or freezing, renaming or removing a
 * user, bumps session_version_seq and NOTIFYs every instance, which drops everything here; expiry is
 * checked against the remembered time. What a read may keep, the keep guard decides (a read that raced
 * with such a change, or ran while notifications may be missed, keeps nothing).
 */
export class SessionCache {
  private readonly byTokenHash = new Map<string, CachedSession>()
  private readonly guard: KeepGuard

  constructor(
    private readonly db: Db,
    database: Pick<Database, 'onNotify' | 'hearsEveryChange'>,
  ) {
    this.guard = new KeepGuard(database)
    database.onNotify((payload) => {
      if (payload === 'session' || payload === '*') this.clear()
    })
  }

  clear() {
    this.guard.changed()
    this.byTokenHash.clear()
  }

  /** Whether this token's session is held here (tests show what drops it). */
  isCached(token: string): boolean {
    return this.byTokenHash.has(hashToken(token))
  }

  /** The signed-in user behind a token, or null when the token is unknown, expired or the user is frozen. */
  find(token: string, now = Date.now()): Promise<SessionUser | null> {
    return this.findByHash(hashToken(token), now)
  }

  /**
   * The user of a session held here and not expired, answered at once; undefined when only the
   * database can tell (`findByHash`). Lets the auth hook decide a warm request without a promise.
   */
  held(key: string, now = Date.now()): SessionUser | undefined {
    const hit = this.byTokenHash.get(key)
    return hit !== undefined && hit.expiresAt > now ? hit.user : undefined
  }

  /** `find` for a caller that holds the token's hash already (the auth hook hashes once per request). */
  async findByHash(key: string, now = Date.now()): Promise<SessionUser | null> {
    const hit = this.byTokenHash.get(key)
    if (hit) {
      if (hit.expiresAt > now) return hit.user
      this.byTokenHash.delete(key)
      return null
    }
    const token = this.guard.token()
    const [row] = await this.db
      .select({
        id: users.id,
        nickName: users.nickName,
        realName: users.realName,
        status: users.status,
        passwordIsInitial: users.passwordIsInitial,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, key), gt(sessions.expiresAt, sql`now()`), eq(users.status, 1)))
      .limit(1)
    if (!row) return null
    const { expiresAt, passwordIsInitial, ...rest } = row
    const user: SessionUser = { ...rest, passwordIsInitial: passwordIsInitial === 1 }
    if (this.guard.mayKeep(token)) {
      if (this.byTokenHash.size >= MAX_ENTRIES) this.dropOldest()
      this.byTokenHash.set(key, { user, expiresAt: expiresAt.getTime() })
    }
    return user
  }

  private dropOldest() {
    let toDrop = Math.ceil(MAX_ENTRIES / 10)
    for (const key of this.byTokenHash.keys()) {
      if (toDrop-- <= 0) break
      this.byTokenHash.delete(key)
    }
  }
}
