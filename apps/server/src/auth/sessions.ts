import { and, eq, lt, sql } from 'drizzle-orm'
import { MSG, normalizeName, type Restriction, type SecuritySettings } from '@amg/contract'
import type { DbOrTx, Db } from '../db/connection'
import { mfaChallenges, oidcPayloads, sessions, userMfa, users } from '../db/schema'
import { passwordExpired } from './password-rules'
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

/** What sign-in needs besides the password check: the settings' answers for this user (DESIGN.md §14). */
export interface SignInGate {
  settings: () => Promise<SecuritySettings>
  /** the settings require MFA and the user has not enrolled */
  mfaEnrolmentDue: (settings: SecuritySettings, userId: number) => Promise<boolean>
}

/** A sign-in's outcome: a session (maybe restricted), or the second step's token. */
export type SignInOutcome =
  | { kind: 'session'; token: string; user: SessionUser; expired: boolean }
  | { kind: 'mfa'; mfaToken: string; user: SessionUser; expired: boolean }

/** The second step's token lasts this long and allows this many codes (DESIGN.md §14). */
export const MFA_TOKEN_TTL_MS = 5 * 60_000
export const MFA_TOKEN_TRIES = 5

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
 * What the settings ask of a user whose password was just checked (DESIGN.md §14): `expired`, the
 * restriction their session starts with (a password set by someone else or expired: change it; MFA
 * required and not enrolled: enrol), and whether a second step is due (MFA enrolled). The console's
 * sign-in and the single sign-on login screen ask it alike.
 */
export async function signInDemands(
  db: Db,
  gate: SignInGate,
  user: { id: number; passwordChangedAt: Date; mustChangePassword: number },
): Promise<{ expired: boolean; restricted: Restriction | null; mfa: boolean }> {
  const settings = await gate.settings()
  const expired = passwordExpired(settings, user.passwordChangedAt)
  const mustChange = expired || (settings.forceChangeInitial && user.mustChangePassword === 1)
  const [row] = await db.select({ enabled: userMfa.enabled }).from(userMfa).where(eq(userMfa.userId, user.id))
  const mfa = !!row?.enabled
  const restricted: Restriction | null = mustChange
    ? 'password_change'
    : !mfa && (await gate.mfaEnrolmentDue(settings, user.id))
      ? 'mfa_enroll'
      : null
  return { expired, restricted, mfa }
}

/**
 * Sign-in, throttled by account and address (login-throttle.ts) instead of locking accounts.
 * An unknown user, a frozen one and a wrong password answer alike, throttling included, until the
 * password is right (DESIGN.md §11); a hash made at an older cost is replaced by one at the current
 * cost once the password is known to be right. Then (§14): a password set by someone else or expired
 * restricts the session to changing it; MFA enrolled asks for the second step; MFA required and not
 * enrolled restricts the session to enrolling.
 */
export async function login(
  db: Db,
  policy: SessionPolicy,
  throttle: LoginThrottle,
  gate: SignInGate,
  attempt: SignIn,
): Promise<SignInOutcome> {
  const user = await checkCredentials(db, throttle, attempt)
  const rehashed = needsRehash(user.passwordHash) ? await hashPassword(attempt.password) : undefined
  const { expired, restricted, mfa } = await signInDemands(db, gate, user)
  const sessionUser: SessionUser = {
    id: user.id,
    nickName: user.nickName,
    realName: user.realName,
    status: user.status,
    passwordIsInitial: user.passwordIsInitial === 1,
    restricted,
    mfaEnabled: mfa,
  }
  // Only if the hash is still the one just checked: a password changed meanwhile is left alone.
  const rehash = async (tx: DbOrTx) => {
    if (rehashed)
      await tx
        .update(users)
        .set({ passwordHash: rehashed })
        .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
  }
  if (mfa) {
    const mfaToken = await db.transaction(async (tx) => {
      await rehash(tx)
      return openMfaChallenge(tx, user.id, restricted)
    })
    return { kind: 'mfa', mfaToken, user: sessionUser, expired }
  }
  const token = await openSession(db, policy, sessionUser, attempt, rehash)
  return { kind: 'session', token, user: sessionUser, expired }
}

/**
 * The second step's token for a user whose password was just checked (DESIGN.md §14): 5 minutes, 5
 * tries (mfa-login.ts), carrying the restriction the first step found. The console's sign-in and the
 * single sign-on login screen both ask the second step with it. Spent tokens are swept on the way.
 */
export async function openMfaChallenge(
  db: DbOrTx,
  userId: number,
  restricted: Restriction | null,
): Promise<string> {
  const mfaToken = newToken()
  await db.insert(mfaChallenges).values({
    tokenHash: hashToken(mfaToken),
    userId,
    restricted,
    expiresAt: new Date(Date.now() + MFA_TOKEN_TTL_MS),
  })
  await db.delete(mfaChallenges).where(lt(mfaChallenges.expiresAt, new Date()))
  return mfaToken
}

/** A new session for a user who has passed every step of sign-in; answers its token. */
export async function openSession(
  db: Db,
  policy: SessionPolicy,
  user: SessionUser,
  attempt: Pick<SignIn, 'address' | 'userAgent'>,
  alsoInTx?: (tx: DbOrTx) => Promise<void>,
): Promise<string> {
  const now = new Date()
  const token = newToken()
  await db.transaction(async (tx) => {
    await alsoInTx?.(tx)
    await tx.insert(sessions).values({
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(now.getTime() + policy.sessionTtlHours * 3_600_000),
      ip: attempt.address.slice(0, 64),
      userAgent: attempt.userAgent?.slice(0, 512) || null,
      restricted: user.restricted,
    })
    // Expired sessions are cleared as new ones are made, so the table stays small.
    await tx.delete(sessions).where(lt(sessions.expiresAt, now))
  })
  return token
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
