import { and, eq, lt, sql } from 'drizzle-orm'
import { MSG, normalizeName } from '@amg/contract'
import type { DbOrTx, Db } from '../db/connection'
import { oidcPayloads, sessions, users } from '../db/schema'
import { AppError, unauthorized } from '../lib/errors'
import { pause, type LoginThrottle } from './login-throttle'
import { hashPassword, needsRehash, verifyPasswordEvenly } from './password'
import { hashToken, newToken } from '../lib/tokens'
import type { SessionUser } from '../cache/session-cache'
import { stageEvents } from '../events/stage'

export interface SessionPolicy {
  sessionTtlHours: number
}

export interface SignIn {
  nickName: string
  password: string
  /** the client address (behind a trusted proxy, the one it names) */
  address: string
  /** the browser, kept with the session for the online list */
  userAgent?: string | null
}

/**
 * The account a name and password sign in to, throttled and answered as `login` answers (below): the
 * one check the console's sign-in and the single sign-on login screen (DESIGN.md §16) share.
 */
export async function checkCredentials(db: Db, throttle: LoginThrottle, attempt: Omit<SignIn, 'userAgent'>) {
  // the one form names are stored in (names.ts), so a full-width or spaced-out name finds its account
  // and counts against the same throttle; a name with invisible characters matches no account
  const nickName = normalizeName(attempt.nickName)
  const admitted = throttle.signIn(nickName, attempt.address)
  await pause(admitted.pauseMs)
  const [user] = await db.select().from(users).where(eq(users.nickName, nickName)).limit(1)
  // Unknown, frozen and active accounts alike: the same hash check, the same answer to a wrong
  // password, the same counting. Only the right password learns that an account is frozen.
  const passwordOk = await verifyPasswordEvenly(attempt.password, user?.passwordHash)
  if (!user || !passwordOk) throw admitted.refusal(unauthorized(MSG.loginFailed))
  admitted.succeeded()
  if (user.status !== 1) throw new AppError(403, MSG.loginFrozen)
  return user
}

/**
 * Sign-in, throttled by account and address (login-throttle.ts) instead of locking accounts.
 * An unknown user, a frozen one and a wrong password answer alike, throttling included, until the
 * password is right (DESIGN.md §11); a hash made at an older cost is replaced by one at the current
 * cost once the password is known to be right.
 */
export async function login(db: Db, policy: SessionPolicy, throttle: LoginThrottle, attempt: SignIn) {
  const user = await checkCredentials(db, throttle, attempt)
  const rehashed = needsRehash(user.passwordHash) ? await hashPassword(attempt.password) : undefined
  const now = new Date()
  const token = newToken()
  await db.transaction(async (tx) => {
    // Only if the hash is still the one just checked: a password changed meanwhile is left alone.
    if (rehashed)
      await tx
        .update(users)
        .set({ passwordHash: rehashed })
        .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
    await tx.insert(sessions).values({
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(now.getTime() + policy.sessionTtlHours * 3_600_000),
      ip: attempt.address.slice(0, 64),
      userAgent: attempt.userAgent?.slice(0, 512) || null,
    })
    // Expired sessions are cleared as new ones are made, so the table stays small.
    await tx.delete(sessions).where(lt(sessions.expiresAt, now))
  })
  const sessionUser: SessionUser = {
    id: user.id,
    nickName: user.nickName,
    realName: user.realName,
    status: user.status,
    passwordIsInitial: user.passwordIsInitial === 1,
  }
  return { token, user: sessionUser }
}

export async function endSession(db: Db, token: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)))
}

/** End every session of a user, except optionally the one in use (password change keeps it). */
export async function endUserSessions(db: DbOrTx, userId: number, keepToken?: string) {
  const keep = keepToken ? hashToken(keepToken) : undefined
  const ended = await db
    .delete(sessions)
    .where(
      keep
        ? and(eq(sessions.userId, userId), sql`${sessions.tokenHash} <> ${keep}`)
        : eq(sessions.userId, userId),
    )
    .returning({ id: sessions.id })
  await stageEvents(
    db,
    ended.map((s) => sessionRevoked(s.id, userId)),
  )
  await endProviderSessions(db, userId)
}

/**
 * Ends everything a user holds at the single sign-on provider (DESIGN.md §16): provider sessions,
 * grants, codes, access and refresh tokens, at once and for every instance (the rows are shared).
 * Freezing, a forced sign-out and a password change end them with the console sessions.
 */
export async function endProviderSessions(db: DbOrTx, userId: number) {
  await db.delete(oidcPayloads).where(eq(oidcPayloads.accountId, String(userId)))
}

/** The change event of an ended session (DESIGN.md §17): consumers holding its decisions drop them. */
export const sessionRevoked = (sessionId: number, userId: number) =>
  ({ type: 'session.revoked', payload: { sessionId, userId } }) as const
