import { and, eq, gt, lt, sql } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import type { DbOrTx, Db } from '../db/connection'
import { sessions, users } from '../db/schema'
import { AppError, unauthorized } from '../lib/errors'
import { dummyPasswordHash, verifyPassword } from './password'
import { hashToken, newToken } from './tokens'

export interface SessionUser {
  id: number
  nickName: string
  realName: string | null
  status: number
}

export interface SessionPolicy {
  sessionTtlHours: number
  loginMaxFailures: number
  loginLockMinutes: number
}

/** Sign-in with lock-out after repeated failures; unknown user and wrong password answer alike. */
export async function login(db: Db, policy: SessionPolicy, nickName: string, password: string) {
  const [user] = await db.select().from(users).where(eq(users.nickName, nickName.trim())).limit(1)
  if (!user) {
    await verifyPassword(password, await dummyPasswordHash())
    throw unauthorized(MSG.loginFailed)
  }
  const now = new Date()
  if (user.lockedUntil && user.lockedUntil > now) throw new AppError(429, MSG.loginLocked)
  if (!(await verifyPassword(password, user.passwordHash))) {
    const failures = (user.lockedUntil && user.lockedUntil <= now ? 0 : user.failedLogins) + 1
    const lock = failures >= policy.loginMaxFailures
    await db
      .update(users)
      .set({
        failedLogins: lock ? 0 : failures,
        lockedUntil: lock ? new Date(now.getTime() + policy.loginLockMinutes * 60_000) : null,
      })
      .where(eq(users.id, user.id))
    throw lock ? new AppError(429, MSG.loginLocked) : unauthorized(MSG.loginFailed)
  }
  if (user.status !== 1) throw new AppError(403, MSG.loginFrozen)
  const token = newToken()
  await db.transaction(async (tx) => {
    await tx.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id))
    await tx.insert(sessions).values({
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(now.getTime() + policy.sessionTtlHours * 3_600_000),
    })
    // Expired sessions are cleared as new ones are made, so the table stays small.
    await tx.delete(sessions).where(lt(sessions.expiresAt, now))
  })
  const sessionUser: SessionUser = {
    id: user.id,
    nickName: user.nickName,
    realName: user.realName,
    status: user.status,
  }
  return { token, user: sessionUser }
}

/** The signed-in user behind a token, or null when the token is unknown, expired or the user is frozen. */
export async function findSessionUser(db: Db, token: string): Promise<SessionUser | null> {
  const [row] = await db
    .select({ id: users.id, nickName: users.nickName, realName: users.realName, status: users.status })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, sql`now()`), eq(users.status, 1)),
    )
    .limit(1)
  return row ?? null
}

export async function endSession(db: Db, token: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)))
}

/** End every session of a user, except optionally the one in use (password change keeps it). */
export async function endUserSessions(db: DbOrTx, userId: number, keepToken?: string) {
  const keep = keepToken ? hashToken(keepToken) : undefined
  await db
    .delete(sessions)
    .where(
      keep
        ? and(eq(sessions.userId, userId), sql`${sessions.tokenHash} <> ${keep}`)
        : eq(sessions.userId, userId),
    )
}
