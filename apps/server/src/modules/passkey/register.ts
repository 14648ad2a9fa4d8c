import { and, eq } from 'drizzle-orm'
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import { PASSKEY_MSG } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import { passkeys, users } from '../../db/schema'
import { badRequest, conflict } from '../../lib/errors'
import { issueChallenge, takeChallenge } from './challenges'
import { expectedBy, type RelyingParty } from './relying-party'

/** The transports as stored (comma-separated) and as the browser wants them back. */
export const transportsOf = (stored: string | null): AuthenticatorTransport[] | undefined =>
  stored ? (stored.split(',') as AuthenticatorTransport[]) : undefined

/**
 * Registration options for the caller (DESIGN.md §23): a discoverable credential (so it signs in with
 * no name typed) with user verification required; the passkeys they have are excluded, so one
 * authenticator is not registered twice.
 */
export async function registrationOptions(db: DbOrTx, rp: RelyingParty, userId: number) {
  const [user] = await db
    .select({ nickName: users.nickName, realName: users.realName })
    .from(users)
    .where(eq(users.id, userId))
  const held = await db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: user.nickName,
    userDisplayName: user.realName || user.nickName,
    userID: new TextEncoder().encode(String(userId)),
    attestationType: 'none',
    excludeCredentials: held.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  })
  await issueChallenge(db, options.challenge, 'register', { userId })
  return options as unknown as Record<string, unknown>
}

/** The challenge a response answers, read from its clientDataJSON (the verifier checks it again). */
function challengeIn(response: { response?: { clientDataJSON?: unknown } }): string {
  try {
    const json = response.response?.clientDataJSON
    if (typeof json !== 'string') throw new Error('no clientDataJSON')
    const data = JSON.parse(isoBase64URL.toUTF8String(json)) as { challenge?: unknown }
    if (typeof data.challenge !== 'string') throw new Error('no challenge')
    return data.challenge
  } catch {
    throw badRequest(PASSKEY_MSG.verifyFailed)
  }
}

/**
 * A registration response checked and its passkey stored (DESIGN.md §23): the challenge must be one
 * handed to this user and not used yet, the origin and relying-party id this console's, the user
 * verified. Answers the new passkey's id.
 */
export async function registerPasskey(
  db: DbOrTx,
  rp: RelyingParty,
  userId: number,
  body: { response: unknown; name: string },
): Promise<number> {
  const name = body.name.trim()
  if (!name) throw badRequest(PASSKEY_MSG.nameRequired)
  const response = body.response as RegistrationResponseJSON
  const challenge = await takeChallenge(db, {
    challenge: challengeIn(response),
    purpose: 'register',
    userId,
  })
  if (!challenge) throw badRequest(PASSKEY_MSG.challengeInvalid)
  let verified
  try {
    verified = await verifyRegistrationResponse({ response, ...expectedBy(rp, challenge.challenge) })
  } catch {
    throw badRequest(PASSKEY_MSG.verifyFailed)
  }
  if (!verified.verified || !verified.registrationInfo) throw badRequest(PASSKEY_MSG.verifyFailed)
  const { credential } = verified.registrationInfo
  const [row] = await db
    .insert(passkeys)
    .values({
      userId,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports?.join(',').slice(0, 128) || null,
      name,
    })
    .onConflictDoNothing()
    .returning({ id: passkeys.id })
  if (!row) throw conflict(PASSKEY_MSG.duplicate)
  return row.id
}

/** A user's passkey by id, or undefined. */
export async function passkeyOf(db: DbOrTx, userId: number, id: number) {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
  return row
}
