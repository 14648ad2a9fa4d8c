import { eq } from 'drizzle-orm'
import { isBlank, MSG, type UserInsertBody, type UserUpdateBody } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import { users } from '../../db/schema'
import { hashPassword } from '../../auth/password'
import { recordPasswordSet, requirePolicy } from '../../auth/password-rules'
import { readSecuritySettings } from '../../auth/security-settings'
import { forbidden } from '../../lib/errors'
import { checkNewUser, checkUserUpdate } from './user-rules'

/**
 * A password an administrator sets: a new user's (given or the configured initial one) or a reset
 * through PUT /user/update. Hashing runs before the write's transaction opens (lib/before-transaction.ts).
 */

/** A new or changed password, hashed before the write's transaction opens. */
export interface PreparedPassword {
  hash: string
  /** the configured initial password was used (no password given) */
  initial: boolean
}

/** POST /user/insert before its transaction: the checks that need no database, then the hash. */
export async function prepareNewUser(
  db: DbOrTx,
  initialPassword: string,
  body: UserInsertBody,
): Promise<PreparedPassword> {
  const nickName = checkNewUser(body)
  const given = isBlank(body.password) ? null : body.password!
  // a password given here passes the configured policy (DESIGN.md §14), the user's name included
  if (given) requirePolicy(await readSecuritySettings(db), given, nickName)
  return { hash: await hashPassword(given ?? initialPassword), initial: !given }
}

/** PUT /user/update before its transaction: the checks, then the new password's hash when one is given. */
export async function prepareUserUpdate(
  db: DbOrTx,
  body: UserUpdateBody,
  operatorId: number,
): Promise<string | undefined> {
  // A stolen session must not become a takeover: one's own password changes only with the old one
  // (whatever the password, so this comes before its rules).
  if (body.id === operatorId && !isBlank(body.password)) throw forbidden(MSG.ownPasswordViaChange)
  const nickName = checkUserUpdate(body)
  if (isBlank(body.password)) return undefined
  requirePolicy(await readSecuritySettings(db), body.password!, nickName)
  // No history check here: it would tell the administrator which passwords the user had (an oracle,
  // and before the power check). A reset password must be changed at the next sign-in, and that own
  // change is where the history holds (DESIGN.md §14).
  return hashPassword(body.password!)
}

/** An administrator's reset: the user changes it at the next sign-in, and any lock-out ends (DESIGN.md §14). */
export const resetPasswordColumns = (passwordHash: string) => ({
  passwordHash,
  passwordIsInitial: 0,
  mustChangePassword: 1,
  passwordChangedAt: new Date(),
  failedLogins: 0,
  lockedUntil: null,
})

/** The user's stored password hash, read before a reset replaces it. */
export async function storedPasswordHash(tx: DbOrTx, userId: number): Promise<string | undefined> {
  const [row] = await tx.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId))
  return row?.hash
}

/** The replaced password joins the history, so the user's next own change cannot bring it back. */
export const rememberReplaced = async (tx: DbOrTx, userId: number, replacedHash: string) =>
  recordPasswordSet(tx, await readSecuritySettings(tx), userId, replacedHash, true)
