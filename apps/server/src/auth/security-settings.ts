import { eq } from 'drizzle-orm'
import { DEFAULT_SECURITY_SETTINGS, MFA_MODES, type MfaMode, type SecuritySettings } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import { securitySettings } from '../db/schema'

/**
 * The security settings row (DESIGN.md §14). Read where a password is set or a user signs in, both of
 * which hash a password and so cost far more than this one-row read: no cache to keep in step across
 * instances.
 */
export async function readSecuritySettings(db: DbOrTx): Promise<SecuritySettings> {
  const [row] = await db.select().from(securitySettings).where(eq(securitySettings.id, 1))
  if (!row) return { ...DEFAULT_SECURITY_SETTINGS }
  return {
    minLength: row.minLength,
    minClasses: row.minClasses,
    notUsername: row.notUsername,
    historyCount: row.historyCount,
    expireDays: row.expireDays,
    forceChangeInitial: row.forceChangeInitial,
    mfa: (MFA_MODES as readonly string[]).includes(row.mfa) ? (row.mfa as MfaMode) : 'off',
  }
}

export async function writeSecuritySettings(db: DbOrTx, s: SecuritySettings): Promise<void> {
  const values = { ...s, updateTime: new Date() }
  await db
    .insert(securitySettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: securitySettings.id, set: values })
}
