import { eq } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import { users } from '../../db/schema'
import { AppError } from '../../lib/errors'
import { ThrottledError } from '../../auth/login-throttle'
import { recordLogin, type LoginResult } from '../../audit/login-log'

/** A refused sign-in in the login log: throttled ('locked'), frozen, or a wrong name or password ('failure'). */
export async function recordLoginRefusal(
  db: Db,
  attempt: { nickName: string; address: string; userAgent: string | null },
  err: unknown,
): Promise<void> {
  const result: LoginResult | null =
    err instanceof ThrottledError
      ? 'locked'
      : err instanceof AppError && err.status === 403
        ? 'frozen'
        : err instanceof AppError && err.status === 401
          ? 'failure'
          : null
  if (!result) return
  const nickName = attempt.nickName.trim()
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.nickName, nickName)).limit(1)
  await recordLogin(db, {
    nickName,
    userId: user?.id ?? null,
    ip: attempt.address,
    userAgent: attempt.userAgent,
    result,
    msg: (err as Error).message,
  })
}
