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

/** Who passed the second step, with the restriction the first step found and the proof used. */
export interface SecondStepPassed {
  user: SessionUser
  via: 'code' | 'recovery'
}

/**
 * The second step (DESIGN.md §14), for the console's POST /login/mfa and the single sign-on login
 * screen alike: the token the first step answered, good for 5 minutes and 5 codes (each try is
 * counted before the code is checked, so tries sent at once cannot exceed 5), throttled per user and
 * address like a password. A TOTP code or an unused recovery code passes; the user is answered with
 * the restriction the first step found (an expired password, say).
 */
export async function passSecondStep(
  db: Db,
  throttle: LoginThrottle,
  box: SecretBox,
  body: MfaLoginBody,
  attempt: Pick<SignIn, 'address'>,
): Promise<SecondStepPassed> {
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
  // refused by the throttle before any check: logged as the user's ('locked'), answered with its wait
  let admitted: ReturnType<LoginThrottle['secondStep']>
  try {
    admitted = throttle.secondStep(user.id, attempt.address)
  } catch (err) {
    throw new SecondStepRefused(who, err as Error)
  }
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
  return {
    user: {
      id: user.id,
      nickName: user.nickName,
      realName: user.realName,
      status: user.status,
      passwordIsInitial: user.passwordIsInitial === 1,
      restricted: restricted === 'password_change' || restricted === 'mfa_enroll' ? restricted : null,
    },
    via,
  }
}

/** POST /login/mfa (DESIGN.md §14): the second step passed gives the console session. */
export async function loginSecondStep(
  db: Db,
  policy: SessionPolicy,
  throttle: LoginThrottle,
  box: SecretBox,
  body: MfaLoginBody,
  attempt: Pick<SignIn, 'address' | 'userAgent'>,
): Promise<{ token: string; user: SessionUser; via: 'code' | 'recovery' }> {
  const { user, via } = await passSecondStep(db, throttle, box, body, attempt)
  const token = await openSession(db, policy, user, attempt)
  return { token, user, via }
}
