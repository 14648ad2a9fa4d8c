import { eq } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import { users } from '../../db/schema'
import { AppError } from '../../lib/errors'
import { ThrottledError } from '../../auth/login-throttle'
import { recordLogin, type LoginResult } from '../../audit/login-log'
import { SIGN_IN_MSG } from '@amg/contract'
import type { SecondStepPassed, SecondStepRefused } from '../../auth/mfa-login'

interface Attempt {
  address: string
  userAgent: string | null
}

/**
 * A passed second step in the login log (DESIGN.md §14): a recovery code used is `recovery_used`, so
 * an administrator sees codes being spent; a TOTP code is a plain success, with the caller's words.
 */
export async function recordSecondStep(
  db: Db,
  passed: SecondStepPassed,
  attempt: Attempt,
  successMsg: string,
) {
  await recordLogin(db, {
    nickName: passed.user.nickName,
    userId: passed.user.id,
    ip: attempt.address,
    userAgent: attempt.userAgent,
    result: passed.via === 'recovery' ? 'recovery_used' : 'success',
    msg: passed.via === 'recovery' ? SIGN_IN_MSG.recoveryUsed : successMsg,
  })
}

/**
 * A refused second step in the login log, when whose it was is known: throttled is `locked`, a wrong
 * code `mfa_failure`. Answers the error to send (a throttled one carries its Retry-After).
 */
export async function recordSecondStepRefusal(
  db: Db,
  err: SecondStepRefused,
  attempt: Attempt,
): Promise<Error> {
  if (err.user)
    await recordLogin(db, {
      nickName: err.user.nickName,
      userId: err.user.id,
      ip: attempt.address,
      userAgent: attempt.userAgent,
      result: err.refusal instanceof ThrottledError ? 'locked' : 'mfa_failure',
      msg: err.refusal.message,
    })
  return err.refusal
}

/** A refused sign-in in the login log: throttled ('locked'), frozen, or a wrong name or password ('failure'). */
export async function recordLoginRefusal(
  db: Db,
  attempt: { nickName: string; address: string; userAgent: string | null },
  err: unknown,
): Promise<void> {
  const result: LoginResult | null =
    err instanceof ThrottledError
      ? 'locked'
      : err instanceof AppError && err.status === 403
        ? 'frozen'
        : err instanceof AppError && err.status === 401
          ? 'failure'
          : null
  if (!result) return
  const nickName = attempt.nickName.trim()
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.nickName, nickName)).limit(1)
  await recordLogin(db, {
    nickName,
    userId: user?.id ?? null,
    ip: attempt.address,
    userAgent: attempt.userAgent,
    result,
    msg: (err as Error).message,
  })
}
