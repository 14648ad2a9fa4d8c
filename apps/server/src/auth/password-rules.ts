import { and, desc, eq, notInArray } from 'drizzle-orm'
import { POLICY_MSG, passwordPolicyProblem, type SecuritySettings } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import { passwordHistory, users } from '../db/schema'
import { badRequest } from '../lib/errors'
import { verifyPassword } from './password'

/**
 * The password policy on the server (DESIGN.md §14): the contract's rules (the same function the
 * console's forms run) and, for an own change, the history. Every path that sets a password comes
 * through here: user insert, an administrator's update, one's own change, an import's 初始密码.
 */
export function requirePolicy(settings: SecuritySettings, password: string, userName?: string | null): void {
  const problem = passwordPolicyProblem(password, settings, userName)
  if (problem) throw badRequest(problem)
}

/**
 * Refuses a password among the user's last `historyCount` (the current one included). Each check is a
 * password hash, at most `historyCount` of them, and only for an own change.
 */
export async function requireNotReused(
  db: DbOrTx,
  settings: SecuritySettings,
  userId: number,
  currentHash: string,
  password: string,
): Promise<void> {
  if (settings.historyCount <= 0) return
  const earlier = await db
    .select({ hash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.id))
    .limit(Math.max(0, settings.historyCount - 1))
  for (const hash of [currentHash, ...earlier.map((e) => e.hash)])
    if (await verifyPassword(password, hash)) throw badRequest(POLICY_MSG.reused(settings.historyCount))
}

/**
 * A new password is in place: the one it replaces goes to the history (only as many as the policy
 * keeps), the change time restarts expiry, and `mustChange` says whether it was set by someone else.
 */
export async function recordPasswordSet(
  tx: DbOrTx,
  settings: SecuritySettings,
  userId: number,
  replacedHash: string | null,
  mustChange: boolean,
): Promise<void> {
  await tx
    .update(users)
    .set({ passwordChangedAt: new Date(), mustChangePassword: mustChange ? 1 : 0 })
    .where(eq(users.id, userId))
  if (replacedHash) await tx.insert(passwordHistory).values({ userId, passwordHash: replacedHash })
  const keep = await tx
    .select({ id: passwordHistory.id })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.id))
    .limit(Math.max(0, settings.historyCount))
  await tx.delete(passwordHistory).where(
    keep.length
      ? and(
          eq(passwordHistory.userId, userId),
          notInArray(
            passwordHistory.id,
            keep.map((k) => k.id),
          ),
        )
      : eq(passwordHistory.userId, userId),
  )
}

/** Whether a password last set at `changedAt` has outlived the policy's `expireDays`. */
export const passwordExpired = (settings: SecuritySettings, changedAt: Date, now = new Date()) =>
  settings.expireDays > 0 && now.getTime() - changedAt.getTime() > settings.expireDays * 86_400_000
