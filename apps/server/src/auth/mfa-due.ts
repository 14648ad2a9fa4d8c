import { matchesUrlPattern, routes, type SecuritySettings } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import type { SignInGate } from './sessions'
import { readSecuritySettings } from './security-settings'
import type { Authorizer, EffectiveAccess } from './authorizer'
import { mfaEnabled } from './mfa'

/**
 * The calls that change the system: every route needing a permission that is neither a read (GET) nor
 * a read sent as POST. Holding any of them is what `mfa: admins` calls an administrator (DESIGN.md
 * §14 "a write permission of 系统管理": the administration this product is).
 */
const WRITE_CALLS = Object.values(routes).flatMap((resource) =>
  Object.values(resource).flatMap((r) =>
    r.access || r.readOnly
      ? []
      : [r.method]
          .flat()
          .filter((m) => m !== 'GET')
          .map((method) => ({ method, path: r.path })),
  ),
)

export const holdsWritePermission = (access: Pick<EffectiveAccess, 'superAdmin' | 'backEnd'>): boolean =>
  access.superAdmin ||
  access.backEnd.some((p) => WRITE_CALLS.some((call) => matchesUrlPattern(p, call.method, call.path)))

/** Whether the settings require this user to enrol two-step sign-in before doing anything else. */
export async function mfaEnrolmentDue(
  db: DbOrTx,
  authz: Authorizer,
  settings: SecuritySettings,
  userId: number,
): Promise<boolean> {
  if (settings.mfa === 'off') return false
  if (await mfaEnabled(db, userId)) return false
  if (settings.mfa === 'all') return true
  return holdsWritePermission(await authz.resolve(userId))
}

/** What sign-in asks of the settings for a user (DESIGN.md §14), read afresh at each sign-in. */
export const signInGate = (db: DbOrTx, authz: Authorizer): SignInGate => ({
  settings: () => readSecuritySettings(db),
  mfaEnrolmentDue: (settings, userId) => mfaEnrolmentDue(db, authz, settings, userId),
})
