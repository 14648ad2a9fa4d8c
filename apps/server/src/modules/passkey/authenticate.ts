import { and, eq, gt } from 'drizzle-orm'
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import { PASSKEY_MSG, SIGN_IN_MSG } from '@amg/contract'
import type { Db } from '../../db/connection'
import { mfaChallenges, passkeys, users } from '../../db/schema'
import { AppError, unauthorized } from '../../lib/errors'
import { hashToken } from '../../lib/tokens'
import { recordLogin } from '../../audit/login-log'
import { issueChallenge, takeChallenge } from './challenges'
import { expectedBy, type RelyingParty } from './relying-party'
import { transportsOf } from './register'

/** A refused passkey sign-in, with whose passkey it was when known (for the login log). */
export class PasskeyRefused extends Error {
  constructor(
    readonly user: { id: number; nickName: string } | null,
    readonly refusal: AppError,
  ) {
    super(refusal.message)
  }
}

/**
 * A passkey sign-in that failed: a refusal goes to the login log (as a failed second step when it was
 * one) and its answer is thrown; any other error passes through as it is.
 */
export async function logRefusal(
  db: Db,
  err: unknown,
  from: { ip: string; userAgent: string | null },
  secondStep: boolean,
): Promise<never> {
  if (!(err instanceof PasskeyRefused)) throw err
  await recordLogin(db, {
    nickName: err.user?.nickName ?? null,
    userId: err.user?.id ?? null,
    ...from,
    result: secondStep ? 'mfa_failure' : 'failure',
    msg: err.refusal.message,
  })
  throw err.refusal
}

/** Who a passed assertion signed in, and the second step's sign-in it completed, if any. */
export interface PasskeyPassed {
  userId: number
  /** the first step's restriction, carried by its mfa challenge (null when the passkey was alone) */
  restricted: string | null
  secondStep: boolean
}

/**
 * Options for a passkey sign-in (DESIGN.md §23). Alone: no credentials listed, so the browser offers
 * the discoverable ones (the button and autofill). As a second step (`mfaToken`): that user's passkeys.
 */
export async function loginOptions(db: Db, rp: RelyingParty, mfaToken: string | undefined) {
  let userId: number | null = null
  const mfaTokenHash = mfaToken ? hashToken(mfaToken) : null
  if (mfaTokenHash) {
    const [pending] = await db
      .select({ userId: mfaChallenges.userId })
      .from(mfaChallenges)
      .where(and(eq(mfaChallenges.tokenHash, mfaTokenHash), gt(mfaChallenges.expiresAt, new Date())))
    if (!pending) throw unauthorized(SIGN_IN_MSG.mfaTokenInvalid)
    userId = pending.userId
  }
  const allow = userId
    ? await db
        .select({ id: passkeys.credentialId, transports: passkeys.transports })
        .from(passkeys)
        .where(eq(passkeys.userId, userId))
    : []
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    userVerification: 'required',
    allowCredentials: allow.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
  })
  const challengeId = await issueChallenge(db, options.challenge, 'login', { userId, mfaTokenHash })
  return { challengeId, options: options as unknown as Record<string, unknown> }
}

/**
 * An assertion checked (DESIGN.md §23): its challenge taken (single use, so a replay or a response
 * made for another challenge is refused), the passkey known, the signature, origin, relying-party id
 * and user verification checked by the verifier, and the counter moved forward (a counter that went
 * back means a cloned authenticator: refused, unless both are 0 as synced passkeys report). As a
 * second step the passkey must be the signing-in user's, and the step's token is spent.
 */
export async function verifyLogin(
  db: Db,
  rp: RelyingParty,
  body: { challengeId: string; response: unknown; mfaToken?: string },
): Promise<PasskeyPassed> {
  const response = body.response as AuthenticationResponseJSON
  const challenge = await takeChallenge(db, { id: body.challengeId, purpose: 'login' })
  const [key] = await db
    .select({ passkey: passkeys, nickName: users.nickName })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialId, String(response.id)))
  const who = key ? { id: key.passkey.userId, nickName: key.nickName } : null
  const refuse = (msg: string) => new PasskeyRefused(who, unauthorized(msg))
  if (!challenge) throw refuse(PASSKEY_MSG.challengeInvalid)
  const mfaTokenHash = body.mfaToken ? hashToken(body.mfaToken) : null
  if (challenge.mfaTokenHash !== mfaTokenHash) throw refuse(PASSKEY_MSG.challengeInvalid)
  if (!key) throw refuse(PASSKEY_MSG.unknownCredential)
  if (challenge.userId !== null && challenge.userId !== key.passkey.userId)
    throw refuse(PASSKEY_MSG.notForThisStep)
  const stored = key.passkey
  let verified
  try {
    verified = await verifyAuthenticationResponse({
      response,
      ...expectedBy(rp, challenge.challenge),
      credential: {
        id: stored.credentialId,
        publicKey: isoBase64URL.toBuffer(stored.publicKey),
        counter: stored.counter,
        transports: transportsOf(stored.transports),
      },
    })
  } catch (err) {
    throw refuse(/counter/i.test((err as Error).message) ? PASSKEY_MSG.counterBack : PASSKEY_MSG.verifyFailed)
  }
  if (!verified.verified) throw refuse(PASSKEY_MSG.verifyFailed)
  // only from the counter just checked: two assertions racing with one counter cannot both pass
  const moved = await db
    .update(passkeys)
    .set({ counter: verified.authenticationInfo.newCounter, lastUsedTime: new Date() })
    .where(and(eq(passkeys.id, stored.id), eq(passkeys.counter, stored.counter)))
    .returning({ id: passkeys.id })
  if (moved.length === 0) throw refuse(PASSKEY_MSG.counterBack)
  if (!mfaTokenHash) return { userId: stored.userId, restricted: null, secondStep: false }
  const [step] = await db
    .delete(mfaChallenges)
    .where(
      and(
        eq(mfaChallenges.tokenHash, mfaTokenHash),
        eq(mfaChallenges.userId, stored.userId),
        gt(mfaChallenges.expiresAt, new Date()),
      ),
    )
    .returning({ restricted: mfaChallenges.restricted })
  if (!step) throw refuse(SIGN_IN_MSG.mfaTokenInvalid)
  return { userId: stored.userId, restricted: step.restricted, secondStep: true }
}
