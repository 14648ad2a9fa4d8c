import { and, count, desc, eq, gt, ilike, sql } from 'drizzle-orm'
import { zonedIso, type OnlineSessionListBody, type OnlineSessionRow, type PageResult } from '@amg/contract'
import type { Db } from '../../db/connection'
import { sessions, users } from '../../db/schema'
import { hashToken } from '../../lib/tokens'
import type { PowerGuard } from '../../auth/power'
import { recordLogin } from '../../audit/login-log'
import { notFound } from '../../lib/errors'
import { paging, pagedList } from '../../lib/paged'
import { containsPattern } from '../../lib/like'
import { requireWritableUsers, visibleUser, type Caller } from '../../auth/user-scope'
import { stageEvents } from '../../events/stage'
import { sessionRevoked, endProviderSessions } from '../../auth/sessions'

export const SESSION_NOT_FOUND = '会话不存在或已结束'
export const SESSION_REVOKED = '已强制下线'

/**
 * POST /session/online/list: live sessions, most recently used first; `current` marks the caller's own.
 * Times are in the server's zone with its offset, as the logs' are (decisions.md "Log times").
 */
export async function listOnline(
  db: Db,
  q: OnlineSessionListBody,
  callerToken: string | null,
  caller: Caller,
  timeZone: string,
): Promise<PageResult<OnlineSessionRow>> {
  const where = and(
    gt(sessions.expiresAt, sql`now()`),
    // only the sessions of users in the caller's scope (DESIGN.md §13)
    visibleUser(caller, users.id),
    eq(users.status, 1),
    q.nickName?.trim() ? ilike(users.nickName, containsPattern(q.nickName.trim())) : undefined,
  )
  const own = callerToken ? hashToken(callerToken) : null
  const { list, total } = await pagedList(
    paging(q),
    (limit, offset) =>
      db
        .select({
          id: sessions.id,
          userId: sessions.userId,
          nickName: users.nickName,
          ip: sessions.ip,
          userAgent: sessions.userAgent,
          loginTime: sessions.createTime,
          lastSeenTime: sessions.lastSeenTime,
          expiresAt: sessions.expiresAt,
          tokenHash: sessions.tokenHash,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(where)
        .orderBy(desc(sessions.lastSeenTime), desc(sessions.id))
        .limit(limit)
        .offset(offset),
    () =>
      db
        .select({ total: count() })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(where),
  )
  return {
    total,
    list: list.map(({ tokenHash, ...r }) => ({
      ...r,
      loginTime: zonedIso(r.loginTime, timeZone),
      lastSeenTime: zonedIso(r.lastSeenTime, timeZone),
      expiresAt: zonedIso(r.expiresAt, timeZone),
      current: tokenHash === own,
    })),
  }
}

/**
 * DELETE /session/online/revoke: the session ends at once; every instance looks sessions up in the
 * database, so its very next request is refused. Ending someone's session manages that user, so
 * the power check applies (DESIGN.md §6a), and the login log records it.
 */
export async function revokeSession(
  db: Db,
  power: PowerGuard,
  caller: { id: number; ip: string | null; userAgent: string | null; scoped: Caller },
  sessionId: number,
): Promise<void> {
  const [target] = await db
    .select({ userId: sessions.userId, nickName: users.nickName })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId))
  if (!target) throw notFound(SESSION_NOT_FOUND)
  await requireWritableUsers(db, caller.scoped, [target.userId])
  await power.require(db, caller.id, { userIds: [target.userId] })
  await db.delete(sessions).where(eq(sessions.id, sessionId))
  // a forced sign-out signs the user out of the applications too (DESIGN.md §16)
  await endProviderSessions(db, target.userId)
  await stageEvents(db, [sessionRevoked(sessionId, target.userId)])
  await recordLogin(db, {
    nickName: target.nickName,
    userId: target.userId,
    ip: caller.ip,
    userAgent: caller.userAgent,
    result: 'revoked',
    msg: SESSION_REVOKED,
  })
}
