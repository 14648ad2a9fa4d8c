import { eq, sql } from 'drizzle-orm'
import { MSG, SIGN_IN_MSG, type MfaLoginBody } from '@amg/contract'
import { queryRows, type Db } from '../db/connection'
import { mfaChallenges } from '../db/schema'
import { AppError, unauthorized } from '../lib/errors'
import { hashToken, newToken } from '../lib/tokens'
import type { SessionUser } from '../cache/session-cache'
import { judge, type LoginThrottle } from './login-throttle'
import { checkSecondFactor } from './mfa'
import { matchStep } from './totp'
import { restrictionOf } from '../lib/restriction-of'
import type { SecretBox } from '../lib/secret-box'
import { MFA_TOKEN_TRIES, openSession, sessionUserOf, type SessionPolicy, type SignIn } from './sessions'

/** A refused second step, with whose it was for the login log; `refusal` is what to answer. */
export class SecondStepRefused extends Error {
  constructor(
    readonly user: { id: number; nickName: string } | null,
    readonly refusal: Error,
  ) {
    super(refusal.message)
  }
}

/** The challenge after its try was counted, with its user and their key (one statement, below). */
interface CountedTry {
  tries: number
  restricted: string | null
  id: number
  nickName: string
  realName: string | null
  status: number
  passwordIsInitial: number
  secret: string | null
  last_step: number | null
  enabled: boolean | null
}

/** Who passed the second step, with the restriction the first step found and the proof used. */
export interface SecondStepPassed {
  user: SessionUser
  via: 'code' | 'recovery'
}

/** Where a passed second step leads: the console's session (opened here) or the single sign-on's own. */
type Opening = { policy: SessionPolicy; userAgent: string | null | undefined } | null

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
  const { user, via } = await secondStep(db, throttle, box, body, attempt.address, null)
  return { user, via }
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
  const opening = { policy, userAgent: attempt.userAgent }
  const { user, via, token } = await secondStep(db, throttle, box, body, attempt.address, opening)
  return { token: token ?? (await openSession(db, policy, user, attempt)), user, via }
}

/**
 * A TOTP code, the common case, costs two statements (the second step's goal is < 20 ms of server
 * time): one counts the try and reads the user with their key and the step last used, one takes the
 * step, ends the challenge and (for the console) opens the session together. A recovery code takes
 * the longer path. `token`: the console session opened with the step, if it was.
 */
async function secondStep(
  db: Db,
  throttle: LoginThrottle,
  box: SecretBox,
  body: MfaLoginBody,
  address: string,
  opening: Opening,
): Promise<SecondStepPassed & { token: string | null }> {
  const tokenHash = hashToken(body.mfaToken)
  const [row] = await queryRows<CountedTry>(
    db,
    sql`update mfa_challenges c set tries = c.tries + 1
        from users u left join user_mfa m on m.user_id = u.id
        where c.token_hash = ${tokenHash} and c.tries < ${MFA_TOKEN_TRIES} and c.expires_at > now()
          and not c.passkey_only
          and u.id = c.user_id
        returning c.tries, c.restricted, u.id, u.nick_name as "nickName", u.real_name as "realName", u.status,
          u.password_is_initial as "passwordIsInitial",
          m.secret, m.last_step::float8 as last_step, m.enabled`,
  )
  if (!row) throw new SecondStepRefused(null, unauthorized(SIGN_IN_MSG.mfaTokenInvalid))
  const who = { id: row.id, nickName: row.nickName }
  const admitted = await admit(() => throttle.secondStep(row.id, address), who)
  const user = sessionUserOf(row, restrictionOf(row.restricted), row.enabled === true)
  const { via, token } = await judge(admitted, async () => {
    const step =
      body.code && row.enabled && row.secret !== null
        ? matchStep(box.open(row.secret), body.code, row.last_step ?? 0, Date.now())
        : null
    if (step !== null) {
      const taken = await takeStep(db, user, tokenHash, step, address, opening)
      return { via: taken.taken ? ('code' as const) : null, token: taken.token }
    }
    const recovered =
      !!body.recoveryCode && !!(await checkSecondFactor(db, box, row.id, { recoveryCode: body.recoveryCode }))
    return { via: recovered ? ('recovery' as const) : null, token: null }
  })
  if (!via) {
    if (row.tries >= MFA_TOKEN_TRIES)
      await db.delete(mfaChallenges).where(eq(mfaChallenges.tokenHash, tokenHash))
    throw new SecondStepRefused(who, admitted.refusal(unauthorized(SIGN_IN_MSG.mfaCodeWrong)))
  }
  await admitted.succeeded()
  if (via === 'recovery') await db.delete(mfaChallenges).where(eq(mfaChallenges.tokenHash, tokenHash))
  if (user.status !== 1) throw new SecondStepRefused(who, new AppError(403, MSG.loginFrozen))
  return { user, via, token }
}

/**
 * One statement: the code's step is taken (only if newer than the last taken, so two requests with
 * one code cannot both pass), the challenge ends, and — for the console, an active user — the session
 * opens, with expired sessions swept as openSession does. `taken` false: the step was taken
 * meanwhile; `token` null when no session was opened (single sign-on, or a frozen user: the step is
 * used all the same, as a recovery code would be).
 */
async function takeStep(
  db: Db,
  user: SessionUser,
  tokenHash: string,
  step: number,
  address: string,
  opening: Opening,
): Promise<{ taken: boolean; token: string | null }> {
  const token = newToken()
  const expiresAt = opening
    ? new Date(Date.now() + opening.policy.sessionTtlHours * 3_600_000).toISOString()
    : null
  const [done] = await queryRows<{ taken: number; opened: number }>(
    db,
    sql`with taken as (
          update user_mfa set last_step = ${step}
          where user_id = ${user.id} and enabled and last_step < ${step} returning user_id),
        gone as (
          delete from mfa_challenges where token_hash = ${tokenHash} and exists (select 1 from taken)
          returning 1),
        opened as (
          insert into sessions (token_hash, user_id, expires_at, ip, user_agent, restricted)
          select ${hashToken(token)}, ${user.id}, ${expiresAt}::timestamptz, ${address.slice(0, 64)},
            ${opening?.userAgent?.slice(0, 512) || null}, ${user.restricted}
          where exists (select 1 from taken) and ${user.status} = 1 and ${opening !== null}
          returning id),
        swept as (
          delete from sessions where expires_at < now() and exists (select 1 from opened) returning 1)
        select (select count(*) from taken)::int as taken, (select count(*) from opened)::int as opened`,
  )
  return { taken: done.taken === 1, token: done.opened === 1 ? token : null }
}

/** A refusal by the throttle before the code is even checked is a refused second step too (logged, Retry-After). */
async function admit<T>(begin: () => Promise<T>, who: { id: number; nickName: string }): Promise<T> {
  try {
    return await begin()
  } catch (err) {
    throw new SecondStepRefused(who, err as Error)
  }
}
