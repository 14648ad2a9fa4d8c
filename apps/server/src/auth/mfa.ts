import { randomInt } from 'node:crypto'
import { and, eq, isNull, lt } from 'drizzle-orm'
import { SIGN_IN_MSG } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import { mfaRecoveryCodes, userMfa } from '../db/schema'
import { badRequest } from '../lib/errors'
import type { SecretBox } from '../lib/secret-box'
import { matchStep, newTotpSecret, otpauthUri } from './totp'

/**
 * A user's two-step sign-in (DESIGN.md §14): the TOTP key (sealed, secret-box.ts), the last step
 * accepted (no code twice), and ten recovery codes stored as keyed hashes, each usable once.
 */

export const RECOVERY_CODE_COUNT = 10
/** no 0/o, 1/l/i: a code read off paper is typed right */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** `xxxxx-xxxxx`: 10 characters of a 31-letter alphabet, about 50 bits. */
function newRecoveryCode(): string {
  let code = ''
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]
  return `${code.slice(0, 5)}-${code.slice(5)}`
}

/** The form a recovery code is hashed in: case, spaces and dashes do not matter. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '')

export async function mfaEnabled(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db.select({ enabled: userMfa.enabled }).from(userMfa).where(eq(userMfa.userId, userId))
  return row?.enabled === true
}

/** Enrolment, first step: a new key (replacing one not yet confirmed), for the QR code and typing in. */
export async function setupMfa(db: DbOrTx, box: SecretBox, user: { id: number; nickName: string }) {
  if (await mfaEnabled(db, user.id)) throw badRequest(SIGN_IN_MSG.mfaAlreadyOn)
  const secret = newTotpSecret()
  const sealed = box.seal(secret)
  await db
    .insert(userMfa)
    .values({ userId: user.id, secret: sealed, enabled: false, lastStep: 0 })
    .onConflictDoUpdate({ target: userMfa.userId, set: { secret: sealed, enabled: false, lastStep: 0 } })
  return { otpauthUri: otpauthUri(secret, user.nickName), secret }
}

/**
 * Accepts a TOTP code for a user's key: the step is recorded in the same statement that checks it is
 * newer than the last one, so two requests with one code cannot both pass.
 */
async function acceptCode(
  db: DbOrTx,
  box: SecretBox,
  userId: number,
  code: string,
  enabled: boolean,
  now: number,
): Promise<boolean> {
  const [row] = await db.select().from(userMfa).where(eq(userMfa.userId, userId))
  if (!row || row.enabled !== enabled) return false
  const step = matchStep(box.open(row.secret), code, row.lastStep, now)
  if (step === null) return false
  const taken = await db
    .update(userMfa)
    .set({ lastStep: step, ...(enabled ? {} : { enabled: true }) })
    .where(and(eq(userMfa.userId, userId), lt(userMfa.lastStep, step), eq(userMfa.enabled, enabled)))
    .returning({ userId: userMfa.userId })
  return taken.length === 1
}

/** Enrolment, second step: the first code proves the key is in the app; answers the recovery codes. */
export async function enableMfa(db: DbOrTx, box: SecretBox, userId: number, code: string, now = Date.now()) {
  const [row] = await db.select({ enabled: userMfa.enabled }).from(userMfa).where(eq(userMfa.userId, userId))
  if (!row) throw badRequest(SIGN_IN_MSG.mfaSetupFirst)
  if (row.enabled) throw badRequest(SIGN_IN_MSG.mfaAlreadyOn)
  if (!(await acceptCode(db, box, userId, code, false, now))) throw badRequest(SIGN_IN_MSG.mfaCodeWrong)
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId))
  await db
    .insert(mfaRecoveryCodes)
    .values(codes.map((c) => ({ userId, codeHash: box.mac(normalizeRecoveryCode(c)) })))
  return codes
}

/** A second factor at sign-in (or to disable): a TOTP code, or a recovery code, used up. */
export async function checkSecondFactor(
  db: DbOrTx,
  box: SecretBox,
  userId: number,
  proof: { code?: string; recoveryCode?: string },
  now = Date.now(),
): Promise<'code' | 'recovery' | null> {
  if (proof.code && (await acceptCode(db, box, userId, proof.code, true, now))) return 'code'
  if (proof.recoveryCode) {
    const normalized = normalizeRecoveryCode(proof.recoveryCode)
    if (normalized.length !== 10) return null
    const used = await db
      .update(mfaRecoveryCodes)
      .set({ usedAt: new Date(now) })
      .where(
        and(
          eq(mfaRecoveryCodes.userId, userId),
          eq(mfaRecoveryCodes.codeHash, box.mac(normalized)),
          isNull(mfaRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: mfaRecoveryCodes.id })
    if (used.length === 1) return 'recovery'
  }
  return null
}

/** Removes a user's key and recovery codes (own disabling after proof, or an administrator's reset). */
export async function removeMfa(db: DbOrTx, userId: number) {
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId))
  await db.delete(userMfa).where(eq(userMfa.userId, userId))
}
