import { and, eq, gt, lt, sql } from 'drizzle-orm'
import { MSG, SIGN_IN_MSG, type MfaLoginBody, type Restriction } from '@amg/contract'
import type { Db } from '../db/connection'
import { mfaChallenges, users } from '../db/schema'
import { AppError, unauthorized } from '../lib/errors'
import { hashToken } from '../lib/tokens'
import type { SessionUser } from '../cache/session-cache'
import { pause, type LoginThrottle } from './login-throttle'
import { checkSecondFactor } from './mfa'
import type { SecretBox } from '../lib/secret-box'
import { MFA_TOKEN_TRIES, openSession, type SessionPolicy, type SignIn } from './sessions'

/** A refused second step, with whose it was for the login log; `refusal` is what to answer. */
export class SecondStepRefused extends Error {
  constructor(
    readonly user: { id: number; nickName: string } | null,
    readonly refusal: Error,
  ) {
    super(refusal.message)
  }
}

/**
 * POST /login/mfa (DESIGN.md §14): the token the first step answered, good for 5 minutes and 5 codes
 * (each try is counted before the code is checked, so tries sent at once cannot exceed 5), throttled
 * per user and address like a password. A TOTP code or an unused recovery code gives the session,
 * carrying the restriction the first step found (an expired password, say).
 */
export async function loginSecondStep(
  db: Db,
  policy: SessionPolicy,
  throttle: LoginThrottle,
  box: SecretBox,
  body: MfaLoginBody,
  attempt: Pick<SignIn, 'address' | 'userAgent'>,
): Promise<{ token: string; user: SessionUser; via: 'code' | 'recovery' }> {
  const tokenHash = hashToken(body.mfaToken)
  const [challenge] = await db
    .update(mfaChallenges)
    .set({ tries: sql`${mfaChallenges.tries} + 1` })
    .where(
      and(
        eq(mfaChallenges.tokenHash, tokenHash),
        lt(mfaChallenges.tries, MFA_TOKEN_TRIES),
        gt(mfaChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning()
  if (!challenge) throw new SecondStepRefused(null, unauthorized(SIGN_IN_MSG.mfaTokenInvalid))
  const [user] = await db.select().from(users).where(eq(users.id, challenge.userId))
  if (!user) throw new SecondStepRefused(null, unauthorized(SIGN_IN_MSG.mfaTokenInvalid))
  const who = { id: user.id, nickName: user.nickName }
  const admitted = admit(() => throttle.secondStep(user.id, attempt.address), who)
  await pause(admitted.pauseMs)
  const via = await checkSecondFactor(db, box, user.id, body)
  if (!via) {
    if (challenge.tries >= MFA_TOKEN_TRIES)
      await db.delete(mfaChallenges).where(eq(mfaChallenges.tokenHash, tokenHash))
    throw new SecondStepRefused(who, admitted.refusal(unauthorized(SIGN_IN_MSG.mfaCodeWrong)))
  }
  admitted.succeeded()
  await db.delete(mfaChallenges).where(eq(mfaChallenges.tokenHash, tokenHash))
  if (user.status !== 1) throw new SecondStepRefused(who, new AppError(403, MSG.loginFrozen))
  const restricted = challenge.restricted as Restriction | null
  const sessionUser: SessionUser = {
    id: user.id,
    nickName: user.nickName,
    realName: user.realName,
    status: user.status,
    passwordIsInitial: user.passwordIsInitial === 1,
    restricted: restricted === 'password_change' || restricted === 'mfa_enroll' ? restricted : null,
  }
  const token = await openSession(db, policy, sessionUser, attempt)
  return { token, user: sessionUser, via }
}

/** A refusal by the throttle before the code is even checked is a refused second step too (logged, Retry-After). */
function admit<T>(begin: () => T, who: { id: number; nickName: string }): T {
  try {
    return begin()
  } catch (err) {
    throw new SecondStepRefused(who, err as Error)
  }
}
