import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import type { Restriction } from '@amg/contract'
import type { Db } from '../db/connection'
import { apiKeys, sessions, users } from '../db/schema'
import { hashToken } from '../lib/tokens'
import { WatchedCache, type CacheHost } from './watched-cache'

/** What a session lookup answers for a live session whose user is frozen. */
export const FROZEN = Symbol('frozen session')

/** The signed-in user as a request sees it. */
export interface SessionUser {
  id: number
  nickName: string
  realName: string | null
  status: number
  /** still the initial password (the console warns) */
  passwordIsInitial: boolean
  /** the session may only finish signing in (DESIGN.md §14): change the password or enrol MFA */
  restricted: Restriction | null
}

interface CachedSession {
  user: SessionUser
  expiresAt: number
}

/** Beyond this many live sessions the oldest entries are dropped; they are read again when used. */
const MAX_ENTRIES = 200_000

/**
 * Signed-in sessions kept in memory once read, so a signed-in request costs no query. Invalidation
 * follows the data (migration 0004, watched-cache.ts): ending or changing a session, or freezing,
 * renaming or removing a user, drops everything here; expiry is checked against the remembered time.
 */
export class SessionCache extends WatchedCache {
  private readonly byTokenHash = new Map<string, CachedSession>()
  /** API keys apart from sessions: a key is never admitted as a session token, nor a token as a key */
  private readonly byKeyHash = new Map<string, CachedSession>()
  /** service accounts behind machine tokens (DESIGN.md §16), by user id */
  private readonly byUserId = new Map<number, SessionUser>()

  constructor(
    private readonly db: Db,
    database: CacheHost['database'],
    changes?: CacheHost['changes'],
  ) {
    super({ database, changes }, 'session')
  }

  protected forget() {
    this.byTokenHash.clear()
    this.byKeyHash.clear()
    this.byUserId.clear()
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
    const found = await this.lookupByHash(key, now)
    return found === FROZEN ? null : found
  }

  /**
   * `findByHash`, telling apart a live session whose user has been frozen (FROZEN), so that its owner
   * can be told why it ended. The same single query either way.
   */
  async lookupByHash(key: string, now = Date.now()): Promise<SessionUser | typeof FROZEN | null> {
    const hit = this.byTokenHash.get(key)
    if (hit) {
      if (hit.expiresAt > now) return hit.user
      this.byTokenHash.delete(key)
      return null
    }
    const token = this.token()
    const [row] = await this.db
      .select({
        id: users.id,
        nickName: users.nickName,
        realName: users.realName,
        status: users.status,
        passwordIsInitial: users.passwordIsInitial,
        restricted: sessions.restricted,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, key), gt(sessions.expiresAt, sql`now()`)))
      .limit(1)
    if (!row) return null
    // a frozen user's sessions stay stored (they come back when the user is enabled) but admit nothing
    if (row.status !== 1) return FROZEN
    const { expiresAt, passwordIsInitial, restricted, ...rest } = row
    const user: SessionUser = {
      ...rest,
      passwordIsInitial: passwordIsInitial === 1,
      restricted: restricted === 'password_change' || restricted === 'mfa_enroll' ? restricted : null,
    }
    if (this.mayKeep(token)) {
      if (this.byTokenHash.size >= MAX_ENTRIES) this.dropOldest()
      this.byTokenHash.set(key, { user, expiresAt: expiresAt.getTime() })
    }
    return user
  }

  /**
   * The user an API key (DESIGN.md §16) acts as, like `lookupByHash` for a session: held here once
   * read, so a warm call costs no query; revoking the key or freezing its user clears it through the
   * same triggers (migration 0018). `key`: the key's hash (`hashToken`).
   */
  /** A machine token's service account held here (the token itself is checked in memory, oidc/host.ts). */
  heldUser(userId: number): SessionUser | undefined {
    return this.byUserId.get(userId)
  }

  /** The service account of a machine token: FROZEN when frozen, null when gone. Kept like a session. */
  async lookupUser(userId: number): Promise<SessionUser | typeof FROZEN | null> {
    const hit = this.byUserId.get(userId)
    if (hit) return hit
    const token = this.token()
    const [row] = await this.db
      .select({
        id: users.id,
        nickName: users.nickName,
        realName: users.realName,
        status: users.status,
        passwordIsInitial: users.passwordIsInitial,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1)
    if (!row) return null
    if (row.status !== 1) return FROZEN
    // a service account acts through machine tokens only: no sign-in, no restriction (DESIGN.md §16)
    const user: SessionUser = { ...row, passwordIsInitial: row.passwordIsInitial === 1, restricted: null }
    if (this.mayKeep(token)) {
      if (this.byUserId.size >= MAX_ENTRIES) this.byUserId.clear()
      this.byUserId.set(userId, user)
    }
    return user
  }

  /** `held` for an API key (its hash). */
  heldApiKey(key: string, now = Date.now()): SessionUser | undefined {
    const hit = this.byKeyHash.get(key)
    return hit !== undefined && hit.expiresAt > now ? hit.user : undefined
  }

  async lookupApiKey(key: string, now = Date.now()): Promise<SessionUser | typeof FROZEN | null> {
    const hit = this.byKeyHash.get(key)
    if (hit) {
      if (hit.expiresAt > now) return hit.user
      this.byKeyHash.delete(key)
      return null
    }
    const token = this.token()
    const [row] = await this.db
      .select({
        id: users.id,
        nickName: users.nickName,
        realName: users.realName,
        status: users.status,
        passwordIsInitial: users.passwordIsInitial,
        expiresAt: apiKeys.expiresAt,
      })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(and(eq(apiKeys.keyHash, key), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`))))
      .limit(1)
    if (!row) return null
    if (row.status !== 1) return FROZEN
    const { expiresAt, passwordIsInitial, ...rest } = row
    // a key is its own credential, made by an administrator: a session's restriction does not bind it
    const user: SessionUser = { ...rest, passwordIsInitial: passwordIsInitial === 1, restricted: null }
    if (this.mayKeep(token)) {
      if (this.byKeyHash.size >= MAX_ENTRIES) this.byKeyHash.clear()
      this.byKeyHash.set(key, { user, expiresAt: expiresAt?.getTime() ?? Number.POSITIVE_INFINITY })
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
