import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import type { Restriction } from '@amg/contract'
import type { Db } from '../db/connection'
import { apiKeys, sessions, userMfa, users } from '../db/schema'
import { hashToken } from '../lib/tokens'
import { WatchedCache, type CacheHost } from './watched-cache'
import { restrictionOf } from '../lib/restriction-of'

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
  /** two-step sign-in is on (GET /user/current says so; migration 0022 keeps it fresh) */
  mfaEnabled: boolean
}

interface CachedSession {
  user: SessionUser
  expiresAt: number
}

/** The user's columns every credential's lookup reads. */
const USER_COLUMNS = {
  id: users.id,
  nickName: users.nickName,
  realName: users.realName,
  status: users.status,
  passwordIsInitial: users.passwordIsInitial,
  mfaEnabled: sql<boolean>`coalesce((select ${userMfa.enabled} from ${userMfa} where ${userMfa.userId} = ${users.id}), false)`,
}

const sessionUser = (
  row: {
    id: number
    nickName: string
    realName: string | null
    status: number
    passwordIsInitial: number
    mfaEnabled: boolean
  },
  restricted: Restriction | null,
): SessionUser => ({
  id: row.id,
  nickName: row.nickName,
  realName: row.realName,
  status: row.status,
  passwordIsInitial: row.passwordIsInitial === 1,
  restricted,
  mfaEnabled: row.mfaEnabled === true,
})

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
  /** service accounts behind machine tokens (DESIGN.md §16), by user id; they do not expire */
  private readonly byUserId = new Map<number, CachedSession>()

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
    if (!this.current()) return undefined
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
  lookupByHash(key: string, now = Date.now()): Promise<SessionUser | typeof FROZEN | null> {
    return this.lookupCredential(this.byTokenHash, key, now, async () => {
      const [row] = await this.db
        .select({ ...USER_COLUMNS, restricted: sessions.restricted, expiresAt: sessions.expiresAt })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, key), gt(sessions.expiresAt, sql`now()`)))
        .limit(1)
      if (!row) return null
      return { user: sessionUser(row, restrictionOf(row.restricted)), expiresAt: row.expiresAt.getTime() }
    })
  }

  /** A machine token's service account held here (the token itself is checked in memory, oidc/host.ts). */
  heldUser(userId: number): SessionUser | undefined {
    if (!this.current()) return undefined
    return this.byUserId.get(userId)?.user
  }

  /** The service account of a machine token: FROZEN when frozen, null when gone. Kept like a session. */
  lookupUser(userId: number): Promise<SessionUser | typeof FROZEN | null> {
    return this.lookupCredential(this.byUserId, userId, Date.now(), async () => {
      const [row] = await this.db.select(USER_COLUMNS).from(users).where(eq(users.id, userId)).limit(1)
      // a service account acts through machine tokens only: no sign-in, no restriction (DESIGN.md §16)
      return row ? { user: sessionUser(row, null), expiresAt: Number.POSITIVE_INFINITY } : null
    })
  }

  /** `held` for an API key (its hash). */
  heldApiKey(key: string, now = Date.now()): SessionUser | undefined {
    if (!this.current()) return undefined
    const hit = this.byKeyHash.get(key)
    return hit !== undefined && hit.expiresAt > now ? hit.user : undefined
  }

  /**
   * The user an API key (DESIGN.md §16) acts as, like `lookupByHash` for a session: held here once
   * read, so a warm call costs no query; revoking the key or freezing its user clears it through the
   * same triggers (migration 0018). `key`: the key's hash (`hashToken`).
   */
  lookupApiKey(key: string, now = Date.now()): Promise<SessionUser | typeof FROZEN | null> {
    return this.lookupCredential(this.byKeyHash, key, now, async () => {
      const [row] = await this.db
        .select({ ...USER_COLUMNS, expiresAt: apiKeys.expiresAt })
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .where(
          and(eq(apiKeys.keyHash, key), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`))),
        )
        .limit(1)
      // a key is its own credential, made by an administrator: a session's restriction does not bind it
      return row
        ? { user: sessionUser(row, null), expiresAt: row.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY }
        : null
    })
  }

  /**
   * One credential's user from its map, or read once and kept while no change of the data came in
   * between (`mayKeep`). A frozen user's sessions and keys stay stored (they come back when the user is
   * enabled) but admit nothing: FROZEN, never kept.
   */
  private async lookupCredential<K>(
    held: Map<K, CachedSession>,
    key: K,
    now: number,
    read: () => Promise<CachedSession | null>,
  ): Promise<SessionUser | typeof FROZEN | null> {
    if (!this.current()) await this.whenCurrent()
    const hit = held.get(key)
    if (hit) {
      if (hit.expiresAt > now) return hit.user
      held.delete(key)
      return null
    }
    const token = this.token()
    const found = await read()
    if (!found) return null
    if (found.user.status !== 1) return FROZEN
    if (this.mayKeep(token)) {
      if (held.size >= MAX_ENTRIES) this.dropOldest(held)
      held.set(key, found)
    }
    return found.user
  }

  private dropOldest<K>(held: Map<K, unknown>) {
    let toDrop = Math.ceil(MAX_ENTRIES / 10)
    for (const key of held.keys()) {
      if (toDrop-- <= 0) break
      held.delete(key)
    }
  }
}
