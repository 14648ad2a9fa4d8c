import { matchesUrlPattern, NOT_ADMINISTRATION, routes, type SecuritySettings } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import type { SignInGate } from './sessions'
import { readSecuritySettings } from './security-settings'
import type { Authorizer, EffectiveAccess } from './authorizer'
import { mfaEnabled } from './mfa'
import { enrolmentDue, hasPasskey, passkeyDemand } from './passkey-due'

/**
 * The calls that administer this server (DESIGN.md §14): every route needing a permission that is
 * neither a read (GET) nor a read sent as POST, outside the resources that are not administration
 * (file upload).
 */
const ADMINISTRATION_CALLS = Object.values(routes).flatMap((resource) =>
  Object.values(resource).flatMap((r) =>
    r.access || r.readOnly || NOT_ADMINISTRATION.includes(r.resource)
      ? []
      : [r.method]
          .flat()
          .filter((m) => m !== 'GET')
          .map((method) => ({ method, path: r.path })),
  ),
)

/**
 * An administrator (DESIGN.md §14), the one rule wherever `mfa: admins` is asked (sign-in, the single
 * sign-on login, the session a password change leaves): a super admin, or a user whose permissions
 * let them make a call that administers this server, whichever node of the tree grants it. Judged by
 * this server's own back-end patterns, so no node of another service counts.
 */
export const isAdministrator = (access: Pick<EffectiveAccess, 'superAdmin' | 'backEnd'>): boolean =>
  access.superAdmin ||
  access.backEnd.some((p) =>
    ADMINISTRATION_CALLS.some((call) => matchesUrlPattern(p, call.method, call.path)),
  )

/** Whether the settings require this user to enrol two-step sign-in before doing anything else. */
export async function mfaEnrolmentDue(
  db: DbOrTx,
  authz: Authorizer,
  settings: SecuritySettings,
  userId: number,
): Promise<boolean> {
  // admins-passkey asks administrators for a passkey, not TOTP (passkey-due.ts)
  if (settings.mfa === 'off' || settings.mfa === 'admins-passkey') return false
  if (await mfaEnabled(db, userId)) return false
  // a passkey serves as the second step where TOTP is asked (DESIGN.md §23)
  if (await hasPasskey(db, userId)) return false
  return mfaAsked(authz, settings, userId)
}

/** Whether the settings ask this user for a second step at all (TOTP or, §23, a passkey). */
export async function mfaAsked(authz: Authorizer, settings: SecuritySettings, userId: number) {
  if (settings.mfa === 'off') return false
  if (settings.mfa === 'all') return true
  return isAdministrator(await authz.resolve(userId))
}

/** What sign-in asks of the settings for a user (DESIGN.md §14), read afresh at each sign-in. */
export const signInGate = (db: DbOrTx, authz: Authorizer): SignInGate => ({
  settings: () => readSecuritySettings(db),
  mfaEnrolmentDue: (settings, userId) => mfaEnrolmentDue(db, authz, settings, userId),
  passkeyDemand: (settings, userId) => passkeyDemand(db, authz, settings, userId),
  enrolmentDue: (settings, userId) => enrolmentDue(db, authz, settings, userId),
})
