import { and, eq, gt, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/connection'
import { passkeyChallenges } from '../../db/schema'
import { newToken } from '../../lib/tokens'

/** A challenge lasts as long as the browser's own ceremony timeout (60 s) plus slack. */
export const CHALLENGE_TTL_MS = 5 * 60_000

export type ChallengePurpose = 'register' | 'login'

/**
 * A challenge handed out, kept in the database so any instance verifies it (DESIGN.md §19). Expired
 * ones are swept on the way.
 */
export async function issueChallenge(
  db: DbOrTx,
  challenge: string,
  purpose: ChallengePurpose,
  who: { userId?: number | null; mfaTokenHash?: string | null } = {},
): Promise<string> {
  const id = newToken()
  await db.insert(passkeyChallenges).values({
    id,
    challenge,
    purpose,
    userId: who.userId ?? null,
    mfaTokenHash: who.mfaTokenHash ?? null,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  })
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, new Date()))
  return id
}

/**
 * The challenge taken: deleted in the same statement that finds it, so a response is checked against
 * it at most once (a replay finds nothing), whichever instance the two calls reach.
 */
export async function takeChallenge(
  db: DbOrTx,
  where: { id: string; purpose: 'login' } | { challenge: string; purpose: 'register'; userId: number },
) {
  const [row] = await db
    .delete(passkeyChallenges)
    .where(
      and(
        'id' in where ? eq(passkeyChallenges.id, where.id) : eq(passkeyChallenges.challenge, where.challenge),
        eq(passkeyChallenges.purpose, where.purpose),
        'userId' in where ? eq(passkeyChallenges.userId, where.userId) : sql`true`,
        gt(passkeyChallenges.expiresAt, new Date()),
      ),
    )
    .returning()
  return row
}
