import type { LOGIN_RESULTS } from '@amg/contract'
import type { FastifyRequest } from 'fastify'
import type { DbOrTx } from '../db/connection'
import { loginLogs } from '../db/audit-schema'

export type LoginResult = (typeof LOGIN_RESULTS)[number]

/** One row of the login log (DESIGN.md §9): every sign-in attempt, sign-out and revocation. */
export async function recordLogin(
  db: DbOrTx,
  entry: {
    nickName: string | null
    userId: number | null
    ip: string | null
    userAgent: string | null
    result: LoginResult
    msg: string | null
  },
): Promise<void> {
  await db.insert(loginLogs).values({
    nickName: entry.nickName?.slice(0, 64) ?? null,
    userId: entry.userId,
    ip: entry.ip?.slice(0, 64) ?? null,
    userAgent: entry.userAgent?.slice(0, 512) || null,
    result: entry.result,
    msg: entry.msg?.slice(0, 512) ?? null,
  })
}

/** A row about a known user, made from this request's client: its address and its user agent. */
export const recordUserLogin = (
  db: DbOrTx,
  req: Pick<FastifyRequest, 'ip' | 'headers'>,
  user: { id: number; nickName: string },
  result: LoginResult,
  msg: string,
): Promise<void> =>
  recordLogin(db, {
    nickName: user.nickName,
    userId: user.id,
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    result,
    msg,
  })
