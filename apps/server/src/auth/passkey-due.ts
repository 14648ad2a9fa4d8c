import type { Restriction, SecuritySettings } from '@amg/contract'
import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../db/connection'
import { passkeys } from '../db/schema'
import type { Authorizer } from './authorizer'
import { mfaAsked, mfaEnrolmentDue } from './mfa-due'
import type { PasskeyDemand } from './sessions'

/** Whether the user has registered a passkey (DESIGN.md §23). */
export async function hasPasskey(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .limit(1)
  return !!row
}

/**
 * What the settings ask of a user about passkeys (DESIGN.md §23): `asked`, a second step is asked of
 * them (a passkey serves for it); `passkeyOnly`, under `mfa: admins-passkey` an administrator (§14's
 * rule, mfa-due.ts) must use a passkey and nothing else.
 */
export async function passkeyDemand(
  db: DbOrTx,
  authz: Authorizer,
  settings: SecuritySettings,
  userId: number,
): Promise<PasskeyDemand> {
  const asked = await mfaAsked(authz, settings, userId)
  return { has: await hasPasskey(db, userId), asked, passkeyOnly: asked && settings.mfa === 'admins-passkey' }
}

/**
 * The restriction a session starts with when the password needs nothing (sign-in, and the session a
 * password change leaves): an administrator under admins-passkey without a passkey enrols one, a
 * user asked for two-step sign-in with neither TOTP nor a passkey enrols TOTP.
 */
export async function enrolmentDue(
  db: DbOrTx,
  authz: Authorizer,
  settings: SecuritySettings,
  userId: number,
): Promise<Restriction | null> {
  const pk = await passkeyDemand(db, authz, settings, userId)
  if (pk.passkeyOnly && !pk.has) return 'passkey_enroll'
  return (await mfaEnrolmentDue(db, authz, settings, userId)) ? 'mfa_enroll' : null
}
