import { and, eq, lt, sql } from 'drizzle-orm'
import { foldName, MSG, normalizeName, type Restriction, type SecuritySettings } from '@amg/contract'
import type { DbOrTx, Db } from '../db/connection'
import { mfaChallenges, oidcPayloads, sessions, userMfa, users } from '../db/schema'
import { passwordExpired } from './password-rules'
import { AppError, unauthorized, UnavailableError } from '../lib/errors'
import { sameName } from '../lib/same-name'
import { judge, type LoginThrottle } from './login-throttle'
import { hashPassword, needsRehash, verifyPasswordEvenly } from './password'
import { hashToken, newToken } from '../lib/tokens'
import type { SessionUser } from '../cache/session-cache'
import { stageEvents } from '../events/stage'
import type { DirectoryBind } from './directory-bind'

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
  /** aborted once the client has gone without its answer (lib/client-gone.ts) */
  wanted?: AbortSignal
}

/** What sign-in needs besides the password check: the settings' answers for this user (DESIGN.md §14). */
export interface SignInGate {
  settings: () => Promise<SecuritySettings>
  /** the settings require MFA and the user has not enrolled */
  mfaEnrolmentDue: (settings: SecuritySettings, userId: number) => Promise<boolean>
  /** DESIGN.md §23: whether the user has a passkey, is asked a second step, must use a passkey */
  passkeyDemand: (settings: SecuritySettings, userId: number) => Promise<PasskeyDemand>
  /** the restriction a session starts with once the password is fine: enrol MFA or a passkey */
  enrolmentDue: (settings: SecuritySettings, userId: number) => Promise<Restriction | null>
}

export interface PasskeyDemand {
  has: boolean
  asked: boolean
  passkeyOnly: boolean
}

/** The second steps a user may take (DESIGN.md §23: a passkey serves where TOTP is asked). */
export type SecondStepMethod = 'totp' | 'passkey'

/** A sign-in's outcome: a session (maybe restricted), or the second step's token. */
export type SignInOutcome =
  | { kind: 'session'; token: string; user: SessionUser; expired: boolean }
  | { kind: 'mfa'; mfaToken: string; user: SessionUser; expired: boolean; methods: SecondStepMethod[] }

/** The second step's token lasts this long and allows this many codes (DESIGN.md §14). */
export const MFA_TOKEN_TTL_MS = 5 * 60_000
export const MFA_TOKEN_TRIES = 5

/**
 * The account a name and password sign in to, throttled and answered as `login` answers (below): the
 * one check the console's sign-in and the single sign-on login screen (DESIGN.md §16) share.
 */
export async function checkCredentials(
  db: Db,
  throttle: LoginThrottle,
  attempt: Omit<SignIn, 'userAgent'>,
  directoryBind?: DirectoryBind,
) {
  // the one form names are stored in (names.ts), so a full-width or spaced-out name finds its account
  // and counts against the same throttle; a name with invisible characters matches no account
  const nickName = normalizeName(attempt.nickName)
  // Names are unique ignoring case (name-fold.ts): `ADMIN` is `admin`'s name in other letters and
  // signs in to it. The throttle counts the folded name, known account or not, so changing the case
  // buys no fresh attempts and does not tell a known name from an unknown one.
  const admitted = await throttle.signIn(foldName(nickName), attempt.address)
  const { signsIn, passwordOk } = await judge(admitted, async () => {
    const [user] = await db.select().from(users).where(sameName(users.nickName, nickName)).limit(1)
    // Unknown, frozen and active accounts alike: the same hash check, the same answer to a wrong
    // password, the same counting. Only the right password learns that an account is frozen.
    // A service account never signs in interactively (DESIGN.md §11): it answers as an unknown account
    // does, whatever hash an older version left on it.
    const signsIn = user && !user.serviceAccount ? user : undefined
    // a directory user's password is the directory's (DESIGN.md §22): it binds, nothing is hashed here
    if (signsIn?.source === 'ldap')
      return { signsIn, passwordOk: !!directoryBind && (await directoryBind(signsIn, attempt.password)) }
    return {
      signsIn,
      passwordOk: await verifyPasswordEvenly(attempt.password, signsIn?.passwordHash, attempt.wanted),
    }
  })
  if (!signsIn || !passwordOk) throw admitted.refusal(unauthorized(MSG.loginFailed))
  await admitted.succeeded()
  if (signsIn.status !== 1) throw new AppError(403, MSG.loginFrozen)
  // a client that has gone meanwhile is signed in nowhere, as nobody would receive it (the guess counted)
  if (attempt.wanted?.aborted) throw new UnavailableError(MSG.serviceBusy, 1)
  return signsIn
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
): Promise<{
  expired: boolean
  restricted: Restriction | null
  mfa: boolean
  methods: SecondStepMethod[]
  passkeyOnly: boolean
}> {
  const settings = await gate.settings()
  const expired = passwordExpired(settings, user.passwordChangedAt)
  const mustChange = expired || (settings.forceChangeInitial && user.mustChangePassword === 1)
  const [row] = await db.select({ enabled: userMfa.enabled }).from(userMfa).where(eq(userMfa.userId, user.id))
  const mfa = !!row?.enabled
  const pk = await gate.passkeyDemand(settings, user.id)
  const restricted: Restriction | null = mustChange
    ? 'password_change'
    : pk.passkeyOnly && !pk.has
      ? 'passkey_enroll'
      : !mfa && (await gate.mfaEnrolmentDue(settings, user.id))
        ? 'mfa_enroll'
        : null
  // DESIGN.md §23: a passkey serves as the second step where one is asked; under admins-passkey only it
  const passkeyOnly = pk.passkeyOnly && pk.has
  const methods: SecondStepMethod[] = passkeyOnly
    ? ['passkey']
    : [...(mfa ? (['totp'] as const) : []), ...(pk.has && (mfa || pk.asked) ? (['passkey'] as const) : [])]
  return { expired, restricted, mfa: methods.length > 0, methods, passkeyOnly }
}

/** The user as a session carries it, from their row and what the sign-in found (DESIGN.md §14). */
export const sessionUserOf = (
  user: { id: number; nickName: string; realName: string | null; status: number; passwordIsInitial: number },
  restricted: Restriction | null,
  mfaEnabled: boolean,
): SessionUser => ({
  id: user.id,
  nickName: user.nickName,
  realName: user.realName,
  status: user.status,
  passwordIsInitial: user.passwordIsInitial === 1,
  restricted,
  mfaEnabled,
})

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
  directoryBind?: DirectoryBind,
): Promise<SignInOutcome> {
  const user = await checkCredentials(db, throttle, attempt, directoryBind)
  const rehashed =
    user.source !== 'ldap' && needsRehash(user.passwordHash)
      ? await hashPassword(attempt.password)
      : undefined
  const { expired, restricted, mfa, methods, passkeyOnly } = await signInDemands(db, gate, user)
  const sessionUser = sessionUserOf(user, restricted, mfa)
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
      return openMfaChallenge(tx, user.id, restricted, passkeyOnly)
    })
    return { kind: 'mfa', mfaToken, user: sessionUser, expired, methods }
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
  passkeyOnly = false,
): Promise<string> {
  const mfaToken = newToken()
  await db.insert(mfaChallenges).values({
    tokenHash: hashToken(mfaToken),
    userId,
    restricted,
    passkeyOnly,
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
